package dev.straggler.patterns.phases;

import dev.straggler.patterns.cube.CallPath;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.trace.Paradigm;
import dev.straggler.trace.Region;
import dev.straggler.trace.RegionRole;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * IPM's split of a phase's time (Borrill et al., reference §9.4) into CALC, MPI, I/O and LBST, per rank and for
 * all ranks, from an analysis cube. A phase is a named region: every call path of that region with everything it
 * calls (IPM marks phases with MPI_Pcontrol; a traced program marks them with a function or user region).
 * <ul>
 *   <li>phase time: the inclusive time of the phase's call paths (metric {@code time});</li>
 *   <li>I/O: the time of file operations inside it — MPI-IO ({@code mpi_io}) and regions of role FILE_IO or
 *       FILE_IO_METADATA of other paradigms (POSIX I/O);</li>
 *   <li>MPI: the MPI time inside it other than file I/O ({@code mpi − mpi_io});</li>
 *   <li>CALC: the rest, phase time − MPI − I/O;</li>
 *   <li>LBST, load balance including synchronisation: the time ranks wait in the collective operations inside the
 *       phase because they do not reach them together (Wait at Barrier, Wait at N×N, Late Broadcast, Early Reduce,
 *       Early Scan; reference §1.4). It is part of MPI. IPM measures it at a barrier placed between phases; here
 *       that barrier is counted when the phase region encloses it, and a phase without collectives has none.</li>
 * </ul>
 * CALC + MPI + I/O = 100 % of the phase time; LBST is given as a share of it too.
 */
public final class IpmBreakdown {
    private static final String[] LBST = {"mpi_barrier_wait", "mpi_wait_nxn", "mpi_latebroadcast",
            "mpi_earlyreduce", "mpi_earlyscan"};

    private IpmBreakdown() {
    }

    /** One phase: per location (its rank in {@code ranks}) and summed, in seconds. */
    public record Phase(String name, int callPaths, int[] ranks, double[] total, double[] mpi, double[] io,
                        double[] lbst) {
        public double calc(int l) {
            return Math.max(0, total[l] - mpi[l] - io[l]);
        }

        public double totalSum() {
            return sum(total);
        }

        public double mpiSum() {
            return sum(mpi);
        }

        public double ioSum() {
            return sum(io);
        }

        public double lbstSum() {
            return sum(lbst);
        }

        public double calcSum() {
            return Math.max(0, totalSum() - mpiSum() - ioSum());
        }

        private static double sum(double[] a) {
            double s = 0;
            for (double v : a) {
                s += v;
            }
            return s;
        }
    }

    /**
     * The phases named in {@code names}, in that order.
     *
     * @throws IllegalArgumentException naming the regions that exist when a name is no region of the cube
     */
    public static List<Phase> of(SeverityCube c, List<String> names) {
        List<Phase> out = new ArrayList<>();
        for (String n : names) {
            out.add(phase(c, n));
        }
        return out;
    }

    /** The distinct region names of the children of the call paths of region {@code parent}, as phases. */
    public static List<String> childrenOf(SeverityCube c, String parent) {
        Set<String> out = new LinkedHashSet<>();
        boolean found = false;
        for (int p = 0; p < c.callPaths().size(); p++) {
            CallPath cp = c.callPaths().get(p);
            if (cp.parent() >= 0 && name(c, cp.parent()).equals(parent)) {
                found = true;
                Region r = c.regions().get(cp.region());
                if (r.paradigm() != Paradigm.MPI) {
                    out.add(r.name());
                }
            }
        }
        if (!found) {
            throw unknown(c, parent);
        }
        return new ArrayList<>(out);
    }

    private static Phase phase(SeverityCube c, String name) {
        int n = c.locations().size();
        double[] total = new double[n];
        double[] mpi = new double[n];
        double[] io = new double[n];
        double[] lbst = new double[n];
        int time = c.metricIndex("time");
        int mpiM = c.metricIndex("mpi");
        int mpiIo = c.metricIndex("mpi_io");
        int roots = 0;
        boolean[] inside = new boolean[c.callPaths().size()];
        for (int p = 0; p < c.callPaths().size(); p++) {
            // inside when the call path or one of its callers is the phase region (any order of the call paths)
            int outermost = -1;
            for (int q = p; q >= 0; q = c.callPaths().get(q).parent()) {
                if (name(c, q).equals(name)) {
                    outermost = q;
                }
            }
            inside[p] = outermost >= 0;
            if (outermost == p) {
                roots++;
            }
        }
        if (roots == 0) {
            throw unknown(c, name);
        }
        for (int p = 0; p < c.callPaths().size(); p++) {
            if (!inside[p]) {
                continue;
            }
            Region r = c.regions().get(c.callPaths().get(p).region());
            boolean posixIo = r.paradigm() != Paradigm.MPI
                    && (r.role() == RegionRole.FILE_IO || r.role() == RegionRole.FILE_IO_METADATA);
            for (int l = 0; l < n; l++) {
                double t = time < 0 ? 0 : c.get(time, p, l);
                total[l] += t;
                double m = mpiM < 0 ? 0 : c.get(mpiM, p, l);
                double f = mpiIo < 0 ? 0 : c.get(mpiIo, p, l);
                mpi[l] += Math.max(0, m - f);
                io[l] += f + (posixIo ? t : 0);
                for (String w : LBST) {
                    int k = c.metricIndex(w);
                    if (k >= 0) {
                        lbst[l] += c.get(k, p, l);
                    }
                }
            }
        }
        int[] ranks = new int[n];
        for (int l = 0; l < n; l++) {
            ranks[l] = c.locations().get(l).rank();
        }
        return new Phase(name, roots, ranks, total, mpi, io, lbst);
    }

    private static String name(SeverityCube c, int path) {
        return c.regions().get(c.callPaths().get(path).region()).name();
    }

    private static IllegalArgumentException unknown(SeverityCube c, String name) {
        TreeSet<String> names = new TreeSet<>();
        for (CallPath cp : c.callPaths()) {
            Region r = c.regions().get(cp.region());
            if (r.paradigm() != Paradigm.MPI) {
                names.add(r.name());
            }
        }
        return new IllegalArgumentException("no region '" + name + "' in the call tree; regions: "
                + String.join(", ", names));
    }
}
