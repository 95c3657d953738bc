package dev.straggler.patterns.timeline;

import com.fasterxml.jackson.databind.JsonNode;
import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.AnalysisOptions;
import dev.straggler.patterns.AnalysisResult;
import dev.straggler.patterns.DelayCause;
import dev.straggler.patterns.Instance;
import dev.straggler.patterns.scalasca.RealTraces;
import dev.straggler.trace.Clock;
import dev.straggler.trace.TraceSource;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The window of every most severe instance of every shared trace (MPI, HPCG, hybrid), as the report and
 * {@code timeline --instance} draw it: valid trace-event JSON by the format's rules ({@link TraceEventJson}: field
 * names, µs, matching begin/end, flows and collective steps bound to slices), the wait marked on the location that
 * waited over the instance's own interval, and the delay, where the analysis found one, on the delaying location
 * over its stretch (clipped to the window's start when it reaches further back).
 */
class InstanceWindowSharedTracesTest {
    @TestFactory
    Stream<DynamicTest> everyInstanceWindowOfEverySharedTraceIsWellFormedWithItsMarks() throws IOException {
        Optional<Path> root = RealTraces.tracesDir();
        Assumptions.assumeTrue(root.isPresent(), "shared traces not found (system property straggler.shared)");
        List<Path> dirs = new ArrayList<>(RealTraces.mpiParityFolders("traces.otf2"));
        Path hybrid = root.get().resolve("hybrid");
        if (Files.isDirectory(hybrid)) {
            try (Stream<Path> s = Files.list(hybrid)) {
                s.filter(p -> Files.exists(p.resolve("traces.otf2"))).sorted().forEach(dirs::add);
            }
        }
        return dirs.stream().map(d -> DynamicTest.dynamicTest(d.getParent().getFileName() + "/" + d.getFileName(),
                () -> check(d.resolve("traces.otf2"))));
    }

    private static void check(Path anchor) throws IOException {
        Optional<TraceSource> opened = RealTraces.openOtf2(anchor);
        Assumptions.assumeTrue(opened.isPresent(), "OTF2 reader not in the build");
        try (TraceSource src = opened.get()) {
            AnalysisResult r = Analysis.run(src, AnalysisOptions.defaults().withThreads(2).withRootCauses(true));
            Clock c = src.definitions().clock();
            double origin = (PerfettoExport.firstEventTick(src) - c.globalOffset()) / (double) c.ticksPerSecond();
            assertTrue(!r.mostSevere().isEmpty(), "no instance in " + anchor);
            for (Instance i : r.mostSevere()) {
                DelayCause why = r.causeOf(i);
                InstanceWindow w = InstanceWindow.of(src.definitions(), r.cube(), origin, i, why);
                List<Integer> shown = w.concerned(src.definitions());
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                PerfettoExport.Summary s = PerfettoExport.write(src, w.window(), shown, w.marksOn(shown), out);
                TraceEventJson json = new TraceEventJson(out.toByteArray());
                assertEquals(why == null ? 1 : 2, s.marksDrawn(), i.toString());
                List<JsonNode> marks = json.events.stream().filter(e -> "X".equals(e.path("ph").asText())).toList();
                JsonNode wait = marks.stream().filter(e -> "wait state".equals(e.path("cat").asText())).findFirst()
                        .orElseThrow();
                assertEquals(i.rank(), wait.get("pid").asInt(), i.toString());
                assertEquals((i.start() - origin) * 1e6, wait.get("ts").asDouble(), 1e-3, i.toString());
                assertEquals(i.duration() * 1e6, wait.get("dur").asDouble(), 1e-3, i.toString());
                if (why != null) {
                    JsonNode delay = marks.stream().filter(e -> "delay".equals(e.path("cat").asText())).findFirst()
                            .orElseThrow();
                    assertEquals(why.rank(), delay.get("pid").asInt(), i.toString());
                    double from = Math.max(why.from(), origin + w.window().from());
                    assertEquals((from - origin) * 1e6, delay.get("ts").asDouble(), 1e-3, i.toString());
                    assertEquals((why.to() - from) * 1e6, delay.get("dur").asDouble(), 1e-3, i.toString());
                    assertEquals(why.delay(), delay.get("args").get("delay_s").asDouble(), 1e-15, i.toString());
                }
            }
        }
    }
}
