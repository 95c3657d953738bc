package dev.straggler.patterns.reduce;

import dev.straggler.trace.Region;
import dev.straggler.trace.filter.RegionFilter;

import java.util.ArrayList;
import java.util.List;

/**
 * Per-region and per-rank figures of a {@link CallTreeProfile}: the {@code scorep-score} type (with COM worked out
 * over the call tree), visits, exclusive and inclusive time, child calls, event records and trace bytes. Include
 * lists, tau_reduce rules and size estimates are evaluated on these. Immutable.
 *
 * <p>Inclusive time counts a region's outermost visits only, so recursion is not counted twice. Bytes follow the
 * chosen {@link SizeModel}; with {@link SizeModel#SCOREP} the records are those the estimator expects too.
 */
public final class RegionStatistics {
    private final CallTreeProfile profile;
    private final SizeModel model;
    private final ScoreType[] types;
    private final boolean[] root;
    private final int ranks;
    private final long[][] visits;
    private final double[][] time;
    private final double[][] inclusive;
    private final long[][] subrs;
    private final long[][] events;
    private final long[][] bytes;
    private final long[] outsideEvents;
    private final long[] outsideBytes;

    private RegionStatistics(CallTreeProfile p, SizeModel model, int programArguments) {
        if (model == SizeModel.RECORDS && !p.knowsRecords()) {
            throw new IllegalArgumentException(p.origin() + " is a profile without event records: only the "
                    + "scorep-score size model applies to it");
        }
        this.profile = p;
        this.model = model;
        int nr = p.regions().size();
        this.ranks = p.ranks();
        this.types = classify(p);
        this.root = new boolean[nr];
        visits = new long[nr][ranks];
        time = new double[nr][ranks];
        inclusive = new double[nr][ranks];
        subrs = new long[nr][ranks];
        events = new long[nr][ranks];
        bytes = new long[nr][ranks];
        outsideEvents = new long[ranks];
        outsideBytes = new long[ranks];
        int nodes = p.nodeCount();
        double[][] nodeIncl = new double[nodes][ranks];
        for (int n = nodes - 1; n >= 0; n--) {
            int par = p.parent(n);
            for (int k = 0; k < ranks; k++) {
                nodeIncl[n][k] += p.time(n, k);
                if (par >= 0) {
                    nodeIncl[par][k] += nodeIncl[n][k];
                }
            }
        }
        ScoreEstimator est = new ScoreEstimator(nr, programArguments);
        for (int n = 0; n < nodes; n++) {
            if (p.parent(n) < 0) {
                root[p.region(n)] = true;
            }
        }
        for (int n = 0; n < nodes; n++) {
            int r = p.region(n);
            int par = p.parent(n);
            boolean outermost = !hasAncestorOfRegion(p, n, r);
            Region reg = p.regions().get(r);
            long bpv = model == SizeModel.SCOREP ? est.bytesPerVisit(reg, root[r]) : 0;
            long epv = model == SizeModel.SCOREP ? est.eventsPerVisit(reg, root[r]) : 0;
            for (int k = 0; k < ranks; k++) {
                long v = p.visits(n, k);
                visits[r][k] += v;
                time[r][k] += p.time(n, k);
                if (outermost) {
                    inclusive[r][k] += nodeIncl[n][k];
                }
                if (par >= 0) {
                    subrs[p.region(par)][k] += v;
                }
                if (model == SizeModel.RECORDS) {
                    events[r][k] += p.events(n, k);
                    bytes[r][k] += p.bytes(n, k);
                } else {
                    events[r][k] += v * epv;
                    bytes[r][k] += v * bpv;
                }
            }
        }
        if (model == SizeModel.RECORDS) {
            for (int k = 0; k < ranks; k++) {
                outsideEvents[k] = p.outsideEvents(k);
                outsideBytes[k] = p.outsideBytes(k);
            }
        }
    }

    /**
     * @param programArguments command-line arguments of the program, which the scorep-score estimate charges to
     *                         ProgramBegin (the trace model does not keep them; Score-P reads them from its profile)
     */
    public static RegionStatistics of(CallTreeProfile p, SizeModel model, int programArguments) {
        return new RegionStatistics(p, model, programArguments);
    }

    public static RegionStatistics of(CallTreeProfile p, SizeModel model) {
        return new RegionStatistics(p, model, 0);
    }

    /** Records when the profile has them, else the scorep-score estimate. */
    public static RegionStatistics of(CallTreeProfile p) {
        return of(p, p.knowsRecords() ? SizeModel.RECORDS : SizeModel.SCOREP);
    }

    private static boolean hasAncestorOfRegion(CallTreeProfile p, int node, int r) {
        for (int a = p.parent(node); a >= 0; a = p.parent(a)) {
            if (p.region(a) == r) {
                return true;
            }
        }
        return false;
    }

