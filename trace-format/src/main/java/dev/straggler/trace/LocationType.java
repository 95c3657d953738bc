package dev.straggler.trace;

/** Kind of a location, with OTF2's codes ({@code OTF2_LocationType}). */
public enum LocationType {
    UNKNOWN, CPU_THREAD, ACCELERATOR_STREAM, METRIC;

    private static final LocationType[] BY_CODE = values();

    public int code() {
        return ordinal();
    }

    public static LocationType of(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : UNKNOWN;
    }
}
