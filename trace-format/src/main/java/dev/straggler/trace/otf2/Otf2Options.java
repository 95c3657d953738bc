package dev.straggler.trace.otf2;

/**
 * How an OTF2 archive is read.
 *
 * @param lenient when false (the default) the first defect (truncated or corrupt data, a missing event file, a
 *                reference to an undefined region) fails the read with a {@link dev.straggler.trace.TraceFormatException}
 *                naming file and byte offset. When true the reader keeps what can be trusted: it drops the damaged
 *                rest of a chunk, an event with an undefined reference, or a location whose event file is missing,
 *                and reports each case, with the number of event records lost, in {@link Otf2Archive#warnings()}.
 * @param threads  threads for {@link Otf2Archive#scanStatistics()}; 0 means one per available processor
 */
public record Otf2Options(boolean lenient, int threads) {

    public Otf2Options {
        if (threads < 0) {
            throw new IllegalArgumentException("threads must be >= 0: " + threads);
        }
    }

    public Otf2Options(boolean lenient) {
        this(lenient, 0);
    }

    public static Otf2Options strict() {
        return new Otf2Options(false, 0);
    }

    public static Otf2Options lenientReading() {
        return new Otf2Options(true, 0);
    }

    int effectiveThreads() {
        return threads > 0 ? threads : Runtime.getRuntime().availableProcessors();
    }
}
