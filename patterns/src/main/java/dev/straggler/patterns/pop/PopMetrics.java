package dev.straggler.patterns.pop;

import dev.straggler.patterns.OtherParadigms;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.patterns.cube.SystemLocation;
import dev.straggler.patterns.focus.Focus;

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
 * PE × Computation Scaling. With hardware counters read from an OTF2 trace ({@link PopCounters}): Instruction
 * Scaling = useful instructions of the reference / the run's (× p / p_ref weak), IPC Scaling = IPC / IPC_ref with IPC
 * = useful instructions / useful cycles, Frequency Scaling = f / f_ref with f = useful cycles / useful computation
 * time; their product is the computation scaling.
 *
 * @param label                  the run
 * @param processes              processes (location groups)
 * @param meanComputation        mean over processes of the useful computation, s
 * @param maxComputation         its maximum
 * @param maxRuntime             maximum over processes of the runtime, s
 * @param maxIdealRuntime        maximum over processes of the runtime on an ideal network, s
 * @param totalComputation       useful computation summed over processes, s (the basis of computation scaling)
 * @param computationScaling     NaN for a run on its own; set by {@link #scaling}
 * @param instructions           useful instructions (PAPI_TOT_INS in computation, all processes); NaN without
 * @param cycles                 useful cycles (PAPI_TOT_CYC in computation); NaN without
 * @param instructionScaling     across runs: instructions of the reference / this run's (× p / p_ref weak)
 * @param ipcScaling             across runs: this run's IPC / the reference's
 * @param frequencyScaling       across runs: this run's frequency / the reference's
 * @param notes                  what the values cover (e.g. only MPI in a hybrid run)
 * @param focus                  the part of the run the values cover
 * @param leftOut                share of the run's time (summed over processes) outside the focus, in [0, 1]
 * @param mpiApplies             false for a run without MPI time in the focus: its efficiencies are NaN, since
 *                               they measure MPI's cost and there is none to measure (not "100 %")
 */
public record PopMetrics(String label, int processes, double meanComputation, double maxComputation,
                         double maxRuntime, double maxIdealRuntime, double totalComputation,
                         double computationScaling, double instructions, double cycles,
                         double instructionScaling, double ipcScaling, double frequencyScaling, List<String> notes,
                         Focus focus, double leftOut, boolean mpiApplies) {

    /** Scalasca's wait states as Cube's Advisor sums them into "waiting time in MPI" ({@code wait_time_mpi}). */
    public static final List<String> WAITING = List.of("mpi_latesender", "mpi_latereceiver", "mpi_earlyreduce",
            "mpi_earlyscan", "mpi_latebroadcast", "mpi_wait_nxn", "mpi_barrier_wait", "mpi_finalize_wait");

    /** How the note on a run with threads or other parallel runtimes begins. */
    public static final String HYBRID = "hybrid run";

    /** Whether the efficiencies leave other parallel runtimes (threads, devices) out: see the note. */
    public boolean mpiOnly() {
        return notes.stream().anyMatch(n -> n.startsWith(HYBRID));
    }

    /** How the process counts of a study relate to the problem. */
    public enum Scaling { STRONG, WEAK }

    public PopMetrics {
        notes = List.copyOf(notes);
    }

    public double loadBalance() {
        return mpiApplies ? ratio(meanComputation, maxComputation) : Double.NaN;
    }

    public double communicationEfficiency() {
        return mpiApplies ? ratio(maxComputation, maxRuntime) : Double.NaN;
    }

    public double serialisationEfficiency() {
        return mpiApplies ? ratio(maxComputation, maxIdealRuntime) : Double.NaN;
    }

    public double transferEfficiency() {
        return mpiApplies ? ratio(maxIdealRuntime, maxRuntime) : Double.NaN;
    }

    public double parallelEfficiency() {
        return loadBalance() * communicationEfficiency();
    }

    /** PE × computation scaling; NaN for a run on its own. */
    public double globalEfficiency() {
        return parallelEfficiency() * computationScaling;
    }

    /** Useful instructions per useful cycle; NaN without both counters. */
    public double ipc() {
        return ratio(instructions, cycles);
    }

    /** Useful cycles per second of useful computation, Hz; NaN without PAPI_TOT_CYC. */
    public double frequency() {
        return ratio(cycles, totalComputation);
    }

    /** The run with its useful instructions and cycles (NaN for a counter the trace lacks). */
    public PopMetrics withCounters(double usefulInstructions, double usefulCycles) {
        return new PopMetrics(label, processes, meanComputation, maxComputation, maxRuntime, maxIdealRuntime,
                totalComputation, computationScaling, usefulInstructions, usefulCycles, instructionScaling, ipcScaling,
                frequencyScaling, notes, focus, leftOut, mpiApplies);
    }

    /** {@code a / b} for the efficiencies: NaN when there is nothing to divide by. */
    private static double ratio(double a, double b) {
        return b > 0 ? a / b : Double.NaN;
    }

    /** The run's efficiencies over the whole run, as Cube's Advisor computes them on the root call path. */
    public static PopMetrics of(SeverityCube cube, String label) {
        return of(cube, label, Focus.ALL);
    }

    /**
     * The run's efficiencies over a focus of analysis: every per-process sum below is taken over the call paths of
     * the focus only (the Advisor's POP tests on a selected call path).
     */
    public static PopMetrics of(SeverityCube whole, String label, Focus focus) {
        return of(focus.select(whole), label);
    }

    /** The run's efficiencies over a focus already applied to it. */
    public static PopMetrics of(Focus.Selection sel, String label) {
        SeverityCube whole = sel.whole();
        Focus focus = sel.focus();
        SeverityCube cube = sel.cube();
        double allTime = whole.metricIndex("time") < 0 ? 0 : whole.total("time");
        double leftOut = allTime > 0 ? Math.max(0, Math.min(1, sel.outside("time") / allTime)) : 0;
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
            notes.add(HYBRID + ": the efficiencies cover MPI only; OpenMP and other runtime time (threads, devices) and"
                    + " idle threads count neither as computation nor as transfer; the threads' balance is in POP's"
                    + " hybrid efficiencies where the run has OpenMP threads");
        }
        boolean mpiApplies = cube.total(mpi) > 0;
        if (!mpiApplies) {
            notes.add("no MPI time in " + focus.description() + ": the MPI efficiencies (load balance, communication, "
                    + "serialisation, transfer, parallel) do not apply");
        }
        int n = byRank.size();
        return new PopMetrics(label, n, n == 0 ? 0 : sum / n, maxComp, maxRun, maxIdeal, sum, Double.NaN, Double.NaN,
                Double.NaN, Double.NaN, Double.NaN, Double.NaN, notes, focus, leftOut, mpiApplies);
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
            double weak = how == Scaling.WEAK ? (double) r.processes() / ref.processes() : 1;
            double scale = ratio(ref.totalComputation, r.totalComputation) * weak;
            double ins = ratio(ref.instructions, r.instructions) * weak;
            double ipc = ratio(r.ipc(), ref.ipc());
            double freq = ratio(r.frequency(), ref.frequency());
            out.add(new PopMetrics(r.label, r.processes, r.meanComputation, r.maxComputation, r.maxRuntime,
                    r.maxIdealRuntime, r.totalComputation, scale, r.instructions, r.cycles, ins, ipc, freq, r.notes, r.focus,
                    r.leftOut, r.mpiApplies));
        }
        return out;
    }
}