    /**
     * Definition types, then COM for every USR region with a communicating region below it on some call path
     * (Score-P's {@code calculate_calltree_types}). Children have larger ids than parents, so one backward sweep
     * sees every subtree complete before its root.
     */
    private static ScoreType[] classify(CallTreeProfile p) {
        int nr = p.regions().size();
        ScoreType[] t = new ScoreType[nr];
        for (int r = 0; r < nr; r++) {
            t[r] = ScoreType.ofDefinition(p.regions().get(r));
        }
        boolean[] below = new boolean[p.nodeCount()];
        for (int n = p.nodeCount() - 1; n >= 0; n--) {
            int r = p.region(n);
            if (below[n] && t[r] == ScoreType.USR) {
                t[r] = ScoreType.COM;
            }
            int par = p.parent(n);
            if (par >= 0 && (below[n] || t[r].marksCallers())) {
                below[par] = true;
            }
        }
        return t;
    }

    public CallTreeProfile profile() {
        return profile;
    }

    public SizeModel model() {
        return model;
    }

    public int ranks() {
        return ranks;
    }

    public List<Region> regions() {
        return profile.regions();
    }

    public ScoreType type(int region) {
        return types[region];
    }

    public long visits(int region, int rank) {
        return visits[region][rank];
    }

    public long visits(int region) {
        return sum(visits[region]);
    }

    /** Exclusive time, seconds. */
    public double time(int region, int rank) {
        return time[region][rank];
    }

    public double time(int region) {
        return sum(time[region]);
    }

    /** Inclusive time of the outermost visits, seconds. */
    public double inclusiveTime(int region, int rank) {
        return inclusive[region][rank];
    }

    public double inclusiveTime(int region) {
        return sum(inclusive[region]);
    }

    /** Calls the region makes to other regions (TAU's "numsubrs"). */
    public long subroutineCalls(int region) {
        return sum(subrs[region]);
    }

    public long events(int region, int rank) {
        return events[region][rank];
    }

    public long events(int region) {
        return sum(events[region]);
    }

    public long bytes(int region, int rank) {
        return bytes[region][rank];
    }

    public long bytes(int region) {
        return sum(bytes[region]);
    }

    /** The largest per-rank byte count of a region (scorep-score's max_buf of the region). */
    public long maxBytes(int region) {
        long m = 0;
        for (long b : bytes[region]) {
            m = Math.max(m, b);
        }
        return m;
    }

    /** True when the region was visited or carried records at all. */
    public boolean present(int region) {
        return visits(region) > 0 || events(region) > 0;
    }

    /**
     * Regions no filter may drop: MPI calls and the other non-filterable types (Score-P's filter states), and
     * "MEASUREMENT OFF", whose visits are MeasurementOnOff records rather than ENTER/LEAVE.
     */
    public boolean protectedRegion(int region) {
        Region r = profile.regions().get(region);
        return !types[region].filterable() || RegionFilter.protectedRegion(r)
                || r.name().equals(TraceProfiler.MEASUREMENT_OFF);
    }

    public long outsideEvents(int rank) {
        return outsideEvents[rank];
    }

    public long outsideBytes(int rank) {
        return outsideBytes[rank];
    }

    /** Totals per rank when the regions flagged in {@code dropped} (may be null) are removed. */
    public Totals totals(boolean[] dropped) {
        long[] ev = outsideEvents.clone();
        long[] by = outsideBytes.clone();
        long visitsKept = 0;
        double timeAll = 0;
        int kept = 0;
        for (int r = 0; r < types.length; r++) {
            timeAll += time(r);
            if (dropped != null && dropped[r]) {
                continue;
            }
            if (present(r)) {
                kept++;
            }
            visitsKept += visits(r);
            for (int k = 0; k < ranks; k++) {
                ev[k] += events[r][k];
                by[k] += bytes[r][k];
            }
        }
        return new Totals(ev, by, visitsKept, kept, timeAll);
    }

    /**
     * Events and bytes per rank of a trace, and the regions kept.
     *
     * @param time total exclusive time of all regions (dropped ones too), seconds
     */
    public record Totals(long[] eventsPerRank, long[] bytesPerRank, long visits, int regionsKept, double time) {
        public long events() {
            return sum(eventsPerRank);
        }

        public long bytes() {
            return sum(bytesPerRank);
        }

        public long maxBytes() {
            long m = 0;
            for (long b : bytesPerRank) {
                m = Math.max(m, b);
            }
            return m;
        }

        public long maxEvents() {
            long m = 0;
            for (long e : eventsPerRank) {
                m = Math.max(m, e);
            }
            return m;
        }
    }

    /** Ids of the regions that were visited, in id order. */
    public List<Integer> presentRegions() {
        List<Integer> out = new ArrayList<>();
        for (int r = 0; r < types.length; r++) {
            if (present(r)) {
                out.add(r);
            }
        }
        return out;
    }

    static long sum(long[] a) {
        long s = 0;
        for (long v : a) {
            s += v;
        }
        return s;
    }

    static double sum(double[] a) {
        double s = 0;
        for (double v : a) {
            s += v;
        }
        return s;
    }
}
