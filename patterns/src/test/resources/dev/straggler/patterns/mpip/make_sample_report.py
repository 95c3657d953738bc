#!/usr/bin/env python3
"""Writes sample-k2.mpiP, an mpiP 3.5 report of an invented 4-task run, laid out as mpiP's report.c prints it
(section headings of 75 dashes, the printf formats of the verbose report). The per-rank numbers below are the
ground truth the parser test checks against; everything in the report is derived from them here."""
import math

RANKS = 4
APP = [9.51, 9.51, 9.52, 9.50]  # seconds
HOSTS = ["node01", "node01", "node02", "node02"]
# callsite id -> (op, frames innermost first as (file or None for unknown, address, line, function),
#                 per rank (count, total ms, max ms, min ms, bytes per call) or None when the rank never called it)
SITES = {
    1: ("Allreduce", [("timing.c", None, 338, "hypre_PrintTiming"), ("amg.c", None, 421, "main")],
        [(1, 0.0138, 0.0138, 0.0138, 8), (1, 0.0138, 0.0138, 0.0138, 8), (1, 0.0143, 0.0143, 0.0143, 8),
         (1, 0.013, 0.013, 0.013, 8)]),
    2: ("Isend", [("exchange.c", None, 120, "exchange_halo"), ("solver.c", None, 88, "solve")],
        [(1000, 200.0, 0.91, 0.11, 8192), (1000, 210.0, 0.95, 0.12, 8192), (1000, 190.0, 0.88, 0.1, 8192),
         (1000, 205.0, 0.93, 0.11, 8192)]),
    3: ("Waitall", [("exchange.c", None, 140, "exchange_halo"), ("solver.c", None, 88, "solve")],
        [(100, 500.0, 21.0, 0.5, 0), (100, 520.0, 22.5, 0.6, 0), (100, 900.0, 40.2, 0.9, 0),
         (100, 610.0, 25.0, 0.7, 0)]),
    4: ("Barrier", [(None, "0x4011a2", 0, "[unknown]"), ("driver.c", None, 55, "main")],
        [(10, 150.0, 30.0, 2.0, 0), (10, 140.0, 29.0, 1.5, 0), (10, 20.0, 4.0, 0.5, 0), (10, 160.0, 31.0, 2.5, 0)]),
    5: ("Recv", [("io.c", None, 77, "gather_results"), ("amg.c", None, 430, "main")],
        [(5, 10.0, 3.0, 1.0, 0), (5, 12.0, 3.5, 1.2, 0), None, (5, 11.0, 3.2, 1.1, 0)]),
}


def heading(title):
    line = "-" * 75
    head = "@--- %s " % title
    head += "-" * (75 - len(head))
    return "%s\n%s\n%s\n" % (line, head, line)


