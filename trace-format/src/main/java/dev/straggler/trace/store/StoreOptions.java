package dev.straggler.trace.store;

/**
 * How a store is written.
 *
 * @param compression ZSTD (default: about 3x smaller, slower to write) or NONE. LZ4 is not offered: Arrow Java's
 *                    LZ4 writer is a pure-Java compressor too slow to be useful.
 * @param zstdLevel   ZSTD level; 1 is the best speed/size balance for event columns
 * @param batchSize   events per Arrow record batch, and the per-location write buffer; memory while writing is
 *                    about {@code 74 * batchSize} bytes per open location
 */
public record StoreOptions(Compression compression, int zstdLevel, int batchSize) {

    public enum Compression { NONE, ZSTD }

    public StoreOptions {
        if (batchSize < 1 || batchSize > (1 << 24)) {
            throw new IllegalArgumentException("batch size must be in 1..16777216: " + batchSize);
        }
    }

    public static StoreOptions defaults() {
        return new StoreOptions(Compression.ZSTD, 1, 65536);
    }

    public static StoreOptions uncompressed() {
        return new StoreOptions(Compression.NONE, 0, 65536);
    }

    public StoreOptions withBatchSize(int n) {
        return new StoreOptions(compression, zstdLevel, n);
    }
}
