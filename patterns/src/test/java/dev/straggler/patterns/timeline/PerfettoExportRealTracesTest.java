package dev.straggler.patterns.timeline;

import dev.straggler.patterns.scalasca.RealTraces;
import dev.straggler.patterns.timeline.PerfettoExport.Summary;
import dev.straggler.patterns.timeline.PerfettoExport.Window;
import dev.straggler.trace.TraceSource;
import dev.straggler.trace.Traces;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The format's rules on the output of real Score-P traces, read back with Jackson ({@link TraceEventJson}), and
 * the number of slices against Debian's {@code otf2-print}: every ENTER record inside the window is one slice
 * (the slices clipped at the window's start are the regions entered before it).
 */
class PerfettoExportRealTracesTest {

    private record Written(Summary summary, TraceEventJson json) {
    }

    /** One event record as otf2-print lists it: kind, location, raw timestamp. */
    private record Printed(String kind, long location, long time) {
    }

    private static Path trace(String relative) {
        Path dir = RealTraces.tracesDir().map(d -> d.resolve(relative)).orElse(null);
        Assumptions.assumeTrue(dir != null && Files.exists(dir.resolve("traces.otf2")), relative + " not present");
        return dir.resolve("traces.otf2");
    }

    private static Written export(Path anchor, Window w) throws IOException {
        try (TraceSource t = Traces.open(anchor, false)) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            Summary s = PerfettoExport.write(t, w, List.of(), out);
            return new Written(s, new TraceEventJson(out.toByteArray()));
        }
    }

    /** otf2-print's lines for an archive; the test is skipped when otf2-print is not installed. */
    private static List<String> otf2PrintLines(Path anchor) throws IOException, InterruptedException {
        Process p;
        try {
            p = new ProcessBuilder("otf2-print", anchor.toString()).redirectErrorStream(false).start();
        } catch (IOException e) {
            Assumptions.abort("otf2-print is not installed");
            return List.of();
        }
        List<String> out = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                out.add(line);
            }
        }
        assertEquals(0, p.waitFor(), "otf2-print failed");
        return out;
    }

    /** Every event record otf2-print lists. */
    private static List<Printed> otf2Print(Path anchor) throws IOException, InterruptedException {
        List<Printed> out = new ArrayList<>();
        for (String line : otf2PrintLines(anchor)) {
            String[] f = line.trim().split("\\s+");
            if (f.length >= 3 && f[1].matches("\\d+") && f[2].matches("\\d+")) {
                out.add(new Printed(f[0], Long.parseLong(f[1]), Long.parseLong(f[2])));
            }
        }
        return out;
    }

    private static long ticksPerSecond(Path anchor) throws IOException {
        try (TraceSource t = Traces.open(anchor, false)) {
            return t.definitions().clock().ticksPerSecond();
        }
    }

    @Test
    void pingPongWholeTraceHasOneSlicePerEnterAndOneFlowPerMessage() throws Exception {
        Path anchor = trace("pipit-ping-pong");
        List<Printed> printed = otf2Print(anchor);
        Written w = export(anchor, Window.all());
        long enters = printed.stream().filter(e -> e.kind().equals("ENTER")).count();
        long sends = printed.stream().filter(e -> e.kind().equals("MPI_SEND")).count();
        long receives = printed.stream().filter(e -> e.kind().equals("MPI_RECV")).count();
        assertEquals(enters, w.json().slices.size());
        assertEquals(0, w.summary().slicesClippedAtStart() + w.summary().slicesClippedAtEnd());
        // every message of a ping-pong is received: one flow per send and per receive
        assertEquals(sends, receives);
        assertEquals(sends, w.json().flows.size());
        assertEquals(sends, w.summary().messagesDrawn());
        assertEquals(w.json().events.size(), w.summary().traceEvents());
    }

    @Test
    void pingPongMiddleWindowHasOneUnclippedSlicePerEnterInside() throws Exception {
        Path anchor = trace("pipit-ping-pong");
        List<Printed> printed = otf2Print(anchor);
        long tps = ticksPerSecond(anchor);
        long origin = printed.stream().mapToLong(Printed::time).min().orElseThrow();
        long last = printed.stream().mapToLong(Printed::time).max().orElseThrow();
        // this trace has no clock offsets: otf2-print's raw ticks are the reader's
        double span = (last - origin) / (double) tps;
        double from = 0.97 * span;
        double to = 0.995 * span;
        long fromTick = origin + Math.round(from * tps);
        long toTick = origin + Math.round(to * tps);
        long inside = printed.stream().filter(e -> e.kind().equals("ENTER") && e.time() >= fromTick && e.time() <= toTick)
                .count();
        Written w = export(anchor, new Window(from, to));
        assertTrue(inside > 0, "the window holds no ENTER");
        assertEquals(inside, w.json().slices.size() - w.summary().slicesClippedAtStart());
        assertTrue(w.summary().slicesClippedAtStart() > 0, "main is open at the window's start");
        assertTrue(w.json().slices.stream().allMatch(s -> s.ts() >= from * 1e6 - 1e-3 && s.ts() + s.dur() <= to * 1e6 + 1e-3),
                "a slice leaves the window");
    }

    @Test
    void npbMgMiddleWindowFollowsTheFormatAndHasOneUnclippedSlicePerEnterInside() throws Exception {
        Path anchor = trace("real/npb-mg.S-4");
        List<Printed> printed = otf2Print(anchor);
        long tps = ticksPerSecond(anchor);
        long origin = printed.stream().mapToLong(Printed::time).min().orElseThrow();
        long[] edges = gapWindow(printed, tps);
        long fromTick = edges[0];
        long toTick = edges[1];
        double from = (fromTick - origin) / (double) tps;
        double to = (toTick - origin) / (double) tps;
        long inside = printed.stream().filter(e -> e.kind().equals("ENTER") && e.time() >= fromTick && e.time() <= toTick)
                .count();
        Written w = export(anchor, new Window(from, to));
        assertTrue(inside > 1000, "window too small: " + inside + " ENTER records");
        assertEquals(inside, w.json().slices.size() - w.summary().slicesClippedAtStart());
        assertTrue(w.summary().slicesClippedAtStart() > 0 && w.summary().slicesClippedAtEnd() > 0,
                "main is open at both edges");
        assertTrue(w.summary().messagesDrawn() > 0);
        assertEquals(w.summary().messagesDrawn(), w.json().flows.size());
        assertEquals(4, w.json().events.stream().filter(e -> e.path("name").asText().equals("process_name")).count());
        assertEquals(Arrays.asList(0L, 1L, 2L, 3L), w.json().events.stream()
                .filter(e -> e.path("name").asText().equals("process_name")).map(e -> e.get("pid").asLong()).toList());
    }

    /** An MPI_COLLECTIVE_END record as otf2-print lists it, with its communicator's id. */
    private record CollectiveEnd(long location, long time, int comm) {
    }

    private static List<CollectiveEnd> collectiveEnds(Path anchor) throws IOException, InterruptedException {
        java.util.regex.Pattern comm = java.util.regex.Pattern.compile("Communicator: .*?<(\\d+)>");
        List<CollectiveEnd> out = new ArrayList<>();
        for (String line : otf2PrintLines(anchor)) {
            if (line.startsWith("MPI_COLLECTIVE_END")) {
                String[] f = line.trim().split("\\s+");
                java.util.regex.Matcher m = comm.matcher(line);
                assertTrue(m.find(), line);
                out.add(new CollectiveEnd(Long.parseLong(f[1]), Long.parseLong(f[2]), Integer.parseInt(m.group(1))));
            }
        }
        return out;
    }

    /**
     * Each collective operation with two or more members' records in the window is one flow through them: the
     * members' k-th MPI_COLLECTIVE_END of a communicator, numbered from the trace's start in otf2-print's listing
     * (one location per rank in this trace), grouped by communicator and k, are the flows' steps.
     */
    @Test
    void npbMgWindowLinksTheMembersOfEachCollectiveOperationAsOtf2PrintNumbersThem() throws Exception {
        Path anchor = trace("real/npb-mg.S-4");
        List<Printed> printed = otf2Print(anchor);
        long tps = ticksPerSecond(anchor);
        long origin = printed.stream().mapToLong(Printed::time).min().orElseThrow();
        long[] edges = gapWindow(printed, tps);
        long fromTick = edges[0];
        long toTick = edges[1];
        java.util.Map<String, java.util.TreeSet<Long>> expected = new java.util.TreeMap<>();
        java.util.Map<String, Integer> ordinal = new java.util.HashMap<>();
        for (CollectiveEnd c : collectiveEnds(anchor)) {
            int k = ordinal.merge(c.location() + ":" + c.comm(), 1, Integer::sum) - 1;
            if (c.time() >= fromTick && c.time() <= toTick) {
                expected.computeIfAbsent(c.comm() + ":" + k, x -> new java.util.TreeSet<>()).add(c.location());
            }
        }
        expected.values().removeIf(members -> members.size() < 2);
        Written w = export(anchor, new Window((fromTick - origin) / (double) tps, (toTick - origin) / (double) tps));
        assertTrue(expected.size() > 5, "window holds too few collective operations: " + expected.size());
        assertEquals(expected.size(), w.summary().collectivesDrawn());
        assertEquals(0, w.summary().collectivesNotDrawn());
        List<java.util.TreeSet<Long>> drawn = new ArrayList<>();
        for (List<TraceEventJson.FlowEnd> steps : w.json().collectives.values()) {
            java.util.TreeSet<Long> members = new java.util.TreeSet<>();
            steps.forEach(st -> members.add((long) st.pid()));
            assertEquals(steps.size(), members.size(), "a member twice in " + steps);
            drawn.add(members);
        }
        List<java.util.TreeSet<Long>> want = new ArrayList<>(expected.values());
        java.util.Comparator<java.util.TreeSet<Long>> bySet = java.util.Comparator.comparing(Object::toString);
        drawn.sort(bySet);
        want.sort(bySet);
        assertEquals(want, drawn);
    }

    /**
     * A window in the second half of the run whose edges lie in the middle of gaps of at least 100 µs without any
     * record: Score-P measured clock offsets of up to ~12 µs that the reader applies and otf2-print does not, and
     * no record may cross an edge between the two. {fromTick, toTick} in otf2-print's raw ticks.
     */
    private static long[] gapWindow(List<Printed> printed, long tps) {
        long[] times = printed.stream().mapToLong(Printed::time).sorted().toArray();
        long origin = times[0];
        long last = times[times.length - 1];
        long minGap = tps / 10_000;
        List<Long> edges = new ArrayList<>();
        for (int i = 1; i < times.length; i++) {
            if (times[i] - times[i - 1] >= minGap && times[i - 1] > origin + (last - origin) / 2 && times[i] < last) {
                edges.add(times[i - 1] + (times[i] - times[i - 1]) / 2);
            }
        }
        Assumptions.assumeTrue(edges.size() >= 2, "no two gaps of 100 µs to put the window's edges in");
        return new long[]{edges.get(0), edges.get(edges.size() - 1)};
    }
}