def main():
    mpi = [0.0] * RANKS
    for op, frames, rows in SITES.values():
        for r, row in enumerate(rows):
            if row:
                mpi[r] += row[1] / 1000.0
    out = []
    out.append("@ mpiP\n")
    out.append("@ Command : ./amg -P 2 2 1 -n 50 50 50 \n")
    for k, v in [("Version", "3.5.0"), ("MPIP Build date", "Oct 20 2020, 18:22:06"),
                 ("Start time", "2020 10 20 18:25:41"), ("Stop time", "2020 10 20 18:25:51"),
                 ("Timer Used", "PMPI_Wtime"), ("MPIP env var", "-k2"), ("Collector Rank", "0"),
                 ("Collector PID", "9164"), ("Final Output Dir", "."), ("Report generation", "Single collector task")]:
        out.append("%-2s%-25s: %s\n" % ("@", k, v))
    for r in range(RANKS):
        out.append("%-2s%-25s: %d %s\n" % ("@", "MPI Task Assignment", r, HOSTS[r]))
    out.append("\n")
    out.append(heading("MPI Time (seconds)"))
    out.append("%-4s %10s %10s    %5s\n" % ("Task", "AppTime", "MPITime", "MPI%"))
    for r in range(RANKS):
        out.append("%4d %10.3g %10.3g    %5.2f\n" % (r, APP[r], mpi[r], 100 * mpi[r] / APP[r]))
    out.append("   * %10.3g %10.3g    %5.2f\n" % (sum(APP), sum(mpi), 100 * sum(mpi) / sum(APP)))

    out.append(heading("Callsites: %d" % len(SITES)))
    flen = max(18, max(len(f[0]) for s in SITES.values() for f in s[1] if f[0]))
    glen = max(24, max(len(f[3]) for s in SITES.values() for f in s[1]))
    out.append("%3s %3s %-*s %5s %-*s %s\n" % ("ID", "Lev", flen, "File/Address", "Line", glen, "Parent_Funct", "MPI_Call"))
    for sid, (op, frames, rows) in SITES.items():
        for lev, (f, addr, line, func) in enumerate(frames):
            shown = op if lev == 0 else ""
            if f is None:
                out.append("%3d %3d %-*s %-*s %s\n" % (sid, lev, flen + 6, addr, glen, func, shown))
            else:
                out.append("%3d %3d %-*s %5d %-*s %s\n" % (sid, lev, flen, f, line, glen, func, shown))

    def total(rows):
        return sum(r[1] for r in rows if r)

    def cov(rows):
        data = [r[1] for r in rows if r]
        if len(data) <= 1:
            return 0.0
        avg = sum(data) / len(data)
        var = sum((d - avg) ** 2 for d in data) / (len(data) - 1)
        return math.sqrt(var) / avg if avg > 0 else 0.0

    app_us = sum(APP) * 1e6
    mpi_us = sum(mpi) * 1e6
    out.append(heading("Aggregate Time (top twenty, descending, milliseconds)"))
    out.append("%-20s %4s %12s%6s  %6s     %6s %6s\n" % ("Call", "Site", "Time  ", "App%", "MPI%", "Count", "COV"))
    for sid, (op, frames, rows) in sorted(SITES.items(), key=lambda kv: -total(kv[1][2])):
        t_us = total(rows) * 1000
        out.append("%-20s %4d %10.3g  %6.2f  %6.2f %10d %6.2f\n" % (
            op, sid, t_us / 1000.0, 100.0 * t_us / app_us, 100.0 * t_us / mpi_us, sum(r[0] for r in rows if r), cov(rows)))

    sent_total = sum(r[0] * r[4] for s in SITES.values() for r in s[2] if r)
    out.append(heading("Aggregate Sent Message Size (top twenty, descending, bytes)"))
    out.append("%-20s %4s %10s %10s %10s %6s\n" % ("Call", "Site", "Count", "Total", "Avrg", "Sent%"))
    sites_by_bytes = sorted(SITES.items(), key=lambda kv: -sum(r[0] * r[4] for r in kv[1][2] if r))
    for sid, (op, frames, rows) in sites_by_bytes:
        b = sum(r[0] * r[4] for r in rows if r)
        c = sum(r[0] for r in rows if r)
        if b > 0:
            out.append("%-20s %4d %10d %10.3g %10.3g %6.2f\n" % (op, sid, c, b, b / c, b * 100.0 / sent_total))
    out.append("\nTotal send/collective operation calls >= 0 bytes : 4004 of 4004 operations\n")

    entries = sum(1 for s in SITES.values() for r in s[2] if r)
    out.append(heading("Callsite Time statistics (all, milliseconds): %d" % entries))
    out.append("%-17s %4s %4s %6s %8s %8s %8s %6s %6s\n" % ("Name", "Site", "Rank", "Count", "Max", "Mean", "Min", "App%", "MPI%"))
    ordered = sorted(SITES.items(), key=lambda kv: (kv[1][0], kv[0]))
    for i, (sid, (op, frames, rows)) in enumerate(ordered):
        for r, row in enumerate(rows):
            if row:
                cnt, tot, mx, mn, _ = row
                out.append("%-17s %4d %4d %6d %8.3g %8.3g %8.3g %6.2f %6.2f\n" % (
                    op, sid, r, cnt, mx, tot / cnt, mn, 100.0 * tot / (APP[r] * 1e3), 100.0 * tot / (mpi[r] * 1e3)))
        live = [row for row in rows if row]
        cnt = sum(x[0] for x in live)
        tot = sum(x[1] for x in live)
        out.append("%-17s %4d %4s %6d %8.3g %8.3g %8.3g %6.2f %6.2f\n" % (
            op, sid, "*", cnt, max(x[2] for x in live), tot / cnt, min(x[3] for x in live),
            100.0 * tot * 1e3 / app_us, 100.0 * tot * 1e3 / mpi_us))
        if i < len(ordered) - 1:
            out.append("\n")

    out.append(heading("Callsite Message Sent statistics (all, sent bytes)"))
    out.append("%-17s %4s %4s %7s %9s %9s %9s %9s\n" % ("Name", "Site", "Rank", "Count", "Max", "Mean", "Min", "Sum"))
    first = True
    for sid, (op, frames, rows) in ordered:
        live = [(r, row) for r, row in enumerate(rows) if row and row[4] > 0]
        if not live:
            continue
        if not first:
            out.append("\n")
        first = False
        for r, row in live:
            cnt, _, _, _, b = row
            out.append("%-17s %4d %4d %7d %9.4g %9.4g %9.4g %9.4g\n" % (op, sid, r, cnt, b, b, b, cnt * b))
        cnt = sum(row[0] for _, row in live)
        s = sum(row[0] * row[4] for _, row in live)
        out.append("%-17s %4d %4s %7d %9.4g %9.4g %9.4g %9.4g\n" % (
            op, sid, "*", cnt, max(row[4] for _, row in live), s / cnt, min(row[4] for _, row in live), s))
    out.append(heading("End of Report"))
    with open("sample-k2.mpiP", "w") as f:
        f.write("".join(out))


if __name__ == "__main__":
    main()
