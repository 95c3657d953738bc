package dev.straggler.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.straggler.cli.CliTest.Run;
import dev.straggler.trace.TraceSource;
import dev.straggler.trace.Traces;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static dev.straggler.cli.CliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code straggler bandwidth --from-traces} against the experiment it replaces. The "hardware emulator" is the
 * simulator itself: the GYRO-like family is simulated at 16, 32 and 64 ranks at every bandwidth level, and the
 * completion times of those runs (their traces' clock lengths) form the true throttling table. The what-if replay
 * sees only the traces recorded at full bandwidth and must produce the same table, the same demand constant and the
 * same predictions.
 */
class BandwidthFromTracesTest {
    @TempDir
    static Path tmp;

    static final int[] P = {16, 32, 64};
    static final int[] LEVELS = {100, 80, 60, 40, 30, 20, 10};
    static final double FULL = 1e9;
    static final List<String> traces = new ArrayList<>();
    static Path trueTable;

    static Path generate(int p, double bandwidth) {
        Path out = tmp.resolve(String.format(Locale.ROOT, "gyro.p%d.bw%.0f", p, bandwidth));
        Run r = run("generate", "gyro-like", "-n", Integer.toString(p), "-p", "steps=3", "-p",
                "bandwidth=" + bandwidth, "-o", out.toString(), "-q");
        assertEquals(0, r.code(), r.err());
        return out.resolve("gyro-like.p" + p + ".r0");
    }

    @BeforeAll
    static void runTheThrottlingExperiment() throws Exception {
        StringBuilder table = new StringBuilder("tasks,bandwidth_percent,completion_time_s\n");
        for (int p : P) {
            for (int level : LEVELS) {
                Path t = generate(p, FULL * level / 100);
                if (level == 100) {
                    traces.add(t.toString());
                }
                try (TraceSource src = Traces.open(t, false)) {
                    var clock = src.definitions().clock();
                    table.append(p).append(',').append(level).append(',')
                            .append((double) clock.traceLength() / clock.ticksPerSecond()).append('\n');
                }
            }
        }
        trueTable = Files.writeString(tmp.resolve("true.csv"), table.toString());
    }

    private JsonNode bandwidth(List<String> args) throws Exception {
        Path json = tmp.resolve("bw" + args.hashCode() + ".json");
        List<String> all = new ArrayList<>(List.of("bandwidth", "--predict", "128,256", "--json", json.toString(), "-q"));
        all.addAll(args);
        Run r = run(all.toArray(String[]::new));
        assertEquals(0, r.code(), r.err());
        return new ObjectMapper().readTree(json.toFile());
    }

    private List<String> fromTraces(String... extra) {
        List<String> a = new ArrayList<>(List.of("--from-traces", "--bandwidths", "100,80,60,40,30,20,10",
                "--link-bandwidth", "1e9", "--latency", "2e-6", "--eager", "16384", "--overhead", "5e-7"));
        a.addAll(List.of(extra));
        a.addAll(traces);
        return a;
    }

    @Test
    void replayedTableEqualsTheSimulatedThrottlingRuns() throws Exception {
        Path out = tmp.resolve("replayed.csv");
        bandwidth(fromTraces("--table-out", out.toString()));
        List<String> replayed = Files.readAllLines(out);
        List<String> truth = Files.readAllLines(trueTable);
        assertEquals(truth.size(), replayed.size());
        for (int i = 1; i < truth.size(); i++) {
            String[] a = truth.get(i).split(",");
            String[] b = replayed.get(i).split(",");
            assertEquals(Integer.parseInt(a[0]), Integer.parseInt(b[0]));
            assertEquals(Double.parseDouble(a[1]), Double.parseDouble(b[1]));
            assertEquals(Double.parseDouble(a[2]), Double.parseDouble(b[2]), 1e-12, "row " + i);
        }
    }

    @Test
    void demandConstantAndPredictionsEqualThoseOfTheSimulatedRuns() throws Exception {
        JsonNode truth = bandwidth(List.of(trueTable.toString()));
        JsonNode replayed = bandwidth(fromTraces());
        assertEquals(15, truth.get("pairConstants").size());
        assertEquals(truth.get("demandConstant").asDouble(), replayed.get("demandConstant").asDouble(), 1e-9);
        JsonNode a = truth.get("predictions");
        JsonNode b = replayed.get("predictions");
        assertEquals(10, a.size());
        assertEquals(a.size(), b.size());
        for (int i = 0; i < a.size(); i++) {
            assertEquals(a.get(i).get("tasks").asInt(), b.get(i).get("tasks").asInt());
            assertEquals(a.get(i).get("cti").asDouble(), b.get(i).get("cti").asDouble());
            assertEquals(a.get(i).get("bandwidthPercent").asDouble(), b.get(i).get("bandwidthPercent").asDouble(), 1e-9);
        }
        JsonNode w = replayed.get("whatIfReplay");
        assertEquals(3, w.get("traces").size());
        assertEquals(7, w.get("bandwidthPercent").size());
    }

    /**
     * The family's transpose volume per rank is V/p and is sent to p − 1 peers, so its bandwidth term is about
     * V/bw independent of p while the computation shrinks with p: the CTI curves of all three configurations nearly
     * coincide, so BW_CTI,p barely changes with p and DC ≈ √(p2/p1) averaged over the pairs (16/32, 16/64, 32/64).
     */
    @Test
    void demandConstantFollowsTheFamilysCommunicationVolume() throws Exception {
        JsonNode replayed = bandwidth(fromTraces());
        double expected = (Math.sqrt(0.5) + Math.sqrt(0.25) + Math.sqrt(0.5)) / 3;
        assertEquals(expected, replayed.get("demandConstant").asDouble(), 0.01);
    }

    @Test
    void terminalShowsTheReplayedTableAndTheNetwork() {
        List<String> a = new ArrayList<>(List.of("bandwidth"));
        a.addAll(fromTraces());
        a.add("-q");
        Run r = run(a.toArray(String[]::new));
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("What-if replay of each trace on a network model (latency 2 µs, 1 GB/s at 100 %"),
                r.out());
        assertTrue(r.out().contains("mean DC = "), r.out());
    }

    @Test
    void levelsOutsideZeroToHundredAreRejected() {
        List<String> a = new ArrayList<>(List.of("bandwidth", "--from-traces", "--bandwidths", "100,0"));
        a.addAll(traces);
        Run r = run(a.toArray(String[]::new));
        assertEquals(1, r.code());
        assertTrue(r.err().contains("--bandwidths takes percentages in (0, 100], not 0"), r.err());
    }

    @Test
    void aTableNeedsExactlyOneInput() {
        Run r = run("bandwidth", trueTable.toString(), trueTable.toString());
        assertEquals(1, r.code());
        assertTrue(r.err().contains("one TABLE"), r.err());
    }
}
