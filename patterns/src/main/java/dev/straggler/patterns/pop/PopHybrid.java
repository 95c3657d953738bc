package dev.straggler.patterns.pop;

import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.patterns.cube.SystemLocation;
import dev.straggler.patterns.focus.Focus;

import java.util.Map;
import java.util.TreeMap;

/**
 * POP's efficiencies of a hybrid MPI+OpenMP run, the multiplicative model ("hm" in the POP CoE co-design metric
 * pages, docs/pop.md), over the focus of analysis:
 * <pre>
 *   Hybrid Load Balance          = mean(useful) / max(useful)          over all threads of all processes
 *   Hybrid Communication Eff.    = max(useful) / runtime
 *   Hybrid Parallel Efficiency   = mean(useful) / runtime = Hybrid LB × Hybrid CommE
 *   MPI Load Balance             = mean(outside MPI) / max(outside MPI) over the processes' master threads
 *   MPI Communication Eff.       = max(outside MPI) / runtime
 *   MPI Parallel Efficiency      = MPI LB × MPI CommE
 *   OpenMP LB, CommE, PE         = the hybrid one / the MPI one
 * </pre>
 * so that Hybrid PE = MPI PE × OpenMP PE. Useful time is computation ({@code comp}: outside MPI and the OpenMP
 * runtime; idle threads are not computing); outside MPI is the master's execution minus its MPI time (from MPI's
 * point of view the OpenMP runtime is useful); the runtime is the longest master's execution. The threads are
 * the masters and the threads of their teams (with OpenMP time or idle time); accelerator streams are not.
 *
 * @param threads        threads counted (all processes)
 * @param meanUseful     mean over threads of the useful computation, s
 * @param maxUseful      its maximum
 * @param meanOutsideMpi mean over processes of the master's time outside MPI, s
 * @param maxOutsideMpi  its maximum
 * @param runtime        the longest master's execution, s
 */
public record PopHybrid(int processes, int threads, double meanUseful, double maxUseful, double meanOutsideMpi,
                        double maxOutsideMpi, double runtime) {

    public double hybridLoadBalance() {
        return ratio(meanUseful, maxUseful);
    }

    public double hybridCommunicationEfficiency() {
        return ratio(maxUseful, runtime);
    }

    public double hybridParallelEfficiency() {
        return ratio(meanUseful, runtime);
    }

    public double mpiLoadBalance() {
        return ratio(meanOutsideMpi, maxOutsideMpi);
    }

    public double mpiCommunicationEfficiency() {
        return ratio(maxOutsideMpi, runtime);
    }

    public double mpiParallelEfficiency() {
        return mpiLoadBalance() * mpiCommunicationEfficiency();
    }

    public double openMpLoadBalance() {
        return ratio(hybridLoadBalance(), mpiLoadBalance());
    }

    public double openMpCommunicationEfficiency() {
        return ratio(hybridCommunicationEfficiency(), mpiCommunicationEfficiency());
    }

    public double openMpParallelEfficiency() {
        return ratio(hybridParallelEfficiency(), mpiParallelEfficiency());
    }

    private static double ratio(double a, double b) {
        return b > 0 ? a / b : Double.NaN;
    }

    /** The run over a focus; null when no process has threads besides its master (not a hybrid run). */
    public static PopHybrid of(Focus.Selection sel) {
        SeverityCube cube = sel.cube();
        int comp = cube.metricIndex("comp");
        int exe = cube.metricIndex("execution");
        int mpi = cube.metricIndex("mpi");
        int ompTime = cube.metricIndex("omp_time");
        if (comp < 0 || exe < 0 || mpi < 0 || ompTime < 0 || cube.isOmitted(ompTime)) {
            return null;
        }
        // team membership is read off the whole run: a worker thread ran in an OpenMP parallel region (a thread of
        // another runtime, e.g. an accelerator stream, never does)
        boolean[] member = sel.whole().ranInParallelRegion();
        double[] useful = cube.perLocation(comp);
        double[] execution = cube.perLocation(exe);
        double[] inMpi = cube.perLocation(mpi);
        Map<Integer, double[]> masters = new TreeMap<>();
        double sumUseful = 0;
        double maxUseful = 0;
        int threads = 0;
        boolean workers = false;
        for (SystemLocation l : cube.locations()) {
            int i = l.index();
            boolean master = l.thread() == 0;
            if (!master && !member[i]) {
                continue;
            }
            workers |= !master;
            threads++;
            sumUseful += useful[i];
            maxUseful = Math.max(maxUseful, useful[i]);
            if (master) {
                masters.put(l.rank(), new double[]{execution[i] - inMpi[i], execution[i]});
            }
        }
        if (!workers || masters.isEmpty()) {
            return null;
        }
        double sumOutside = 0;
        double maxOutside = 0;
        double runtime = 0;
        for (double[] m : masters.values()) {
            sumOutside += m[0];
            maxOutside = Math.max(maxOutside, m[0]);
            runtime = Math.max(runtime, m[1]);
        }
        return new PopHybrid(masters.size(), threads, sumUseful / threads, maxUseful, sumOutside / masters.size(),
                maxOutside, runtime);
    }
}
