package dev.straggler.patterns.timeline;

import dev.straggler.patterns.timeline.PerfettoExport.Summary;
import dev.straggler.patterns.timeline.PerfettoExport.Window;
import dev.straggler.trace.TraceSource;
import dev.straggler.trace.Traces;
import dev.straggler.trace.store.StoreOptions;
import dev.straggler.trace.store.StoreReader;
import dev.straggler.trace.store.StoreWriter;
import dev.straggler.trace.text.TextTraceReader;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The export of a store with a batch index seeks each location to the window's start; the reference is the same
 * trace read from its start (a source that cannot seek), whose regions and message order are known exactly. Both
 * must draw the same slices (with the same clipping) and the same message flows.
 */
class PerfettoExportSeekTest {
    @TempDir
    Path tmp;

    private record Result(Summary summary, TraceEventJson json) {
        List<String> slices() {
            return json.slices.stream().map(TraceEventJson.Slice::show).sorted().toList();
        }

        /** Each flow as "send pid/tid@ts -> receive pid/tid@ts". */
        List<String> flows() {
            List<String> out = new ArrayList<>();
            json.flows.values().forEach(ends -> {
                var s = ends.stream().filter(e -> e.ph().equals("s")).findFirst().orElseThrow();
                var f = ends.stream().filter(e -> e.ph().equals("f")).findFirst().orElseThrow();
                out.add(s.pid() + "/" + s.tid() + "@" + s.ts() + " -> " + f.pid() + "/" + f.tid() + "@" + f.ts());
            });
            out.sort(null);
            return out;
        }
    }

