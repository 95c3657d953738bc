package dev.straggler.patterns.callsite;

import java.util.List;

/**
 * Each top-level phase (a region at a chosen call-tree depth) split into computation, MPI and load imbalance,
 * per rank.
 *
 * <p>A phase's total is the inclusive time of its region; MPI is the time of the outermost MPI calls inside it;
 * computation is the rest. Load imbalance is time spent waiting at synchronization: in collective operations,
 * the time a rank waited for the last participant it depends on (Scalasca's Wait at Barrier, Wait at N x N,
 * Late Broadcast, Early Reduce and Early Scan reference times, reference §1.4, without the refinements for
 * payload-free operations and partial overlap), so it is part of the MPI time.
 *
 * @param imbalanceSource where the waiting times come from
 */
public record PhaseBreakdown(int phaseDepth, String imbalanceSource, List<Phase> phases) {
    public PhaseBreakdown {
        phases = List.copyOf(phases);
    }

    /**
     * One phase; arrays are indexed by rank, in seconds.
     *
     * @param path the region names from the root to the phase region
     */
    public record Phase(List<String> path, double[] total, double[] mpi, double[] imbalance) {
        public Phase {
            path = List.copyOf(path);
        }

        public String name() {
            return path.get(path.size() - 1);
        }

        public double computation(int rank) {
            return total[rank] - mpi[rank];
        }

        public double totalSum() {
            return sum(total);
        }

        public double mpiSum() {
            return sum(mpi);
        }

        public double imbalanceSum() {
            return sum(imbalance);
        }

        public double computationSum() {
            return totalSum() - mpiSum();
        }

        private static double sum(double[] a) {
            double s = 0;
            for (double v : a) {
                s += v;
            }
            return s;
        }
    }
}
