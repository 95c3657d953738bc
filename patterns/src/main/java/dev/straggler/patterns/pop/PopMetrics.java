package dev.straggler.patterns.pop;

import dev.straggler.patterns.OtherParadigms;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.patterns.cube.SystemLocation;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The POP methodology's efficiency metrics (POP CoE metric definitions; Cube GUI's Advisor, "POP tests"), computed
 * from an analysed cube as Cube's Advisor computes them from Scalasca's results. Per process (all threads of a rank
 * summed), over all call paths:
 * <ul>
 *   <li>runtime = {@code execution} (time without measurement overhead), computation = {@code comp} (useful
 *       computation: execution outside MPI and the other parallel runtimes);</li>
 *   <li>waiting = the wait states Scalasca detects, as the Advisor's {@code wait_time_mpi} adds them: Late Sender,
 *       Late Receiver, Early Reduce, Early Scan, Late Broadcast, Wait at N×N, Wait at Barrier, Wait at Finalize;</li>
 *   <li>transfer = MPI time − waiting − MPI file I/O ({@code mpi_io}); the runtime on an ideal network, where a
 *       transfer takes no time but dependencies still make processes wait, is runtime − transfer.</li>
 * </ul>
 * Then, with maxima over processes:
 * <pre>
 *   Load Balance             LB   = mean(computation) / max(computation)
 *   Communication Efficiency CommE = max(computation) / max(runtime)
 *   Serialisation Efficiency SerE = max(computation) / max(ideal runtime)
 *   Transfer Efficiency      TE   = max(ideal runtime) / max(runtime)        (so CommE = SerE × TE)
 *   Parallel Efficiency      PE   = LB × CommE
 * </pre>
 * Across runs ({@link #scaling}), with the smallest run as reference: Computation Scaling = total computation of the
 * reference / total computation of the run (strong scaling), times p / p_ref for weak scaling; Global Efficiency =
 * PE × Computation Scaling. Instruction, IPC and frequency scaling need hardware counters, which the analysis does
 * not read: they are reported as not available.
 *
 * @param label                  the run
 * @param processes              processes (location groups)
 * @param meanComputation        mean over processes of the useful computation, s
 * @param maxComputation         its maximum
 * @param maxRuntime             maximum over processes of the runtime, s
 * @param maxIdealRuntime        maximum over processes of the runtime on an ideal network, s
 * @param totalComputation       useful computation summed over processes, s (the basis of computation scaling)
 * @param computationScaling     NaN for a run on its own; set by {@link #scaling}
 * @param notes                  what the values cover (e.g. only MPI in a hybrid run)
 */
public record PopMetrics(String label, int processes, double meanComputation, double maxComputation,
                         double maxRuntime, double maxIdealRuntime, double totalComputation,
                         double computationScaling, List<String> notes) {

    /** Scalasca's wait states as Cube's Advisor sums them into "waiting time in MPI" ({@code wait_time_mpi}). */
    public static final List<String> WAITING = List.of("mpi_latesender", "mpi_latereceiver", "mpi_earlyreduce",
            "mpi_earlyscan", "mpi_latebroadcast", "mpi_wait_nxn", "mpi_barrier_wait", "mpi_finalize_wait");

    /** How the process counts of a study relate to the problem. */
    public enum Scaling { STRONG, WEAK }

    public PopMetrics {
        notes = List.copyOf(notes);
    }

    public double loadBalance() {
        return ratio(meanComputation, maxComputation);
    }

    public double communicationEfficiency() {
        return ratio(maxComputation, maxRuntime);
    }

    public double serialisationEfficiency() {
        return ratio(maxComputation, maxIdealRuntime);
    }

    public double transferEfficiency() {
        return ratio(maxIdealRuntime, maxRuntime);
    }

    public double parallelEfficiency() {
        return loadBalance() * communicationEfficiency();
    }

    /** PE × computation scaling; NaN for a run on its own. */
    public double globalEfficiency() {
        return parallelEfficiency() * computationScaling;
    }

    /** {@code a / b} for the efficiencies: NaN when there is nothing to divide by. */
    private static double ratio(double a, double b) {
        return b > 0 ? a / b : Double.NaN;
    }

    /** The run's efficiencies from its cube. */
    public static PopMetrics of(SeverityCube cube, String label) {
        Map<Integer, double[]> byRank = new TreeMap<>();
        int execution = cube.metricIndex("execution");
        int comp = cube.metricIndex("comp");
        int mpi = cube.metricIndex("mpi");
        int io = cube.metricIndex("mpi_io");
        if (execution < 0 || comp < 0 || mpi < 0) {
            throw new IllegalArgumentException(label + ": the POP metrics need the execution, comp and mpi metrics of "
                    + "Scalasca's metric tree, which this cube lacks");
        }
        int[] waits = WAITING.stream().mapToInt(cube::metricIndex).filter(m -> m >= 0).toArray();
        double[] exe = cube.perLocation(execution);
        double[] cmp = cube.perLocation(comp);
        double[] mp = cube.perLocation(mpi);
        double[] fio = io < 0 ? new double[exe.length] : cube.perLocation(io);
        double[] wait = new double[exe.length];
        for (int m : waits) {
            double[] w = cube.perLocation(m);
            for (int l = 0; l < w.length; l++) {
                wait[l] += w[l];
            }
        }
        int maxThreads = 0;
        for (SystemLocation l : cube.locations()) {
            // per process: runtime, computation, transfer
            double[] v = byRank.computeIfAbsent(l.rank(), r -> new double[4]);
            int i = l.index();
            v[0] += exe[i];
            v[1] += cmp[i];
            v[2] += Math.max(0, mp[i] - wait[i] - fio[i]);
            v[3]++;
            maxThreads = Math.max(maxThreads, (int) v[3]);
        }
        double sum = 0;
        double maxComp = 0;
        double maxRun = 0;
        double maxIdeal = 0;
        for (double[] v : byRank.values()) {
            sum += v[1];
            maxComp = Math.max(maxComp, v[1]);
            maxRun = Math.max(maxRun, v[0]);
            maxIdeal = Math.max(maxIdeal, v[0] - v[2]);
        }
        List<String> notes = new ArrayList<>();
        String other = OtherParadigms.sentence(cube);
        if (other != null || maxThreads > 1) {
            notes.add("hybrid run: the efficiencies cover MPI only; time in other runtimes (threads, devices) counts "
                    + "neither as computation nor as transfer, and thread-level load balance is not assessed");
        }
        int n = byRank.size();
        return new PopMetrics(label, n, n == 0 ? 0 : sum / n, maxComp, maxRun, maxIdeal, sum, Double.NaN, notes);
    }

    /**
     * The runs with computation scaling set, relative to the one with the fewest processes (the first of those when
     * several share it).
     */
    public static List<PopMetrics> scaling(List<PopMetrics> runs, Scaling how) {
        if (runs.isEmpty()) {
            return runs;
        }
        PopMetrics ref = runs.get(0);
        for (PopMetrics r : runs) {
            if (r.processes() < ref.processes()) {
                ref = r;
            }
        }
        List<PopMetrics> out = new ArrayList<>();
        for (PopMetrics r : runs) {
            double scale = r.totalComputation > 0 ? ref.totalComputation / r.totalComputation : Double.NaN;
            if (how == Scaling.WEAK) {
                scale *= (double) r.processes() / ref.processes();
            }
            out.add(new PopMetrics(r.label, r.processes, r.meanComputation, r.maxComputation, r.maxRuntime,
                    r.maxIdealRuntime, r.totalComputation, scale, r.notes));
        }
        return out;
    }
}
