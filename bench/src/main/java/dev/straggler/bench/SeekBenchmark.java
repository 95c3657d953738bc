package dev.straggler.bench;

import dev.straggler.patterns.timeline.PerfettoExport;
import dev.straggler.trace.EventBatch;
import dev.straggler.trace.LocationReader;
import dev.straggler.trace.TraceDefinitions;
import dev.straggler.trace.TraceSource;
import dev.straggler.trace.store.StoreManifest;
import dev.straggler.trace.store.StoreOptions;
import dev.straggler.trace.store.StoreReader;
import dev.straggler.trace.store.StoreWriter;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reading a time window of a large store: by seeking (the manifest's per-batch time index, one batch decoded per
 * location before the window) against reading each location from its start up to the window's end, as a reader
 * without the index must. Times the raw window read and {@link PerfettoExport} (which seeks on a store with the
 * index and reads from the start otherwise; the latter is forced by hiding the index behind a wrapper).
 *
 * <p>The store is generated with {@link AnalyzeBenchmark}'s event mix. The window is placed in the middle of the
 * run and sized to hold about {@code --window-events} events over all locations. Files are in the page cache after
 * generation (warm reads); "bytes touched" counts the record batches the readers delivered events from (sizes from
 * the Arrow footers) plus, for a read from the start, the whole file read by the CRC32C check made on opening.
 *
 * <p>The messages drawn differ between the two exports here and say nothing about either: the generator advances
 * each rank's clock on its own, so the k-th message of a rank pair is sent and received at unrelated times.
 *
 * <p>Usage: {@code java -cp straggler-bench.jar dev.straggler.bench.SeekBenchmark [--events 100000000]
 * [--ranks 16] [--window-events 100000] [--dir /tmp/straggler-seek-bench] [--repeat 3]}
 */
public final class SeekBenchmark {

    public static void main(String[] argv) throws Exception {
        Map<String, String> a = BenchSupport.args(argv, "dir", "events", "ranks", "repeat", "window-events");
        long events = Long.parseLong(a.getOrDefault("events", "100000000"));
        int ranks = Integer.parseInt(a.getOrDefault("ranks", "16"));
        long windowEvents = Long.parseLong(a.getOrDefault("window-events", "100000"));
        int repeat = Integer.parseInt(a.getOrDefault("repeat", "3"));
        Path dir = Path.of(a.getOrDefault("dir", System.getProperty("java.io.tmpdir") + "/straggler-seek-bench"));
        Path store = dir.resolve("store-" + events + "-" + ranks);
        System.out.printf(Locale.ROOT, "seek benchmark: %,d events, %d ranks, window of about %,d events, %d cores%n",
                events, ranks, windowEvents, Runtime.getRuntime().availableProcessors());
        if (!Files.exists(store.resolve("manifest.json"))) {
            long t0 = System.nanoTime();
            try (StoreWriter w = StoreWriter.create(store, StoreOptions.defaults())) {
                AnalyzeBenchmark.generate(w, ranks, events / ranks);
            }
            System.out.printf(Locale.ROOT, "generated store %s in %.1f s%n", store, (System.nanoTime() - t0) / 1e9);
        }
        try (StoreReader s = StoreReader.open(store)) {
            StoreManifest m = s.manifest();
            long bytes = m.locations().stream().mapToLong(StoreManifest.LocationFile::bytes).sum();
            long first = Long.MAX_VALUE;
            long last = Long.MIN_VALUE;
            for (StoreManifest.LocationFile f : m.locations()) {
                List<StoreManifest.BatchIndex> idx = f.batchIndex();
                if (idx == null) {
                    throw new IllegalStateException(store + " has no batch index; delete it to regenerate");
                }
                if (!idx.isEmpty()) {
                    first = Math.min(first, idx.get(0).firstTick());
                    last = Math.max(last, idx.get(idx.size() - 1).lastTick());
                }
            }
            long span = last - first;
            long width = Math.max(1, (long) (span * (windowEvents / (double) m.totalEvents())));
            long from = first + span / 2;
            long to = from + width;
            System.out.printf(Locale.ROOT, "store: %,d events in %,d bytes (%d locations, %d-event batches); window"
                    + " [%d, %d] ticks of a %d-tick run%n", m.totalEvents(), bytes, m.locations().size(), m.batchSize(),
                    from - first, to - first, span);
            Footers footers = new Footers(store, m);
            for (int i = 0; i < repeat; i++) {
                read("seek      ", s, from, to, true, footers);
                read("from start", s, from, to, false, footers);
            }
            long ticksPerSecond = s.definitions().clock().ticksPerSecond();
            long origin = first;
            double fromS = (from - origin) / (double) ticksPerSecond;
            double toS = (to - origin) / (double) ticksPerSecond;
            for (int i = 0; i < repeat; i++) {
                export("Perfetto export, seek      ", s, fromS, toS);
                export("Perfetto export, from start", new NoIndex(s), fromS, toS);
            }
        }
    }

