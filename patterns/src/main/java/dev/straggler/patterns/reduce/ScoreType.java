package dev.straggler.patterns.reduce;

import dev.straggler.trace.Region;

/**
 * The region types of {@code scorep-score} (reference §4.4), in Score-P's order: every type after {@link #COM}
 * is a paradigm whose calls make their callers communicating, and a {@link #USR} function that has one of them
 * below it on some call path becomes {@link #COM}.
 *
 * <p>{@link #filterable()} is Score-P's filter state: USR, COM, CUDA, KOKKOS, HIP and LIB regions may be filtered,
 * the others never are.
 */
public enum ScoreType {
    USR(true), SCOREP(false), COM(true), MPI(false), OMP(false), SHMEM(false), PTHREAD(false), CUDA(true),
    OPENCL(false), OPENACC(false), MEMORY(false), IO(false), KOKKOS(true), HIP(true), LIB(true), UNKNOWN(false);

    private final boolean filterable;

    ScoreType(boolean filterable) {
        this.filterable = filterable;
    }

    public boolean filterable() {
        return filterable;
    }

    /** Types whose calls mark every caller as communicating ({@code scorep-score}: "all types after COM"). */
    public boolean marksCallers() {
        return ordinal() > COM.ordinal();
    }

    /**
     * The type a region has by its definition alone, before call paths turn USR into COM: by paradigm, and for
     * an unknown paradigm by the name prefixes Score-P recognises (reference §4.4).
     */
    public static ScoreType ofDefinition(Region r) {
        return switch (r.paradigm()) {
            case MPI -> MPI;
            case SHMEM -> SHMEM;
            case OPENMP -> OMP;
            case PTHREAD -> PTHREAD;
            case CUDA -> CUDA;
            case OPENCL -> OPENCL;
            case OPENACC -> OPENACC;
            case MEASUREMENT_SYSTEM -> SCOREP;
            case KOKKOS -> KOKKOS;
            case HIP -> HIP;
            case UNKNOWN -> byName(r.name());
            default -> USR;
        };
    }

    private static ScoreType byName(String name) {
        if (name.startsWith("MPI_")) {
            return MPI;
        }
        if (name.startsWith("shmem_")) {
            return SHMEM;
        }
        if (name.startsWith("!$omp ") || name.startsWith("omp_")) {
            return OMP;
        }
        if (name.startsWith("pthread_")) {
            return PTHREAD;
        }
        if (prefixThenUpper(name, "cu") || prefixThenUpper(name, "cuda")) {
            return CUDA;
        }
        if (prefixThenUpper(name, "cl")) {
            return OPENCL;
        }
        return USR;
    }

    private static boolean prefixThenUpper(String s, String prefix) {
        return s.length() > prefix.length() && s.startsWith(prefix) && Character.isUpperCase(s.charAt(prefix.length()));
    }
}
