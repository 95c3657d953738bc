package dev.straggler.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code straggler timeline} on the bundled sample (1 tick = 1 µs): rank 1 waits in MPI_Recv from 2,000 µs until the
 * message sent at 7,010 µs arrives at 7,200 µs, a Late Sender of 5 ms (the send was entered at 7,000 µs). Its window
 * is the waiting call with as much again on both sides, so the whole 12 ms run; each rank has 7 regions.
 */
class TimelineCommandTest {
    @TempDir
    Path tmp;

    private static List<JsonNode> events(Path json) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        new ObjectMapper().readTree(json.toFile()).get("traceEvents").forEach(out::add);
        return out;
    }

    @Test
    void theMostSevereLateSenderIsMarkedOnTheRankThatWaitedWithItsMessageDrawn() throws Exception {
        Path json = tmp.resolve("ls.json");
        CliTest.Run r = CliTest.run("timeline", CliTest.SAMPLE.toString(), "--instance", "mpi_latesender:1",
                "--perfetto", json.toString(), "-q");
        assertEquals(0, r.code(), r.err());
        String out = r.out().replaceAll("\\s+", " ");
        assertTrue(out.contains("Late Sender instance 1 (0.005000 s lost on rank 1)"), out);
        assertTrue(out.contains("14 region slices"), out);
        assertTrue(out.contains("1 messages drawn"), out);
        assertTrue(out.contains("2 mark(s) drawn"), out);
        List<JsonNode> ev = events(json);
        JsonNode mark = ev.stream().filter(e -> "X".equals(e.path("ph").asText())
                && "wait state".equals(e.path("cat").asText())).findFirst().orElseThrow();
        assertEquals("Late Sender", mark.get("name").asText());
        assertEquals(1, mark.get("pid").asInt());
        assertEquals(2000, mark.get("ts").asDouble(), 1e-6);
        assertEquals(5200, mark.get("dur").asDouble(), 1e-6);
        JsonNode start = ev.stream().filter(e -> "s".equals(e.path("ph").asText())).findFirst().orElseThrow();
        JsonNode end = ev.stream().filter(e -> "f".equals(e.path("ph").asText())).findFirst().orElseThrow();
        assertEquals(0, start.get("pid").asInt());
        assertEquals(7010, start.get("ts").asDouble(), 1e-6);
        assertEquals(1, end.get("pid").asInt());
        assertEquals(7200, end.get("ts").asDouble(), 1e-6);
        assertEquals(start.get("id").asText(), end.get("id").asText());
    }

    /**
     * Rank 0 computed 6,000 µs since both left MPI_Init at 1,000 µs, rank 1 1,000 µs: the 5 ms wait is delay in
     * rank 0's {@code compute}, over rank 0's stretch from MPI_Init's end to its MPI_Send (1,000 to 7,000 µs).
     */
    @Test
    void theDelayThatCausedTheWaitingIsMarkedOnTheLateSendersStretch() throws Exception {
        Path json = tmp.resolve("ls.json");
        CliTest.Run r = CliTest.run("timeline", CliTest.SAMPLE.toString(), "--instance", "mpi_latesender:1",
                "--perfetto", json.toString(), "-q");
        assertEquals(0, r.code(), r.err());
        String out = r.out().replaceAll("\\s+", " ");
        assertTrue(out.contains("the delay that caused it is marked on location 0 (rank 0): 0.005000 s in "
                + "main/compute (0.005000 s)"), out);
        JsonNode delay = events(json).stream().filter(e -> "delay".equals(e.path("cat").asText())).findFirst()
                .orElseThrow();
        assertEquals("delay behind Late Sender", delay.get("name").asText());
        assertEquals(0, delay.get("pid").asInt());
        assertEquals(1000, delay.get("ts").asDouble(), 1e-6);
        assertEquals(6000, delay.get("dur").asDouble(), 1e-6);
        assertEquals(0.005, delay.get("args").get("delay_s").asDouble(), 1e-12);
        assertEquals(0.0, delay.get("args").get("propagated_s").asDouble(), 1e-12);
    }

    @Test
    void withoutRootCausesOnlyTheWaitStateIsMarked() throws Exception {
        Path json = tmp.resolve("ws.json");
        CliTest.Run r = CliTest.run("timeline", CliTest.SAMPLE.toString(), "--instance", "mpi_latesender:1",
                "--no-root-causes", "--perfetto", json.toString(), "-q");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("1 mark(s) drawn"), r.out());
        assertTrue(events(json).stream().noneMatch(e -> "delay".equals(e.path("cat").asText())));
    }

    @Test
    void theAnalysisNamesEachWaitStatesWorstInstanceAndTheTimelineCommandThatShowsIt() throws Exception {
        CliTest.Run a = CliTest.run("analyze", CliTest.SAMPLE.toString(), "-q");
        assertEquals(0, a.code(), a.err());
        String text = a.out().replaceAll("\\s+", " ");
        String hint = "`straggler timeline " + CliTest.SAMPLE + " --instance mpi_latesender:1 --html F` shows it";
        assertTrue(text.contains("worst instance: 0.005000 s lost on rank 1, in the call from 0.002000 to 0.007200 s"
                + " since the start of the measurement, partner rank 0; " + hint), text);
        // and why: rank 0's compute since both left MPI_Init (1,000 µs) exceeds rank 1's by the whole wait
        assertTrue(text.contains("why: between 0.001000 and 0.007000 s (since it last synchronised with the waiting "
                + "rank), rank 0 took longer than the waiting rank: 0.005000 s of the wait is delay in main/compute "
                + "(0.005000 s)"), text);
        // a collective's instance spans its operation: from the earliest MPI_COLLECTIVE_BEGIN of its members (rank
        // 1's, 7,501 µs) to the latest Leave (8,100 µs)
        assertTrue(text.contains("worst instance: 5.000e-04 s lost on rank 1, in the operation (all its members) from"
                + " 0.007501 to 0.008100 s"), text);
        // the command it names works as written
        Path html = tmp.resolve("F.html");
        CliTest.Run t = CliTest.run("timeline", CliTest.SAMPLE.toString(), "--instance", "mpi_latesender:1", "--html",
                html.toString(), "-q");
        assertEquals(0, t.code(), t.err());
        assertTrue(Files.size(html) > 0);
    }

    @Test
    void timesCountFromTheStartOfTheMeasurementWhileTheExportCountsFromTheFirstEvent() throws Exception {
        // the sample with every event 1 ms later: the Late Sender waits from 3 ms since the start of the measurement,
        // 2 ms after the first event
        StringBuilder shifted = new StringBuilder();
        for (String line : Files.readAllLines(CliTest.SAMPLE)) {
            String[] f = line.split(" ", 3);
            if (f.length == 3 && f[0].matches("\\d+") && f[1].matches("\\d+")) {
                line = f[0] + " " + (Long.parseLong(f[1]) + 1000) + " " + f[2];
            }
            shifted.append(line.replace("length=12000", "length=13000")).append('\n');
        }
        Path trace = tmp.resolve("shifted.txt");
        Files.writeString(trace, shifted);
        Path json = tmp.resolve("shifted.json");
        CliTest.Run r = CliTest.run("timeline", trace.toString(), "--instance", "mpi_latesender:1", "--perfetto",
                json.toString(), "-q");
        assertEquals(0, r.code(), r.err());
        // the waiting call 3.0-8.2 ms with 5.2 ms on both sides, from the first event at 1 ms to the end at 13 ms
        assertTrue(r.out().contains("[0.001000, 0.013000] s since the start of the measurement"), r.out());
        JsonNode mark = events(json).stream().filter(e -> "X".equals(e.path("ph").asText())
                && "wait state".equals(e.path("cat").asText())).findFirst().orElseThrow();
        assertEquals(2000, mark.get("ts").asDouble(), 1e-6);
        JsonNode recv = events(json).stream().filter(e -> "B".equals(e.path("ph").asText())
                && "MPI_Recv".equals(e.path("name").asText())).findFirst().orElseThrow();
        assertEquals(2000, recv.get("ts").asDouble(), 1e-6);
    }

    @Test
    void aWindowByTimeKeepsOnlyTheChosenLocationsAndSaysWhatItLeftOut() throws Exception {
        Path json = tmp.resolve("w.json");
        // 5-8 ms on rank 0 only: compute (cut at 5 ms), MPI_Send, compute, MPI_Barrier (cut at 8 ms) and main
        CliTest.Run r = CliTest.run("timeline", CliTest.SAMPLE.toString(), "--from", "0.005", "--to", "0.008",
                "--locations", "0", "--perfetto", json.toString(), "-q");
        assertEquals(0, r.code(), r.err());
        String out = r.out().replaceAll("\\s+", " ");
        assertTrue(out.contains("window [0.005000, 0.008000] s since the start of the measurement, 1 location(s)"), out);
        assertTrue(out.contains("0 messages drawn (1 more leave the window or the locations, not drawn)"), out);
        long begins = events(json).stream().filter(e -> "B".equals(e.path("ph").asText())).count();
        assertEquals(5, begins);
    }

    @Test
    void theOverviewGivesPipitsTimeProfileOfItsPingPongTrace() throws Exception {
        Path trace = Path.of(System.getProperty("straggler.shared", "../../shared"), "traces", "pipit-ping-pong",
                "traces.otf2");
        assumeTrue(Files.isRegularFile(trace), "shared traces not present: " + trace);
        CliTest.Run r = CliTest.run("timeline", trace.toString(), "--overview", "--bins", "62", "--top", "6", "-q");
        assertEquals(0, r.code(), r.err());
        String[] lines = r.out().split("\n");
        // bin 60 (line 62 after the heading): Pipit's values, checked by Pipit against Vampir (shared README)
        String bin60 = lines[61];
        assertTrue(bin60.contains("MPI_Send 24.6%") && bin60.contains("MPI_Recv 21.0%")
                && bin60.contains("MPI_Init 14.8%") && bin60.contains("int main(int, char**) 39.5%"), bin60);
        assertTrue(lines[2].contains("MPI_Init 100.0%") && !lines[2].contains("+"), lines[2]);
    }

    @Test
    void theWholeTraceIsWrittenOnlyUpToTheStatedLimit() throws Exception {
        Path json = tmp.resolve("all.json");
        CliTest.Run ok = CliTest.run("timeline", CliTest.SAMPLE.toString(), "--perfetto", json.toString(), "-q");
        assertEquals(0, ok.code(), ok.err());
        assertTrue(ok.out().contains("the whole trace (34 events, within --max-events 5,000,000)"), ok.out());
        CliTest.Run refused = CliTest.run("timeline", CliTest.SAMPLE.toString(), "--perfetto",
                tmp.resolve("no.json").toString(), "--max-events", "33", "-q");
        assertEquals(1, refused.code());
        assertEquals(1, refused.err().strip().lines().count(), refused.err());
        assertTrue(refused.err().contains("has 34 events; the whole trace is written for Perfetto or as a page up to "
                + "--max-events 33"), refused.err());
        // a window is not limited
        CliTest.Run window = CliTest.run("timeline", CliTest.SAMPLE.toString(), "--from", "0.001", "--to", "0.002",
                "--perfetto", tmp.resolve("w.json").toString(), "--max-events", "1", "-q");
        assertEquals(0, window.code(), window.err());
    }

    @Test
    void badRequestsAnswerInOneLine() {
        String s = CliTest.SAMPLE.toString();
        String[][] cases = {
                {"timeline", s},
                {"timeline", s, "--instance", "mpi_latesender:2", "--perfetto", tmp.resolve("a.json").toString()},
                {"timeline", s, "--instance", "mpi_latesender", "--perfetto", tmp.resolve("b.json").toString()},
                {"timeline", s, "--instance", "no_such_metric:1", "--perfetto", tmp.resolve("c.json").toString()},
                {"timeline", s, "--instance", "mpi_latesender:1", "--from", "0", "--perfetto", tmp.resolve("d.json").toString()},
                {"timeline", s, "--locations", "0-2", "--overview"},
                {"timeline", s, "--from", "0.008", "--to", "0.005", "--perfetto", tmp.resolve("e.json").toString()},
        };
        String[] expected = {"nothing to do", "keeps 1 instance(s) of mpi_latesender", "takes METRIC:K",
                "names no metric 'no_such_metric'", "without --from and --to", "--locations takes a whole number from 0 to 1, not 2",
                "--to takes a number from 0.008 to 0.012, not 0.005"};
        for (int i = 0; i < cases.length; i++) {
            CliTest.Run r = CliTest.run(cases[i]);
            assertEquals(1, r.code(), String.join(" ", cases[i]) + ": " + r.err());
            assertTrue(r.err().contains(expected[i]), r.err());
            assertEquals(1, r.err().strip().lines().count(), r.err());
            assertFalse(r.err().contains("Exception"), r.err());
        }
    }
}
