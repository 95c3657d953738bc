package dev.straggler.patterns.callsite;

import dev.straggler.trace.Clock;
import dev.straggler.trace.LocationReader;
import dev.straggler.trace.Region;
import dev.straggler.trace.TraceDefinitions;
import dev.straggler.trace.TraceSource;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;

/**
 * Callsite statistics, an IPM-style communication profile and a per-phase breakdown from a trace, in one
 * independent pass per rank over the master thread's events (an ENTER/LEAVE stack per location, {@link LocationScan})
 * and a cross-rank matching of collective instances for the waiting times ({@link CollectiveWaits}).
 *
 * <p>A callsite is an MPI call (outermost on the stack; MPI calls inside MPI calls belong to it) together with the
 * nearest {@code depth} calling regions, as mpiP's {@code -k depth}; calls between the end of MPI_Init and the start
 * of MPI_Finalize are profiled, and AppTime is that span (reference §5). A frame's file and line are those of the
 * calling region's definition (traces do not record call lines).
 *
 * <p>Locations are scanned in parallel; results do not depend on the thread count.
 */
public final class CallsiteProfiler {

    /**
     * @param depth      calling regions per callsite (mpiP's {@code -k}; 0: callsites are MPI operations)
     * @param phaseDepth call-tree depth of the phase regions (0: the trace's root regions, 1: their children, ...)
     */
    public record Options(int depth, int phaseDepth) {
        public Options {
            if (depth < 0 || phaseDepth < 0) {
                throw new IllegalArgumentException("depths must not be negative");
            }
        }

        public static Options defaults() {
            return new Options(1, 1);
        }
    }

    private CallsiteProfiler() {
    }

    public static TraceProfile profile(TraceSource trace) throws IOException {
        return profile(trace, Options.defaults());
    }

