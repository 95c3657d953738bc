package dev.straggler.trace;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Checks that a trace holds what the analysis relies on. Per location: time never goes backwards and stays within
 * the clock range the trace declares, ENTER/LEAVE are balanced and properly nested, every reference names a defined
 * region or communicator, peers and roots are ranks of their communicator, the location's rank belongs to the
 * communicator it uses, collective begin/end records pair up, sizes are neither negative nor absurd, and the number
 * of events read is the number declared. Across locations ({@link CommunicationCheck}): every send is received and
 * every receive sent, with the same length; every collective instance is complete, with the same operation and root
 * on all members; clock-condition violations are warnings, counted by kind. Each finding names the location, the
 * event index and its time (seconds since the start of the measurement, and the tick value).
 *
 * <p>Locations are checked in parallel; the report lists problems in location order, at most
 * {@code maxPerLocation} per location (the total count is always exact).
 */
public final class TraceValidator {

    /**
     * One problem at one event. {@code eventIndex} is the position in the location's stream (-1: end of stream);
     * {@code time} its timestamp in ticks of {@code clock}, printed as seconds since the start.
     */
    public record Problem(int location, int rank, long eventIndex, long time, String message, boolean warning,
                          Clock clock) {
        @Override
        public String toString() {
            return (warning ? "warning: " : "") + "location " + location + " (rank " + rank + "), event " + (eventIndex < 0 ? "end" : String.valueOf(eventIndex))
                    + (eventIndex < 0 ? "" : " at " + clock.describe(time)) + ": " + message;
        }
    }

    /**
     * The outcome: the listed findings (problems and warnings, in location order), the true number of problems
     * and of warnings, and the clock-condition violations by kind.
     */
    public record Report(List<Problem> problems, long problemCount, long warningCount, long p2pClockViolations,
                         long collectiveClockViolations) {
        public Report(List<Problem> problems, long problemCount) {
            this(problems, problemCount, 0, 0, 0);
        }

        /** No problems (warnings allowed). */
        public boolean ok() {
            return problemCount == 0;
        }
    }

    /** Larger than any single message or collective transfer of a real run: 2^40 bytes (1 TiB). */
    static final long ABSURD_BYTES = 1L << 40;

    private TraceValidator() {
    }

    public static Report validate(TraceSource trace) throws IOException {
        return validate(trace, 20);
    }

    public static Report validate(TraceSource trace, int maxPerLocation) throws IOException {
        TraceDefinitions defs = trace.definitions();
        int n = defs.locations().size();
        int[][] localRankOf = localRankTables(defs);
        LocationResult[] results = new LocationResult[n];
        boolean countsDeclared = !(PlausibleTrace.unwrap(trace) instanceof dev.straggler.trace.otf2.Otf2Archive);
        ParallelLocations.forEach(n, l -> results[l] = check(trace, defs, localRankOf, l, maxPerLocation,
                countsDeclared));
        CommunicationCheck.Records[] records = new CommunicationCheck.Records[n];
        for (int l = 0; l < n; l++) {
            records[l] = results[l].records;
        }
        CommunicationCheck.Result comm = CommunicationCheck.check(defs, records, maxPerLocation);
        List<Problem> all = new ArrayList<>();
        long count = 0;
        for (LocationResult r : results) {
            all.addAll(r.listed);
            count += r.count;
        }
        for (CommunicationCheck.Finding f : comm.listed) {
            all.add(new Problem(f.location(), f.rank(), f.eventIndex(), f.time(), f.message(), f.warning(),
                    defs.clock()));
        }
        all.sort(java.util.Comparator.comparingInt(Problem::location).thenComparingLong(
                p -> p.eventIndex() < 0 ? Long.MAX_VALUE : p.eventIndex()));
        return new Report(List.copyOf(all), count + comm.errors, comm.warnings, comm.p2pViolations,
                comm.collectiveViolations);
    }

    /** For each communicator, global rank -> rank within it (-1: not a member). */
    private static int[][] localRankTables(TraceDefinitions defs) {
        int maxRank = 0;
        for (Location l : defs.locations()) {
            maxRank = Math.max(maxRank, l.rank());
        }
        for (Communicator c : defs.communicators()) {
            for (int m : c.members()) {
                maxRank = Math.max(maxRank, m);
            }
        }
        int[][] t = new int[defs.communicators().size()][];
        for (Communicator c : defs.communicators()) {
            int[] map = new int[maxRank + 1];
            Arrays.fill(map, -1);
            for (int i = 0; i < c.members().length; i++) {
                if (c.members()[i] >= 0) {
                    map[c.members()[i]] = i;
                }
            }
            t[c.id()] = map;
        }
        return t;
    }

