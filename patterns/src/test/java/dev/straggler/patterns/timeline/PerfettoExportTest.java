package dev.straggler.patterns.timeline;

import dev.straggler.patterns.timeline.PerfettoExport.Mark;
import dev.straggler.patterns.timeline.PerfettoExport.Summary;
import dev.straggler.patterns.timeline.PerfettoExport.Window;
import dev.straggler.trace.TraceSource;
import dev.straggler.trace.text.TextTraceReader;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringReader;
import java.util.Collection;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A two-rank program written by hand, clock 1 tick = 1 ms, so that tick t is t * 1000 µs in the output (the first
 * event is rank 1's Enter of main at tick 0). Rank 0 computes until 20 and sends three messages (tag 1) at 21, 31
 * and 81; rank 1 receives them at 25, 35 and 85. Expected slices are worked out from the lines below.
 */
class PerfettoExportTest {
    private static final String TRACE = """
            straggler-text 1
            clock resolution=1000 offset=0 length=100
            region 0 main paradigm=USER role=FUNCTION
            region 1 work paradigm=USER role=FUNCTION
            region 2 MPI_Send paradigm=MPI role=POINT2POINT file=MPI
            region 3 MPI_Recv paradigm=MPI role=POINT2POINT file=MPI
            location 0 rank=0 thread=0
            location 1 rank=1 thread=0
            comm 0 MPI_COMM_WORLD members=0,1
            0 2 ENTER main
            0 2 ENTER work
            0 20 LEAVE work
            0 20 ENTER MPI_Send
            0 21 MPI_SEND to=1 comm=0 tag=1 bytes=8
            0 22 LEAVE MPI_Send
            0 30 ENTER MPI_Send
            0 31 MPI_SEND to=1 comm=0 tag=1 bytes=16
            0 32 LEAVE MPI_Send
            0 80 ENTER MPI_Send
            0 81 MPI_SEND to=1 comm=0 tag=1 bytes=32
            0 82 LEAVE MPI_Send
            0 100 LEAVE main
            1 0 ENTER main
            1 5 ENTER MPI_Recv
            1 25 MPI_RECV from=0 comm=0 tag=1 bytes=8
            1 26 LEAVE MPI_Recv
            1 27 ENTER MPI_Recv
            1 35 MPI_RECV from=0 comm=0 tag=1 bytes=16
            1 36 LEAVE MPI_Recv
            1 40 ENTER work
            1 60 LEAVE work
            1 70 ENTER MPI_Recv
            1 85 MPI_RECV from=0 comm=0 tag=1 bytes=32
            1 86 LEAVE MPI_Recv
            1 95 LEAVE main
            """;

    private record Result(Summary summary, TraceEventJson json) {
    }

    private static Result export(Window w, Collection<Integer> locations, List<Mark> marks) throws IOException {
        try (TraceSource t = TextTraceReader.read(new StringReader(TRACE), "pingpong")) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            Summary s = PerfettoExport.write(t, w, locations, marks, out);
            return new Result(s, new TraceEventJson(out.toByteArray()));
        }
    }

    private static Result export(double from, double to) throws IOException {
        return export(new Window(from, to), null, List.of());
    }

    @Test
    void wholeTraceGivesEveryRegionAsANestedSliceInMicrosecondsSinceTheFirstEvent() throws IOException {
        Result r = export(0, 0.1);
        assertEquals(List.of(
                "0/0 main 2000+98000 d0",
                "0/0 work 2000+18000 d1",
                "0/0 MPI_Send 20000+2000 d1",
                "0/0 MPI_Send 30000+2000 d1",
                "0/0 MPI_Send 80000+2000 d1",
                "1/0 main 0+95000 d0",
                "1/0 MPI_Recv 5000+21000 d1",
                "1/0 MPI_Recv 27000+9000 d1",
                "1/0 work 40000+20000 d1",
                "1/0 MPI_Recv 70000+16000 d1"), r.json().shownSlices());
        assertEquals(10, r.summary().slices());
        assertEquals("MPI", r.json().slices.stream().filter(s -> s.name().equals("MPI_Send")).findFirst().orElseThrow().cat());
        assertEquals("user", r.json().slices.get(0).cat());
    }

    @Test
    void processesAreRanksAndThreadsAreNamedAfterTheirLocations() throws IOException {
        TraceEventJson j = export(0, 0.1).json();
        assertEquals("rank 0", j.metadata("process_name", 0, 0));
        assertEquals("rank 1", j.metadata("process_name", 1, 0));
        assertEquals("1", j.metadata("process_sort_index", 1, 0));
        assertEquals("Master thread", j.metadata("thread_name", 1, 0));
        assertEquals("ms", j.root.get("displayTimeUnit").asText());
    }

    @Test
    void regionsOpenAtTheWindowsEdgesAreClippedToItAndMarked() throws IOException {
        Result r = export(0.010, 0.050);
        assertEquals(List.of(
                "0/0 main 10000+40000 d0 clipped",
                "0/0 work 10000+10000 d1 clipped",
                "0/0 MPI_Send 20000+2000 d1",
                "0/0 MPI_Send 30000+2000 d1",
                "1/0 main 10000+40000 d0 clipped",
                "1/0 MPI_Recv 10000+16000 d1 clipped",
                "1/0 MPI_Recv 27000+9000 d1",
                "1/0 work 40000+10000 d1 clipped"), r.json().shownSlices());
        assertEquals(4, r.summary().slicesClippedAtStart());
        assertEquals(3, r.summary().slicesClippedAtEnd());
    }

    @Test
    void aRegionLeftExactlyAtTheWindowsStartIsNotDrawn() throws IOException {
        // rank 0's work ends at tick 20: nothing of it lies inside [20, 50]
        List<String> shown = export(0.020, 0.050).json().shownSlices();
        assertTrue(shown.stream().noneMatch(s -> s.startsWith("0/0 work")), shown.toString());
        assertTrue(shown.contains("0/0 MPI_Send 20000+2000 d1"), shown.toString());
    }

    @Test
    void eachSendIsJoinedToItsReceiveByOneFlow() throws IOException {
        Result r = export(0, 0.1);
        assertEquals(3, r.summary().messagesDrawn());
        assertEquals(3, r.json().flows.size());
        List<String> pairs = r.json().flows.values().stream()
                .map(ends -> ends.get(0).pid() + "/" + ends.get(0).tid() + "@" + (long) ends.get(0).ts() + " -> "
                        + ends.get(1).pid() + "/" + ends.get(1).tid() + "@" + (long) ends.get(1).ts()
                        + " " + ends.get(0).args().get("bytes").asLong() + " B")
                .sorted().toList();
        assertEquals(List.of("0/0@21000 -> 1/0@25000 8 B", "0/0@31000 -> 1/0@35000 16 B", "0/0@81000 -> 1/0@85000 32 B"),
                pairs);
    }

    @Test
    void messagesArePairedInOrderCountedFromTheTraceStartNotFromTheWindow() throws IOException {
        // window [23, 50]: the first message was sent at 21, before it; the receive at 25 is its other end, and the
        // receive at 35 belongs to the send at 31 (second message of the envelope on both sides)
        Result r = export(0.023, 0.050);
        assertEquals(1, r.summary().messagesDrawn());
        List<TraceEventJson.FlowEnd> ends = r.json().flows.values().iterator().next();
        assertEquals(31000, ends.get(0).ts());
        assertEquals(35000, ends.get(1).ts());
        assertEquals(1, r.summary().messagesOtherEndOutsideWindow());
        assertEquals(1, r.json().otherData().get("messages_other_end_outside_window").asLong());
    }

    @Test
    void aMessageWhoseReceiveIsAfterTheWindowIsCountedNotDrawn() throws IOException {
        Result r = export(0, 0.083);
        assertEquals(2, r.summary().messagesDrawn());
        assertEquals(2, r.json().flows.size());
        assertEquals(1, r.summary().messagesOtherEndOutsideWindow());
        assertEquals(0, r.summary().messagesOtherEndOutsideLocations());
    }

    @Test
    void aMessageToALocationNotChosenIsCountedNotDrawn() throws IOException {
        Result r = export(new Window(0, 0.1), List.of(0), List.of());
        assertEquals(0, r.json().flows.size());
        assertEquals(3, r.summary().messagesOtherEndOutsideLocations());
        assertEquals(0, r.summary().messagesOtherEndOutsideWindow());
        assertTrue(r.json().shownSlices().stream().allMatch(s -> s.startsWith("0/0 ")));
    }

    @Test
    void theNumberOfEventsWrittenIsStated() throws IOException {
        Result r = export(0, 0.1);
        assertEquals(r.json().events.size(), r.summary().traceEvents());
        assertEquals(r.json().events.size(), r.json().otherData().get("trace_events").asLong());
    }

    @Test
    void marksBecomeSlicesOnAnExtraTrackAndOverlappingOnesTakeASecondLane() throws IOException {
        List<Mark> marks = List.of(
                new Mark(1, 0.005, 0.025, "Late Sender", "wait state", Map.of("severity_s", 0.016)),
                new Mark(1, 0.020, 0.030, "overlapping", "delay", Map.of()),
                new Mark(1, 0.010, 0.012, "nested", "delay", Map.of()),
                new Mark(0, 0.090, 0.095, "after the window", "delay", Map.of()));
        Result r = export(new Window(0.008, 0.050), null, marks);
        List<String> onMarkTracks = r.json().shownSlices().stream()
                .filter(s -> s.contains("/" + PerfettoExport.MARK_TID_BASE) || s.contains("/" + 2 * PerfettoExport.MARK_TID_BASE))
                .toList();
        assertEquals(List.of(
                "1/1000000 Late Sender 8000+17000 d0 clipped",
                "1/1000000 nested 10000+2000 d0",
                "1/2000000 overlapping 20000+10000 d0"), onMarkTracks);
        assertEquals(3, r.summary().marksDrawn());
        assertEquals(1, r.summary().marksNotDrawn());
        assertEquals(0.016, r.json().slices.stream().filter(s -> s.name().equals("Late Sender")).findFirst()
                .orElseThrow().args().get("severity_s").asDouble());
    }

    @Test
    void aWindowWhoseStartIsAfterItsEndIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new Window(0.05, 0.01));
        assertTrue(e.getMessage().contains("after its end"), e.getMessage());
    }

    @Test
    void aWindowStartingAfterTheTracesEndIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> export(0.2, 0.3));
        assertTrue(e.getMessage().contains("after the trace's end at 0.1 s"), e.getMessage());
    }

    @Test
    void aWindowEndingAfterTheTracesEndStopsThere() throws IOException {
        Result r = export(0.05, 10);
        assertEquals(0.1, r.summary().to());
        assertTrue(r.json().shownSlices().contains("0/0 main 50000+50000 d0 clipped"), r.json().shownSlices().toString());
    }
}
