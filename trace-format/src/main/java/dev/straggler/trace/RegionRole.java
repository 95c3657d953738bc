package dev.straggler.trace;

/** Role of a region, with OTF2's numeric codes (reference §6.7, {@code OTF2_RegionRole}). */
public enum RegionRole {
    UNKNOWN, FUNCTION, WRAPPER, LOOP, CODE, PARALLEL, SECTIONS, SECTION, WORKSHARE, SINGLE, SINGLE_SBLOCK,
    MASTER, CRITICAL, CRITICAL_SBLOCK, ATOMIC, BARRIER, IMPLICIT_BARRIER, FLUSH, ORDERED, ORDERED_SBLOCK, TASK,
    TASK_CREATE, TASK_WAIT, COLL_ONE2ALL, COLL_ALL2ONE, COLL_ALL2ALL, COLL_OTHER, FILE_IO, POINT2POINT, RMA,
    DATA_TRANSFER, ARTIFICIAL, THREAD_CREATE, THREAD_WAIT, TASK_UNTIED, ALLOCATE, DEALLOCATE, REALLOCATE,
    FILE_IO_METADATA;

    private static final RegionRole[] BY_CODE = values();

    public int code() {
        return ordinal();
    }

    /** Maps an OTF2 code; codes this version does not know become {@link #UNKNOWN}. */
    public static RegionRole of(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : UNKNOWN;
    }
}
