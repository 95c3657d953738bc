package dev.straggler.patterns;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The wait states on the operations of one communicator (the per-communicator view the KOJAK paper needed a
 * script for, reference §9.2): for each wait-state metric, the seconds summed over all ranks, as in the cube.
 * Point-to-point waits belong to the communicator of their receive (Late Sender and its wrong-order parts) or send
 * (Late Receiver); collective waits and completions to the communicator of the operation. MPI_Init and MPI_Finalize
 * belong to none.
 *
 * @param id      communicator index in the trace's definitions
 * @param name    its name in the trace (may be empty)
 * @param ranks   its members as global ranks, in communicator-rank order
 * @param metrics unique metric name → seconds, non-zero only, in metric-tree order
 */
public record CommunicatorWaits(int id, String name, int[] ranks, Map<String, Double> metrics) {
    /** The wait-state metrics this view reports, in metric-tree order (leaves and their wrong-order parts). */
    public static final int[] METRICS = {MetricTree.MPI_BARRIER_WAIT, MetricTree.MPI_BARRIER_COMPLETION,
            MetricTree.MPI_LATESENDER, MetricTree.MPI_LATESENDER_WO, MetricTree.MPI_LSWO_DIFFERENT,
            MetricTree.MPI_LSWO_SAME, MetricTree.MPI_LATERECEIVER, MetricTree.MPI_EARLYREDUCE,
            MetricTree.MPI_EARLYSCAN, MetricTree.MPI_LATEBROADCAST, MetricTree.MPI_WAIT_NXN,
            MetricTree.MPI_NXN_COMPLETION};

    public CommunicatorWaits {
        Objects.requireNonNull(name, "name");
        ranks = ranks.clone();
        metrics = Collections.unmodifiableMap(new LinkedHashMap<>(metrics));
    }

    @Override
    public int[] ranks() {
        return ranks.clone();
    }

    public int size() {
        return ranks.length;
    }

    /** Seconds of one metric, 0 when absent. */
    public double seconds(String metric) {
        return metrics.getOrDefault(metric, 0.0);
    }

    /**
     * Seconds of waiting on this communicator: the reported metrics without double counting (the wrong-order
     * parts are inside Late Sender, completions are not waiting).
     */
    public double waiting() {
        double s = 0;
        for (String m : new String[] {"mpi_barrier_wait", "mpi_latesender", "mpi_latereceiver", "mpi_earlyreduce",
                "mpi_earlyscan", "mpi_latebroadcast", "mpi_wait_nxn"}) {
            s += seconds(m);
        }
        return s;
    }

    /**
     * The communicators of one size, with waiting on them.
     *
     * @param size          processes per communicator
     * @param communicators communicators of this size with waiting
     * @param waiting       their waiting ({@link #waiting()}), seconds
     * @param metrics       unique metric name → seconds summed over them
     */
    public record SizeClass(int size, int communicators, double waiting, Map<String, Double> metrics) {
        /** The wait-state metric with the most time (completions and wrong-order parts aside), or null. */
        public String largestWaitState() {
            String best = null;
            for (Map.Entry<String, Double> e : metrics.entrySet()) {
                String k = e.getKey();
                if (!k.endsWith("_completion") && !k.startsWith("mpi_lswo") && !k.equals("mpi_latesender_wo")
                        && e.getValue() > 0 && (best == null || e.getValue() > metrics.get(best))) {
                    best = k;
                }
            }
            return best;
        }
    }

    /** Communicators with waiting grouped by size, smallest first. */
    public static java.util.List<SizeClass> bySize(java.util.List<CommunicatorWaits> comms) {
        java.util.TreeMap<Integer, SizeClass> out = new java.util.TreeMap<>();
        for (CommunicatorWaits c : comms) {
            if (c.waiting() <= 0) {
                continue;
            }
            SizeClass old = out.get(c.size());
            Map<String, Double> m = new LinkedHashMap<>(old == null ? Map.of() : old.metrics());
            c.metrics().forEach((k, v) -> m.merge(k, v, Double::sum));
            out.put(c.size(), new SizeClass(c.size(), (old == null ? 0 : old.communicators()) + 1,
                    (old == null ? 0 : old.waiting()) + c.waiting(), m));
        }
        return new java.util.ArrayList<>(out.values());
    }
}
