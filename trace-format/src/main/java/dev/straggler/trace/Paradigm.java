package dev.straggler.trace;

/** Programming paradigm of a region, with OTF2's numeric codes (reference §6.7, {@code OTF2_Paradigm}). */
public enum Paradigm {
    UNKNOWN, USER, COMPILER, OPENMP, MPI, CUDA, MEASUREMENT_SYSTEM, PTHREAD, HMPP, OMPSS, HARDWARE, GASPI,
    UPC, SHMEM, WINTHREAD, QTTHREAD, ACETHREAD, TBBTHREAD, OPENACC, OPENCL, MTAPI, SAMPLING, NONE, HIP, KOKKOS;

    private static final Paradigm[] BY_CODE = values();

    public int code() {
        return ordinal();
    }

    /** Maps an OTF2 code; codes this version does not know become {@link #UNKNOWN}. */
    public static Paradigm of(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : UNKNOWN;
    }
}
