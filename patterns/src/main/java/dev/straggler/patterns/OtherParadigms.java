package dev.straggler.patterns;

import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.trace.Paradigm;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Time in regions of other parallel runtimes (CUDA, OpenCL, OpenACC). As in Scalasca's metric tree, this time
 * belongs to Execution but neither to Computation nor to MPI, and no wait state, delay or critical-path metric covers
 * it. Reports say so, with the amount, rather than leave the tree's children silently short of their parent. POSIX
 * threads are not among them: their API calls have their own metrics ({@code pthread_time}, {@link PthreadApi}).
 */
public final class OtherParadigms {
    private OtherParadigms() {
    }

    /**
     * OpenACC, OpenCL, CUDA: time outside Computation and MPI. OpenMP and Pthreads are not among them: their regions
     * are classified as Scalasca's remapping does (omp_time, pthread_time and their children, the rest computation;
     * docs/openmp.md).
     */
    public static boolean isOtherRuntime(Paradigm p) {
        return p == Paradigm.OPENACC || p == Paradigm.OPENCL || p == Paradigm.CUDA;
    }

    /** Seconds per paradigm (largest first), summed over call paths and locations; empty when there is none. */
    public static Map<String, Double> times(SeverityCube c) {
        int exec = c.metricIndex("execution");
        Map<String, Double> by = new LinkedHashMap<>();
        if (exec < 0) {
            return by;
        }
        Map<Paradigm, Double> sums = new java.util.EnumMap<>(Paradigm.class);
        for (int cp = 0; cp < c.callPaths().size(); cp++) {
            Paradigm p = c.regions().get(c.callPaths().get(cp).region()).paradigm();
            if (isOtherRuntime(p)) {
                double v = c.sumOverLocations(exec, cp);
                if (v > 0) {
                    sums.merge(p, v, Double::sum);
                }
            }
        }
        sums.entrySet().stream().sorted(Map.Entry.<Paradigm, Double>comparingByValue().reversed())
                .forEach(e -> by.put(name(e.getKey()), e.getValue()));
        return by;
    }

    static String name(Paradigm p) {
        return switch (p) {
            case OPENMP -> "OpenMP";
            case PTHREAD -> "Pthreads";
            case CUDA -> "CUDA";
            case OPENCL -> "OpenCL";
            case OPENACC -> "OpenACC";
            default -> p.name();
        };
    }

    /** One sentence for reports, or null when there is no such time. */
    public static String sentence(SeverityCube c) {
        Map<String, Double> t = times(c);
        if (t.isEmpty()) {
            return null;
        }
        double all = t.values().stream().mapToDouble(Double::doubleValue).sum();
        double exec = c.total("execution");
        StringBuilder parts = new StringBuilder();
        t.forEach((k, v) -> parts.append(parts.length() == 0 ? "" : ", ").append(k)
                .append(String.format(Locale.ROOT, " %.6f s", v)));
        return String.format(Locale.ROOT, "%.1f%% of the execution time (%.6f s: %s) is in other parallel runtimes; it "
                        + "is part of Execution but neither Computation nor MPI, and no wait-state, root-cause or "
                        + "critical-path analysis covers it",
                exec > 0 ? 100 * all / exec : 0, all, parts);
    }
}