    /** @throws dev.straggler.trace.TraceFormatException when the trace cannot be read */
    public static TraceProfile profile(TraceSource trace, Options o) throws IOException {
        TraceDefinitions defs = trace.definitions();
        byte[] regionClass = classify(defs.regions());
        int[] master = defs.masterLocationByRank();
        int ranks = master.length;
        LocationScan[] scans = new LocationScan[ranks];
        List<String> notes = new ArrayList<>();
        try {
            IntStream.range(0, ranks).parallel().forEach(r -> {
                if (master[r] < 0) {
                    return;
                }
                LocationScan s = new LocationScan(defs, master[r], regionClass);
                try (LocationReader reader = trace.openLocation(master[r])) {
                    s.run(reader);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                scans[r] = s;
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        int missing = (int) Arrays.stream(master).filter(l -> l < 0).count();
        if (missing > 0) {
            notes.add(missing + " ranks have no CPU thread location; they appear with no data");
        }
        int others = defs.locations().size() - (ranks - missing);
        if (others > 0) {
            notes.add(others + " non-master locations (threads, devices) were not scanned; MPI calls are taken from each rank's master thread");
        }
        long unmatched = 0;
        long outside = 0;
        long unclosed = 0;
        for (LocationScan s : scans) {
            if (s != null) {
                unmatched += s.unmatchedLeaves;
                outside += s.callsOutsideWindow;
                unclosed += s.unclosed;
            }
        }
        if (unmatched > 0) {
            notes.add(unmatched + " LEAVE events did not match the open region and were skipped");
        }
        if (unclosed > 0) {
            notes.add(unclosed + " regions were still open at the end of their location's events");
        }
        if (outside > 0) {
            notes.add(outside + " MPI calls before the end of MPI_Init or after the start of MPI_Finalize are not in the statistics");
        }

        long[][] waits = new long[ranks][];
        for (int r = 0; r < ranks; r++) {
            waits[r] = scans[r] == null ? new long[0] : new long[scans[r].nodes()];
        }
        CollectiveWaits.compute(defs, scans, waits, notes);

        GlobalTree tree = new GlobalTree(defs, scans);
        Clock clock = defs.clock();
        CallsiteStatistics stats = callsites(trace.origin(), defs, scans, tree, o.depth(), clock, notes);
        CommProfile comm = communication(defs, scans, tree, o.phaseDepth(), clock);
        PhaseBreakdown phases = phases(defs, scans, tree, o.phaseDepth(), waits, clock, ranks);
        return new TraceProfile(stats, comm, phases, notes);
    }

    static byte[] classify(List<Region> regions) {
        byte[] out = new byte[regions.size()];
        for (Region r : regions) {
            if (!MpiCallKind.isMpi(r)) {
                continue;
            }
            String n = r.name().toLowerCase(Locale.ROOT);
            out[r.id()] = n.equals("mpi_init") || n.equals("mpi_init_thread") ? LocationScan.MPI_INIT
                    : n.equals("mpi_finalize") ? LocationScan.MPI_FINALIZE : LocationScan.MPI;
        }
        return out;
    }

    /** The union of the ranks' call trees, by (parent, region); node 0 is the virtual root. */
    static final class GlobalTree {
        final IntArrayList parent = new IntArrayList();
        final IntArrayList region = new IntArrayList();
        final IntArrayList depth = new IntArrayList();
        /** [rank][local node] -> global node. */
        final int[][] map;
        final TraceDefinitions defs;

        GlobalTree(TraceDefinitions defs, LocationScan[] scans) {
            this.defs = defs;
            Long2IntOpenHashMap ids = new Long2IntOpenHashMap();
            ids.defaultReturnValue(-1);
            parent.add(-1);
            region.add(-1);
            depth.add(-1);
            map = new int[scans.length][];
            for (int r = 0; r < scans.length; r++) {
                LocationScan s = scans[r];
                if (s == null) {
                    continue;
                }
                int[] m = new int[s.nodes()];
                for (int n = 1; n < s.nodes(); n++) {
                    int gp = m[s.nodeParent.getInt(n)];
                    int reg = s.nodeRegion.getInt(n);
                    long key = ((long) gp << 32) | (reg & 0xFFFFFFFFL);
                    int g = ids.get(key);
                    if (g < 0) {
                        g = parent.size();
                        parent.add(gp);
                        region.add(reg);
                        depth.add(depth.getInt(gp) + 1);
                        ids.put(key, g);
                    }
                    m[n] = g;
                }
                map[r] = m;
            }
        }

        String name(int g) {
            return defs.region(region.getInt(g)).name();
        }

        List<String> path(int g) {
            List<String> out = new ArrayList<>();
            for (int n = g; n > 0; n = parent.getInt(n)) {
                out.add(0, name(n));
            }
            return out;
        }

        /** The ancestor at {@code d} (the node itself when it is not deeper). */
        int ancestorAt(int g, int d) {
            int n = g;
            while (depth.getInt(n) > d) {
                n = parent.getInt(n);
            }
            return n;
        }
    }

    private static CallsiteStatistics callsites(String origin, TraceDefinitions defs, LocationScan[] scans,
                                                GlobalTree tree, int depth, Clock clock, List<String> notes) {
        int ranks = scans.length;
        Map<String, Integer> keyOf = new HashMap<>();
        List<Callsite> sites = new ArrayList<>();
        Map<Integer, Integer> siteOfGlobal = new HashMap<>();
        List<TreeMap<Integer, long[]>> acc = new ArrayList<>();
        double[] app = new double[ranks];
        double[] mpi = new double[ranks];
        for (int r = 0; r < ranks; r++) {
            LocationScan s = scans[r];
            if (s == null) {
                continue;
            }
            app[r] = clock.seconds(Math.max(0, s.appEndTicks() - s.appStartTicks()));
            mpi[r] = clock.seconds(s.mpiTicks);
            for (int n = 1; n < s.nodes(); n++) {
                if (s.calls[n] == 0) {
                    continue;
                }
                int g = tree.map[r][n];
                Integer site = siteOfGlobal.get(g);
                if (site == null) {
                    Callsite cs = callsite(tree, g, depth);
                    site = keyOf.get(cs.key());
                    if (site == null) {
                        site = sites.size();
                        sites.add(cs);
                        keyOf.put(cs.key(), site);
                        acc.add(new TreeMap<>());
                    }
                    siteOfGlobal.put(g, site);
                }
                long[] a = acc.get(site).computeIfAbsent(r, k -> new long[]{0, 0, Long.MIN_VALUE, Long.MAX_VALUE, 0,
                        Long.MIN_VALUE, Long.MAX_VALUE});
                a[0] += s.calls[n];
                a[1] += s.callTicks[n];
                a[2] = Math.max(a[2], s.callMax[n]);
                a[3] = Math.min(a[3], s.callMin[n]);
                a[4] += s.sent[n];
                a[5] = Math.max(a[5], s.sentMax[n]);
                a[6] = Math.min(a[6], s.sentMin[n]);
            }
        }
        // Ids by operation and stack, so that they do not depend on which rank was scanned first.
        Integer[] order = new Integer[sites.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, Comparator.comparing(i -> sites.get(i).key()));
        List<CallsiteEntry> entries = new ArrayList<>();
        for (int id = 0; id < order.length; id++) {
            int i = order[id];
            Callsite cs = new Callsite(id + 1, sites.get(i).mpiCall(), sites.get(i).frames());
            List<RankStats> perRank = new ArrayList<>();
            acc.get(i).forEach((r, a) -> perRank.add(new RankStats(r, a[0], clock.seconds(a[1]), clock.seconds(a[2]),
                    clock.seconds(a[3]), a[4], a[5], a[6])));
            entries.add(CallsiteEntry.of(cs, perRank));
        }
        return new CallsiteStatistics(origin, depth, app, mpi, entries, notes);
    }

    private static Callsite callsite(GlobalTree tree, int g, int depth) {
        List<Frame> frames = new ArrayList<>();
        for (int n = tree.parent.getInt(g); n > 0 && frames.size() < depth; n = tree.parent.getInt(n)) {
            Region r = tree.defs.region(tree.region.getInt(n));
            frames.add(new Frame(r.name(), r.sourceFile(), r.beginLine()));
        }
        return new Callsite(0, tree.name(g), frames);
    }

    private record CommKey(String phase, String call, int bucket, int partner) {
    }

    private static CommProfile communication(TraceDefinitions defs, LocationScan[] scans, GlobalTree tree, int phaseDepth,
                                             Clock clock) {
        Map<CommKey, long[]> acc = new HashMap<>();
        Map<CommKey, java.util.BitSet> ranksOf = new HashMap<>();
        for (int r = 0; r < scans.length; r++) {
            LocationScan s = scans[r];
            if (s == null) {
                continue;
            }
            for (int slot = 0; slot < s.ipmKey.size(); slot++) {
                long key = s.ipmKey.getLong(slot);
                int node = (int) (key >>> 32);
                int bucket = (int) ((key >>> 24) & 0xFF);
                int partner = (int) (key & 0xFFFFFFL) - 1;
                int g = tree.map[r][node];
                int phase = tree.ancestorAt(g, phaseDepth);
                CommKey k = new CommKey(tree.name(phase), tree.name(g), bucket, partner);
                long[] a = acc.computeIfAbsent(k, x -> new long[3]);
                a[0] += s.ipmCount.getLong(slot);
                a[1] += s.ipmTicks.getLong(slot);
                a[2] += s.ipmBytes.getLong(slot);
                ranksOf.computeIfAbsent(k, x -> new java.util.BitSet()).set(r);
            }
        }
        List<CommProfile.Entry> entries = new ArrayList<>();
        acc.forEach((k, a) -> entries.add(new CommProfile.Entry(k.phase(), k.call(), k.bucket(), k.partner(), a[0],
                clock.seconds(a[1]), a[2], ranksOf.get(k).cardinality())));
        entries.sort(Comparator.comparingDouble(CommProfile.Entry::time).reversed()
                .thenComparing(CommProfile.Entry::phase).thenComparing(CommProfile.Entry::call)
                .thenComparingInt(CommProfile.Entry::sizeBucket).thenComparingInt(CommProfile.Entry::partner));
        return new CommProfile(phaseDepth, entries);
    }

    private static PhaseBreakdown phases(TraceDefinitions defs, LocationScan[] scans, GlobalTree tree, int phaseDepth,
                                         long[][] waits, Clock clock, int ranks) {
        int ng = tree.parent.size();
        boolean[] hasChild = new boolean[ng];
        for (int g = 1; g < ng; g++) {
            hasChild[tree.parent.getInt(g)] = true;
        }
        // Phases: regions at the phase depth, and shallower leaves (an MPI call right under the root).
        Map<Integer, double[][]> byPhase = new TreeMap<>();
        for (int r = 0; r < ranks; r++) {
            LocationScan s = scans[r];
            if (s == null) {
                continue;
            }
            for (int n = 1; n < s.nodes(); n++) {
                int g = tree.map[r][n];
                int phase = tree.ancestorAt(g, phaseDepth);
                boolean isPhase = tree.depth.getInt(phase) == phaseDepth || !hasChild[phase];
                if (!isPhase) {
                    continue;
                }
                double[][] v = byPhase.computeIfAbsent(phase, x -> new double[3][ranks]);
                if (g == phase) {
                    v[0][r] += clock.seconds(s.inclusive[n]);
                }
                v[1][r] += clock.seconds(s.allMpiTicks[n]);
                v[2][r] += clock.seconds(waits[r][n]);
            }
        }
        List<PhaseBreakdown.Phase> phases = new ArrayList<>();
        byPhase.forEach((g, v) -> phases.add(new PhaseBreakdown.Phase(tree.path(g), v[0], v[1], v[2])));
        phases.sort(Comparator.comparingDouble(PhaseBreakdown.Phase::totalSum).reversed());
        return new PhaseBreakdown(phaseDepth, "collective synchronization waits computed from the trace", phases);
    }
}
