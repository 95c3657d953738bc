package dev.straggler.trace.store;

import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

import java.nio.file.Path;
import java.util.List;

/**
 * The on-disk layout of a Straggler store (see docs/store-format.md):
 * <pre>
 *   STORE/manifest.json       format, version, compression, per-location file sizes, event counts and checksums
 *   STORE/definitions.json    regions, processes, locations, communicators, clock, experiment, skipped records
 *   STORE/events/loc-NNNNNN.arrow   one Arrow IPC file per location, record batches of the columns below
 * </pre>
 * Columns: {@code time_delta} int64 (first event of each batch: absolute tick; others: difference to the previous
 * event, which keeps the column small under ZSTD and makes every batch decodable on its own), {@code kind} int8,
 * {@code ref, comm, tag} int32, {@code bytes, aux} int64, interpreted per {@link dev.straggler.trace.EventKind}.
 */
public final class StoreLayout {
    public static final String FORMAT = "straggler.store";
    public static final int VERSION = 1;
    public static final String MANIFEST = "manifest.json";
    public static final String DEFINITIONS = "definitions.json";
    public static final String EVENTS_DIR = "events";
    /**
     * Deepest region stack the batch index records; deeper stacks (runaway recursion) are left out so that the
     * manifest stays small, and a seek into such a batch replays the location from its start.
     */
    public static final int MAX_INDEXED_DEPTH = 256;

    static final int COL_TIME = 0;
    static final int COL_KIND = 1;
    static final int COL_REF = 2;
    static final int COL_COMM = 3;
    static final int COL_TAG = 4;
    static final int COL_BYTES = 5;
    static final int COL_AUX = 6;

    public static final Schema SCHEMA = new Schema(List.of(
            column("time_delta", 64),
            column("kind", 8),
            column("ref", 32),
            column("comm", 32),
            column("tag", 32),
            column("bytes", 64),
            column("aux", 64)));

    private StoreLayout() {
    }

    private static Field column(String name, int bits) {
        return new Field(name, FieldType.notNullable(new ArrowType.Int(bits, true)), null);
    }

    public static String eventFileName(int location) {
        return String.format("%s/loc-%06d.arrow", EVENTS_DIR, location);
    }

    /** True when {@code dir} looks like a store (has a manifest). */
    public static boolean isStore(Path dir) {
        return dir.resolve(MANIFEST).toFile().isFile();
    }
}
