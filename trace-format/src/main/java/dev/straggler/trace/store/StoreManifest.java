package dev.straggler.trace.store;

import java.util.List;
import java.util.Map;

/**
 * The manifest of a store: enough to detect truncation (file sizes, event and batch counts) and corruption
 * (CRC32C of each file) without reading the events, and per-kind event counts so that summaries need no scan.
 */
public record StoreManifest(String format, int version, String compression, int batchSize, long totalEvents,
                            List<LocationFile> locations) {

    /**
     * @param eventsByKind event counts by {@link dev.straggler.trace.EventKind} name (kinds with 0 events omitted)
     */
    public record LocationFile(int index, String file, long events, int batches, long bytes, String crc32c,
                               Map<String, Long> eventsByKind) {
    }
}