    private static final class LocationResult {
        final List<Problem> listed = new ArrayList<>();
        Clock clock;
        long count;
        CommunicationCheck.Records records;
    }

    private static LocationResult check(TraceSource trace, TraceDefinitions defs, int[][] localRankOf, int loc, int max,
                                        boolean countsDeclared) throws IOException {
        LocationResult res = new LocationResult();
        res.clock = defs.clock();
        Location location = defs.location(loc);
        int rank = location.rank();
        CommunicationCheck.Records comm = new CommunicationCheck.Records(loc, rank);
        res.records = comm;
        Clock clock = defs.clock();
        boolean ranged = clock.traceLength() > 0;
        long lo = clock.globalOffset();
        long hi = lo + clock.traceLength();
        long collectiveBegin = 0;
        long read = 0;
        int nRegions = defs.regions().size();
        int[] stack = new int[64];
        int depth = 0;
        long lastTime = Long.MIN_VALUE;
        boolean inCollective = false;
        long lastIndex = -1;
        long lastEventTime = 0;
        EventBatch b = new EventBatch(8192);
        try (LocationReader r = trace.openLocation(loc)) {
            while (r.next(b)) {
                for (int i = 0; i < b.size; i++) {
                    long idx = b.firstIndex + i;
                    long t = b.time[i];
                    lastIndex = idx;
                    lastEventTime = t;
                    read++;
                    if (ranged && (t < lo || t > hi)) {
                        report(res, max, loc, rank, idx, t, "timestamp outside the trace's clock range, from its "
                                + "start to " + clock.duration(clock.traceLength()) + " (t=" + lo + " to t=" + hi + ")");
                    }
                    if (t < lastTime) {
                        report(res, max, loc, rank, idx, t, "time goes backwards (previous event at "
                                + clock.describe(lastTime) + ")");
                    }
                    lastTime = t;
                    byte k = b.kind[i];
                    switch (k) {
                        case EventKind.ENTER_CODE -> {
                            int reg = b.ref[i];
                            if (reg < 0 || reg >= nRegions) {
                                report(res, max, loc, rank, idx, t, "ENTER of undefined region " + reg);
                            }
                            if (depth == stack.length) {
                                stack = Arrays.copyOf(stack, depth * 2);
                            }
                            stack[depth++] = reg;
                        }
                        case EventKind.LEAVE_CODE -> {
                            int reg = b.ref[i];
                            if (reg < 0 || reg >= nRegions) {
                                report(res, max, loc, rank, idx, t, "LEAVE of undefined region " + reg);
                            }
                            if (depth == 0) {
                                report(res, max, loc, rank, idx, t, "LEAVE of " + name(defs, reg) + " without a matching ENTER");
                            } else {
                                int open = stack[depth - 1];
                                if (open == reg) {
                                    depth--;
                                } else {
                                    report(res, max, loc, rank, idx, t, "LEAVE of " + name(defs, reg) + " while "
                                            + name(defs, open) + " is the innermost open region");
                                    // resynchronise on the region being left, if it is open further out, so one
                                    // crossing is reported once rather than at every following LEAVE
                                    for (int d = depth - 2; d >= 0; d--) {
                                        if (stack[d] == reg) {
                                            depth = d;
                                            break;
                                        }
                                    }
                                }
                            }
                        }
                        case EventKind.MPI_SEND_CODE, EventKind.MPI_ISEND_CODE, EventKind.MPI_RECV_CODE, EventKind.MPI_IRECV_CODE -> {
                            boolean send = k == EventKind.MPI_SEND_CODE || k == EventKind.MPI_ISEND_CODE;
                            boolean ok = checkCommunication(res, max, defs, localRankOf, loc, rank, idx, t, b.comm[i],
                                    b.ref[i], EventKind.of(k).name() + (send ? " to" : " from"), false);
                            checkBytes(res, max, loc, rank, idx, t, EventKind.of(k).name() + " message length", b.bytes[i]);
                            if (ok) {
                                int peer = defs.communicator(b.comm[i]).globalRank(b.ref[i]);
                                if (send) {
                                    comm.send(b.comm[i], peer, b.tag[i], b.bytes[i], t, idx);
                                } else {
                                    comm.receive(b.comm[i], peer, b.tag[i], b.bytes[i], t, idx);
                                }
                            }
                        }
                        case EventKind.THREAD_BEGIN_CODE -> {
                            // the contingent names the creating process's threads: -1 (none) or a communicator
                            if (b.comm[i] < -1 || b.comm[i] >= defs.communicators().size()) {
                                report(res, max, loc, rank, idx, t, "THREAD_BEGIN names undefined communicator "
                                        + b.comm[i] + " as its thread contingent");
                            }
                        }
                        case EventKind.MPI_COLLECTIVE_BEGIN_CODE -> {
                            if (inCollective) {
                                report(res, max, loc, rank, idx, t, "MPI_COLLECTIVE_BEGIN inside another collective");
                            }
                            inCollective = true;
                            collectiveBegin = t;
                        }
                        case EventKind.MPI_COLLECTIVE_END_CODE -> {
                            if (!inCollective) {
                                report(res, max, loc, rank, idx, t, "MPI_COLLECTIVE_END without MPI_COLLECTIVE_BEGIN");
                            }
                            boolean begun = inCollective;
                            inCollective = false;
                            if (!CollectiveOp.isValidCode(b.ref[i])) {
                                report(res, max, loc, rank, idx, t, "unknown collective operation code " + b.ref[i]);
                            }
                            boolean ok = checkCommunication(res, max, defs, localRankOf, loc, rank, idx, t, b.comm[i],
                                    b.tag[i], "collective root", true);
                            checkBytes(res, max, loc, rank, idx, t, "MPI_COLLECTIVE_END bytes sent", b.bytes[i]);
                            checkBytes(res, max, loc, rank, idx, t, "MPI_COLLECTIVE_END bytes received", b.aux[i]);
                            if (ok) {
                                comm.collective(b.comm[i], b.ref[i], b.tag[i], begun ? collectiveBegin : t, t, idx);
                            }
                        }
                        case EventKind.MEASUREMENT_ON_OFF_CODE -> {
                            if (b.ref[i] != 1 && b.ref[i] != 2) {
                                report(res, max, loc, rank, idx, t, "measurement mode must be 1 (on) or 2 (off), is " + b.ref[i]);
                            }
                        }
                        default -> {
                            // request and program records carry no references to check
                        }
                    }
                }
            }
        } catch (TraceFormatException e) {
            // a location that cannot be read (a store file failing its checksum, a damaged stream) is a finding;
            // the other locations are still checked
            report(res, max, loc, rank, lastIndex + 1, lastEventTime, "unreadable from here on: " + e.getMessage());
            return res;
        }
        if (depth > 0) {
            report(res, max, loc, rank, -1, lastEventTime, depth + " region(s) still open at the end of the stream, innermost "
                    + name(defs, stack[depth - 1]) + " (last event " + lastIndex + ")");
        }
        if (inCollective) {
            report(res, max, loc, rank, -1, lastEventTime, "MPI_COLLECTIVE_BEGIN without MPI_COLLECTIVE_END at the end of the stream");
        }
        if (countsDeclared && location.events() >= 0 && read != location.events()) {
            report(res, max, loc, rank, -1, lastEventTime, read + " events read, " + location.events()
                    + " declared for this location");
        }
        return res;
    }

