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
     * @param batchIndex   one entry per record batch, in file order, for seeking by time; null in stores written
     *                     before it existed (they are still read, and seeked by loading O(log n) batches)
     */
    public record LocationFile(int index, String file, long events, int batches, long bytes, String crc32c,
                               Map<String, Long> eventsByKind, List<BatchIndex> batchIndex) {
    }

    /**
     * What a reader needs to start at a record batch without reading the ones before it.
     *
     * @param firstEvent   index of the batch's first event within the location
     * @param firstTick    timestamp of its first event
     * @param lastTick     timestamp of its last event
     * @param crc32c       CRC32C of the batch's bytes in the file (its Arrow message: metadata and body), so a
     *                     seek checks what it reads without checksumming the whole file
     * @param openRegions  the regions open before its first event, outermost first (rule of
     *                     {@link dev.straggler.trace.OpenRegions}); null when deeper than
     *                     {@link StoreLayout#MAX_INDEXED_DEPTH} (then a reader replays the location from its start)
     */
    public record BatchIndex(long firstEvent, long firstTick, long lastTick, String crc32c, int[] openRegions) {
    }
}