    private static Result export(TraceSource t, Window w) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Summary s = PerfettoExport.write(t, w, List.of(), out);
        return new Result(s, new TraceEventJson(out.toByteArray()));
    }

    private Path store(TraceSource t, String name, int batchSize) throws IOException {
        Path dir = tmp.resolve(name);
        try (StoreWriter w = StoreWriter.create(dir, StoreOptions.defaults().withBatchSize(batchSize))) {
            for (int l = 0; l < t.definitions().locations().size(); l++) {
                w.append(l, t.readLocation(l));
            }
            w.finish(t.definitions());
        }
        return dir;
    }

    private static void assertSameDrawing(Result fromStart, Result seek, Window w) {
        String at = "window [" + w.from() + ", " + w.to() + "] s";
        assertFalse(fromStart.summary().messagesPairedFromWindowStart(), at);
        assertTrue(seek.summary().messagesPairedFromWindowStart(), at);
        assertEquals(fromStart.slices(), seek.slices(), at + ": slices");
        assertEquals(fromStart.summary().slicesClippedAtStart(), seek.summary().slicesClippedAtStart(), at);
        assertEquals(fromStart.summary().slicesClippedAtEnd(), seek.summary().slicesClippedAtEnd(), at);
        assertEquals(fromStart.summary().slicesUnclosed(), seek.summary().slicesUnclosed(), at);
        List<String> missing = new ArrayList<>(fromStart.flows());
        missing.removeAll(seek.flows());
        List<String> extra = new ArrayList<>(seek.flows());
        extra.removeAll(fromStart.flows());
        assertTrue(missing.isEmpty() && extra.isEmpty(), at + ": message flows differ; only when read from the start: "
                + missing.subList(0, Math.min(5, missing.size())) + "; only when seeking: "
                + extra.subList(0, Math.min(5, extra.size())));
        assertEquals(fromStart.summary().messagesDrawn(), seek.summary().messagesDrawn(), at);
        assertEquals(fromStart.summary().messagesOtherEndOutsideWindow(),
                seek.summary().messagesOtherEndOutsideWindow(), at);
    }

    /**
     * Three ranks in a ring, 1 tick = 1 µs: each iteration of 100 ticks computes in a nested kernel, then sends to
     * the right (at +61) and receives from the left (at +70), so one message per envelope is in flight from +61 to
     * +70; main stays open throughout.
     */
    private static String ring(int iterations) {
        StringBuilder b = new StringBuilder("""
                straggler-text 1
                clock resolution=1000000 offset=0 length=%d
                region 0 main paradigm=USER role=FUNCTION
                region 1 work paradigm=USER role=FUNCTION
                region 2 kernel paradigm=USER role=FUNCTION
                region 3 MPI_Send paradigm=MPI role=POINT2POINT file=MPI
                region 4 MPI_Recv paradigm=MPI role=POINT2POINT file=MPI
                location 0 rank=0 thread=0
                location 1 rank=1 thread=0
                location 2 rank=2 thread=0
                comm 0 MPI_COMM_WORLD members=0,1,2
                """.formatted(100L * iterations + 10));
        for (int r = 0; r < 3; r++) {
            b.append(r).append(" 0 ENTER main\n");
            for (int i = 0; i < iterations; i++) {
                long t = 100L * i;
                b.append(r).append(' ').append(t + 1).append(" ENTER work\n");
                b.append(r).append(' ').append(t + 10).append(" ENTER kernel\n");
                b.append(r).append(' ').append(t + 50).append(" LEAVE kernel\n");
                b.append(r).append(' ').append(t + 55).append(" LEAVE work\n");
                b.append(r).append(' ').append(t + 60).append(" ENTER MPI_Send\n");
                b.append(r).append(' ').append(t + 61).append(" MPI_SEND to=").append((r + 1) % 3)
                        .append(" comm=0 tag=7 bytes=64\n");
                b.append(r).append(' ').append(t + 62).append(" LEAVE MPI_Send\n");
                b.append(r).append(' ').append(t + 63).append(" ENTER MPI_Recv\n");
                b.append(r).append(' ').append(t + 70).append(" MPI_RECV from=").append((r + 2) % 3)
                        .append(" comm=0 tag=7 bytes=64\n");
                b.append(r).append(' ').append(t + 71).append(" LEAVE MPI_Recv\n");
            }
            b.append(r).append(' ').append(100L * iterations + 5).append(" LEAVE main\n");
        }
        return b.toString();
    }

    @Test
    void ringWindowsStartingInsideRegionsAndWithMessagesInFlightDrawAsFromTheStart() throws Exception {
        try (TraceSource text = TextTraceReader.read(new StringReader(ring(60)), "ring")) {
            try (StoreReader s = StoreReader.open(store(text, "ring", 16))) {
                assertTrue(s.seeksWithoutScanning());
                // starts: inside kernel (+20), with the message in flight (+65), at a LEAVE (+50), between (+95)
                for (double from : new double[]{0, 1220e-6, 1665e-6, 2050e-6, 2095e-6, 3465e-6}) {
                    for (double len : new double[]{30e-6, 250e-6, 1e-3}) {
                        Window w = new Window(from, from + len);
                        assertSameDrawing(export(text, w), export(s, w), w);
                    }
                }
            }
        }
    }

    @Test
    void messageInFlightAtTheWindowStartIsNotPairedWithALaterSend() throws Exception {
        try (TraceSource text = TextTraceReader.read(new StringReader(ring(10)), "ring")) {
            try (StoreReader s = StoreReader.open(store(text, "ring10", 4))) {
                // from +65 of iteration 3 to +75 of iteration 4: each rank's first receive in the window belongs
                // to a send before it; the sends at +61 of iteration 4 pair with the receives at +70
                Window w = new Window(365e-6, 475e-6);
                Result r = export(s, w);
                assertEquals(3, r.summary().messagesDrawn());
                assertEquals(3, r.summary().messagesOtherEndOutsideWindow());
                assertTrue(r.flows().stream().allMatch(f -> f.contains("@461.0 -> ") && f.endsWith("@470.0")), r.flows()::toString);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"real/npb-mg.S-4", "real/lulesh-s8-8"})
    void sharedTraceWindowsDrawAsFromTheStart(String trace) throws Exception {
        String shared = System.getProperty("straggler.shared");
        Assumptions.assumeTrue(shared != null, "system property straggler.shared is not set");
        Path src = Path.of(shared, "traces").resolve(trace);
        Assumptions.assumeTrue(Files.isDirectory(src), "shared trace folder " + src + " is absent");
        try (TraceSource otf2 = Traces.open(src)) {
            try (StoreReader s = StoreReader.open(store(otf2, "real", 500))) {
                Result whole = export(otf2, Window.all());
                double end = whole.summary().to();
                SplittableRandom rnd = new SplittableRandom(42);
                for (int k = 0; k < 5; k++) {
                    double from = rnd.nextDouble() * end;
                    Window w = new Window(from, Math.min(end, from + rnd.nextDouble() * end / 10));
                    assertSameDrawing(export(otf2, w), export(s, w), w);
                }
            }
        }
    }
}
