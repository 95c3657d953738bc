package dev.straggler.trace;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Checks that a trace is well formed before it is analysed: time never goes backwards within a location,
 * ENTER/LEAVE are balanced and properly nested, every reference names a defined region or communicator, peers
 * and roots are ranks of their communicator, the location's rank belongs to the communicator it uses, and
 * collective begin/end records pair up. Each problem names the location, the event index and its time.
 *
 * <p>Locations are checked in parallel; the report lists problems in location order, at most
 * {@code maxPerLocation} per location (the total count is always exact).
 */
public final class TraceValidator {

    /** One problem at one event. {@code eventIndex} is the position in the location's stream (-1: end of stream). */
    public record Problem(int location, int rank, long eventIndex, long time, String message) {
        @Override
        public String toString() {
            return "location " + location + " (rank " + rank + "), event " + (eventIndex < 0 ? "end" : String.valueOf(eventIndex))
                    + (eventIndex < 0 ? "" : " at t=" + time) + ": " + message;
        }
    }

    /** The outcome: the listed problems, and the true number of problems found. */
    public record Report(List<Problem> problems, long problemCount) {
        public boolean ok() {
            return problemCount == 0;
        }
    }

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
        ParallelLocations.forEach(n, l -> results[l] = check(trace, defs, localRankOf, l, maxPerLocation));
        List<Problem> all = new ArrayList<>();
        long count = 0;
        for (LocationResult r : results) {
            all.addAll(r.listed);
            count += r.count;
        }
        return new Report(List.copyOf(all), count);
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
        long count;
    }

    private static LocationResult check(TraceSource trace, TraceDefinitions defs, int[][] localRankOf, int loc, int max)
            throws IOException {
        LocationResult res = new LocationResult();
        Location location = defs.location(loc);
        int rank = location.rank();
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
                    if (t < lastTime) {
                        report(res, max, loc, rank, idx, t, "time goes backwards (previous event at t=" + lastTime + ")");
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
                        case EventKind.MPI_SEND_CODE, EventKind.MPI_ISEND_CODE, EventKind.MPI_RECV_CODE, EventKind.MPI_IRECV_CODE ->
                                checkCommunication(res, max, defs, localRankOf, loc, rank, idx, t, b.comm[i], b.ref[i],
                                        EventKind.of(k).name() + (k == EventKind.MPI_SEND_CODE || k == EventKind.MPI_ISEND_CODE ? " to" : " from"),
                                        false);
                        case EventKind.MPI_COLLECTIVE_BEGIN_CODE -> {
                            if (inCollective) {
                                report(res, max, loc, rank, idx, t, "MPI_COLLECTIVE_BEGIN inside another collective");
                            }
                            inCollective = true;
                        }
                        case EventKind.MPI_COLLECTIVE_END_CODE -> {
                            if (!inCollective) {
                                report(res, max, loc, rank, idx, t, "MPI_COLLECTIVE_END without MPI_COLLECTIVE_BEGIN");
                            }
                            inCollective = false;
                            if (!CollectiveOp.isValidCode(b.ref[i])) {
                                report(res, max, loc, rank, idx, t, "unknown collective operation code " + b.ref[i]);
                            }
                            checkCommunication(res, max, defs, localRankOf, loc, rank, idx, t, b.comm[i], b.tag[i],
                                    "collective root", true);
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
        }
        if (depth > 0) {
            report(res, max, loc, rank, -1, lastEventTime, depth + " region(s) still open at the end of the stream, innermost "
                    + name(defs, stack[depth - 1]) + " (last event " + lastIndex + ")");
        }
        if (inCollective) {
            report(res, max, loc, rank, -1, lastEventTime, "MPI_COLLECTIVE_BEGIN without MPI_COLLECTIVE_END at the end of the stream");
        }
        return res;
    }

    private static void checkCommunication(LocationResult res, int max, TraceDefinitions defs, int[][] localRankOf, int loc,
                                           int rank, long idx, long t, int comm, int peer, String what, boolean peerOptional) {
        if (comm < 0 || comm >= defs.communicators().size()) {
            report(res, max, loc, rank, idx, t, what.split(" ")[0] + " on undefined communicator " + comm);
            return;
        }
        Communicator c = defs.communicator(comm);
        if (!(peerOptional && peer == -1) && (peer < 0 || peer >= c.size())) {
            report(res, max, loc, rank, idx, t, what + " rank " + peer + " is outside communicator " + comm + " ("
                    + c.name() + ", size " + c.size() + ")");
        }
        int[] map = localRankOf[comm];
        if (rank < 0 || rank >= map.length || map[rank] < 0) {
            report(res, max, loc, rank, idx, t, "rank " + rank + " uses communicator " + comm + " (" + c.name()
                    + ") but is not a member of it");
        }
    }

    private static String name(TraceDefinitions defs, int region) {
        return region >= 0 && region < defs.regions().size() ? "'" + defs.region(region).name() + "'" : "region " + region;
    }

    private static void report(LocationResult res, int max, int loc, int rank, long idx, long t, String msg) {
        res.count++;
        if (res.listed.size() < max) {
            res.listed.add(new Problem(loc, rank, idx, t, msg));
        }
    }
}