    /** Reads [from, to] of every location; prints events, time, rate and bytes touched. */
    private static void read(String label, StoreReader s, long from, long to, boolean seek, Footers footers)
            throws IOException {
        EventBatch b = new EventBatch(65536);
        long inWindow = 0;
        long delivered = 0;
        long touched = 0;
        long t0 = System.nanoTime();
        for (int l = 0; l < s.definitions().locations().size(); l++) {
            int batches = 0;
            long firstIndex = -1;
            try (LocationReader r = seek ? s.openLocation(l, from) : s.openLocation(l)) {
                read:
                while (r.next(b)) {
                    batches++;
                    if (firstIndex < 0) {
                        firstIndex = b.firstIndex;
                    }
                    delivered += b.size;
                    for (int i = 0; i < b.size; i++) {
                        long t = b.time[i];
                        if (t > to) {
                            break read;
                        }
                        if (t >= from) {
                            inWindow++;
                        }
                    }
                }
            }
            touched += seek ? footers.bytes(l, firstIndex, batches) : s.manifest().locations().get(l).bytes()
                    + footers.bytes(l, 0, batches);
        }
        long ns = System.nanoTime() - t0;
        System.out.printf(Locale.ROOT, "%s: %,9d events in the window, %,11d delivered by the readers, %8.1f ms, %6.2f M window events/s,"
                + " bytes touched %s%n", label, inWindow, delivered, ns / 1e6, inWindow / (ns / 1e9) / 1e6,
                BenchSupport.mib(touched));
    }

    private static void export(String label, TraceSource s, double from, double to) throws IOException {
        long t0 = System.nanoTime();
        PerfettoExport.Summary sum = PerfettoExport.write(s, new PerfettoExport.Window(from, to), List.of(),
                OutputStream.nullOutputStream());
        long ns = System.nanoTime() - t0;
        System.out.printf(Locale.ROOT, "%s: %8.1f ms, %,d slices, %,d messages drawn, pairing %s%n", label, ns / 1e6,
                sum.slices(), sum.messagesDrawn(), sum.messagesPairedFromWindowStart() ? "from the window's start"
                        : "from the trace's start");
    }

    /** Byte sizes of each location's record batches, from the Arrow footers (read once, not timed). */
    private static final class Footers {
        private final long[][] batchBytes;
        private final int batchSize;

        Footers(Path store, StoreManifest m) throws IOException {
            batchSize = m.batchSize();
            batchBytes = new long[m.locations().size()][];
            try (var alloc = new org.apache.arrow.memory.RootAllocator()) {
                for (StoreManifest.LocationFile f : m.locations()) {
                    try (var ch = java.nio.channels.FileChannel.open(store.resolve(f.file()));
                         var r = new org.apache.arrow.vector.ipc.ArrowFileReader(ch, alloc)) {
                        var blocks = r.getRecordBlocks();
                        long[] sizes = new long[blocks.size()];
                        for (int i = 0; i < sizes.length; i++) {
                            sizes[i] = blocks.get(i).getMetadataLength() + blocks.get(i).getBodyLength();
                        }
                        batchBytes[f.index()] = sizes;
                    }
                }
            }
        }

        /** Bytes of {@code count} batches from the one holding event {@code firstIndex}. */
        long bytes(int location, long firstIndex, int count) {
            long[] sizes = batchBytes[location];
            int b = firstIndex < 0 ? sizes.length : (int) (firstIndex / batchSize);
            long sum = 0;
            for (int i = b; i < Math.min(sizes.length, b + count); i++) {
                sum += sizes[i];
            }
            return sum;
        }
    }

    /** The same store without its seek ability: every location is read from its start. */
    private record NoIndex(StoreReader s) implements TraceSource {
        @Override
        public TraceDefinitions definitions() {
            return s.definitions();
        }

        @Override
        public String origin() {
            return s.origin();
        }

        @Override
        public LocationReader openLocation(int location) throws IOException {
            return s.openLocation(location);
        }

        @Override
        public void close() {
        }
    }
}
