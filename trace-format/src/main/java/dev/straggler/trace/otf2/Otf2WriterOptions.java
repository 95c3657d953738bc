package dev.straggler.trace.otf2;

import java.nio.ByteOrder;
import java.util.Objects;

/**
 * How {@link Otf2Writer} lays out an archive.
 *
 * @param byteOrder            byte order of every file (OTF2 readers accept either; Score-P writes the host's)
 * @param chunkSizeEvents      bytes per event-file chunk (OTF2 allows 256 KiB to 16 MiB; Score-P uses 1 MiB)
 * @param chunkSizeDefinitions bytes per definition-file chunk
 */
public record Otf2WriterOptions(ByteOrder byteOrder, long chunkSizeEvents, long chunkSizeDefinitions, String creator,
                                String machine, String description) {

    public static final long MIN_CHUNK = 256 * 1024;
    public static final long MAX_CHUNK = 16 * 1024 * 1024;

    public Otf2WriterOptions {
        Objects.requireNonNull(byteOrder, "byteOrder");
        for (long c : new long[] {chunkSizeEvents, chunkSizeDefinitions}) {
            if (c < MIN_CHUNK || c > MAX_CHUNK) {
                throw new IllegalArgumentException("chunk size " + c + " outside OTF2's " + MIN_CHUNK + ".." + MAX_CHUNK);
            }
        }
        creator = creator == null ? "" : creator;
        machine = machine == null ? "" : machine;
        description = description == null ? "" : description;
    }

    public static Otf2WriterOptions defaults() {
        return new Otf2WriterOptions(ByteOrder.LITTLE_ENDIAN, 1024 * 1024, 4L * 1024 * 1024, "Straggler", "", "");
    }

    public Otf2WriterOptions withByteOrder(ByteOrder order) {
        return new Otf2WriterOptions(order, chunkSizeEvents, chunkSizeDefinitions, creator, machine, description);
    }

    public Otf2WriterOptions withChunkSizeEvents(long bytes) {
        return new Otf2WriterOptions(byteOrder, bytes, chunkSizeDefinitions, creator, machine, description);
    }
}