    private static void checkBytes(LocationResult res, int max, int loc, int rank, long idx, long t, String what,
                                   long bytes) {
        if (bytes < 0) {
            report(res, max, loc, rank, idx, t, what + " is negative: " + bytes);
        } else if (bytes > ABSURD_BYTES) {
            report(res, max, loc, rank, idx, t, what + " is absurd: " + bytes + " bytes (more than 1 TiB)");
        }
    }

    /** @return true when the record's communicator, peer and membership are valid */
    private static boolean checkCommunication(LocationResult res, int max, TraceDefinitions defs, int[][] localRankOf, int loc,
                                              int rank, long idx, long t, int comm, int peer, String what, boolean peerOptional) {
        if (comm < 0 || comm >= defs.communicators().size()) {
            report(res, max, loc, rank, idx, t, what.split(" ")[0] + " on undefined communicator " + comm);
            return false;
        }
        boolean ok = true;
        Communicator c = defs.communicator(comm);
        if (!(peerOptional && peer == -1) && (peer < 0 || peer >= c.size())) {
            report(res, max, loc, rank, idx, t, what + " rank " + peer + " is outside communicator " + comm + " ("
                    + c.name() + ", size " + c.size() + ")");
            ok = false;
        }
        int[] map = localRankOf[comm];
        if (rank < 0 || rank >= map.length || map[rank] < 0) {
            report(res, max, loc, rank, idx, t, "rank " + rank + " uses communicator " + comm + " (" + c.name()
                    + ") but is not a member of it");
            ok = false;
        }
        return ok;
    }

    private static String name(TraceDefinitions defs, int region) {
        return region >= 0 && region < defs.regions().size() ? "'" + defs.region(region).name() + "'" : "region " + region;
    }

    private static void report(LocationResult res, int max, int loc, int rank, long idx, long t, String msg) {
        res.count++;
        if (res.listed.size() < max) {
            res.listed.add(new Problem(loc, rank, idx, t, msg, false, res.clock));
        }
    }
}
