package dev.straggler.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.straggler.cli.CliTest.Run;
import dev.straggler.trace.TraceSource;
import dev.straggler.trace.Traces;
import org.junit.jupiter.api.Assumptions;
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

    // ---- the network's defaults, calibrated on the traces ----

    /**
     * A series simulated on a network other than the defaults (1 GB/s, 2 µs). At 250 MB/s a byte takes exactly
     * 4 ns, so the simulator never rounds a transfer up to whole nanoseconds: every fastest recorded time lies on
     * the model's line, and the calibration must return the simulated link to floating-point precision.
     */
    static final double SIM_BANDWIDTH = 2.5e8;
    static final double SIM_LATENCY = 5e-6;

    static List<String> simulatedSeries(String family, double bandwidth, double latency, int... ranks) {
        List<String> out = new ArrayList<>();
        for (int p : ranks) {
            Path dir = tmp.resolve(String.format(Locale.ROOT, "%s.p%d.bw%.0f.lat%.0f", family, p, bandwidth,
                    latency * 1e9));
            // a scaling family writes one run per directory inside -o; a scenario writes the store at -o
            Path trace = dir.resolve(family + ".p" + p + ".r0");
            if (!Files.exists(dir)) {
                List<String> a = new ArrayList<>(List.of("generate", family, "-n", Integer.toString(p), "-p",
                        "bandwidth=" + bandwidth, "-p", "latency=" + latency, "-o", dir.toString(), "-q"));
                if (family.equals("gyro-like")) {
                    a.addAll(List.of("-p", "steps=3"));
                }
                Run r = run(a.toArray(String[]::new));
                assertEquals(0, r.code(), r.err());
            }
            out.add(Files.exists(trace) ? trace.toString() : dir.toString());
        }
        return out;
    }

    private static List<String> gyroOnTheSimulatedLink() {
        return simulatedSeries("gyro-like", SIM_BANDWIDTH, SIM_LATENCY, 16, 32, 64);
    }

    private JsonNode defaults(List<String> traces, String... extra) throws Exception {
        List<String> a = new ArrayList<>(List.of("--from-traces"));
        a.addAll(List.of(extra));
        a.addAll(traces);
        return bandwidth(a);
    }

    /** The gyro-like family communicates only through collectives (Alltoall, Allreduce, Comm_split). */
    @Test
    void defaultsCalibrateTheSimulatedLinkOnCollectives() throws Exception {
        JsonNode net = defaults(gyroOnTheSimulatedLink()).get("whatIfReplay").get("network");
        assertEquals(SIM_BANDWIDTH, net.get("bandwidthBytesPerSecond").asDouble(), SIM_BANDWIDTH * 1e-9);
        assertEquals(SIM_LATENCY, net.get("latencySeconds").asDouble(), 1e-15);
        assertEquals("calibrated", net.get("calibration").get("bandwidth").asText());
        assertEquals("calibrated", net.get("calibration").get("latency").asText());
        assertEquals("N×N collectives and barriers", net.get("calibration").get("basis").asText());
    }

    /**
     * The BT-like family's messages: at 300 MB/s a byte takes 3.33 ns, which the simulator rounds up, so each
     * fastest time lies up to 1 ns above the line. Its message sizes (2048 to 40960 bytes) differ by at least 1480
     * bytes, 4.9 µs at that bandwidth: a pairwise slope, and the median of them, is off by less than
     * 2 ns / 4.9 µs = 4.1e-4 relative. The latency is then off by less than 1 ns + 4.1e-4 × 40960 bytes / 300 MB/s
     * = 57 ns.
     */
    @Test
    void defaultsCalibrateTheSimulatedLinkOnMessages() throws Exception {
        JsonNode net = defaults(simulatedSeries("bt-like", 3e8, 3e-6, 4, 9, 16)).get("whatIfReplay").get("network");
        assertEquals(3e8, net.get("bandwidthBytesPerSecond").asDouble(), 3e8 * 4.1e-4);
        assertEquals(3e-6, net.get("latencySeconds").asDouble(), 57e-9);
        assertEquals("messages", net.get("calibration").get("basis").asText());
    }

    /** With the defaults the analysis is that of the simulated machine: the same demands as with its parameters. */
    @Test
    void defaultsGiveTheDemandsOfTheSimulatedMachine() throws Exception {
        List<String> traces = gyroOnTheSimulatedLink();
        JsonNode calibrated = defaults(traces);
        JsonNode given = defaults(traces, "--link-bandwidth", Double.toString(SIM_BANDWIDTH), "--latency",
                Double.toString(SIM_LATENCY));
        JsonNode a = calibrated.get("demands");
        JsonNode b = given.get("demands");
        assertEquals(15, a.size());
        for (int i = 0; i < a.size(); i++) {
            assertTrue(a.get(i).get("bandwidthPercent").isNumber(), a.get(i).toString());
            assertEquals(b.get(i).get("bandwidthPercent").asDouble(), a.get(i).get("bandwidthPercent").asDouble(),
                    1e-9, a.get(i).toString());
        }
        assertEquals(given.get("demandConstant").asDouble(), calibrated.get("demandConstant").asDouble(), 1e-9);
    }

    @Test
    void aGivenLinkBandwidthIsKeptAndOnlyTheLatencyCalibrated() throws Exception {
        JsonNode net = defaults(gyroOnTheSimulatedLink(), "--link-bandwidth", "3e8").get("whatIfReplay")
                .get("network");
        assertEquals(3e8, net.get("bandwidthBytesPerSecond").asDouble());
        assertEquals("given", net.get("calibration").get("bandwidth").asText());
        assertEquals("calibrated", net.get("calibration").get("latency").asText());
    }

    @Test
    void terminalSaysWhereTheNetworkComesFrom() {
        List<String> a = new ArrayList<>(List.of("bandwidth", "--from-traces", "-q"));
        a.addAll(gyroOnTheSimulatedLink());
        Run r = run(a.toArray(String[]::new));
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("  link bandwidth 250 MB/s and latency 5 µs calibrated on the traces: "), r.out());
        assertTrue(r.out().contains("  at 100 % the replay takes 100 % of the measured time"), r.out());
    }

    @Test
    void explicitNetworkIsUsedAsGivenAndNotCalibrated() throws Exception {
        JsonNode net = bandwidth(fromTraces()).get("whatIfReplay").get("network");
        assertEquals("given", net.get("calibration").get("bandwidth").asText());
        assertEquals("given", net.get("calibration").get("latency").asText());
        List<String> a = new ArrayList<>(List.of("bandwidth", "-q"));
        a.addAll(fromTraces());
        Run r = run(a.toArray(String[]::new));
        assertTrue(!r.out().contains("calibrated"), r.out());
    }

    /** late-sender sends 4-byte messages only, and has no collective but MPI_Init and MPI_Finalize. */
    @Test
    void whatCannotBeCalibratedIsSaidInOneLineNamingTheOptions() {
        List<String> a = new ArrayList<>(List.of("bandwidth", "--from-traces", "-q"));
        a.addAll(simulatedSeries("late-sender", 1e9, 2e-6, 2, 4));
        Run r = run(a.toArray(String[]::new));
        assertEquals(0, r.code(), r.err());
        List<String> lines = r.out().lines().filter(l -> l.contains("not calibrated")).toList();
        assertEquals(List.of("  link bandwidth 1 GB/s and latency 2 µs: defaults, not calibrated (the messages all "
                + "have one size: a bandwidth needs two); describe the machine with --link-bandwidth and --latency"),
                lines);
    }

    // ---- what is left out, said once ----

    /** On a network 10,000 times faster than the simulated one no CTI of 8..20 % is reached at 10 % bandwidth. */
    @Test
    void noCtiReachedIsOneLineNamingTheOptionsNotATableOfDashes() {
        List<String> a = new ArrayList<>(List.of("bandwidth", "--from-traces", "--link-bandwidth", "1e13",
                "--latency", "2e-6", "-q"));
        a.addAll(traces);
        Run r = run(a.toArray(String[]::new));
        assertEquals(0, r.code(), r.err());
        List<String> none = r.out().lines().filter(l -> l.contains("none:")).toList();
        assertEquals(1, none.size(), r.out());
        assertTrue(none.get(0).startsWith("Bandwidth demand BW_CTI,p: none: no configuration reaches any CTI of 8, "
                + "11, 14, 17, 20 % at any measured bandwidth down to 10 %"), none.get(0));
        assertTrue(none.get(0).contains("with --cti (e.g. --cti ") && none.get(0).endsWith(
                "or add levels below 10 % with --bandwidths"), none.get(0));
        assertTrue(!r.out().contains("p \\ CTI") && !r.out().contains("never reaches"), r.out());
    }

    @Test
    void ctisOutsideTheRangeAreOneNoteNotOnePerPair() {
        List<String> a = new ArrayList<>(fromTraces("--cti", "8,11,700,800,900"));
        a.add(0, "bandwidth");
        a.add("-q");
        Run r = run(a.toArray(String[]::new));
        assertEquals(0, r.code(), r.err());
        List<String> notes = r.out().lines().filter(l -> l.startsWith("note:")).toList();
        assertEquals(1, notes.stream().filter(n -> n.contains("never reaches")).count(), r.out());
        assertTrue(notes.get(0).startsWith("note: no demand for 9 of 15 (p, CTI) pairs"), notes.get(0));
        for (int p : P) {
            assertTrue(notes.get(0).contains("p=" + p + " never reaches CTI 700, 800, 900 %"), notes.get(0));
        }
        assertEquals(notes.size(), notes.stream().distinct().count(), r.out());
    }

    /**
     * NPB MG class S spends almost all its time computing: at the link calibrated on its own messages the run is
     * nearly insensitive to the bandwidth. The output says so in one line, not in a table of dashes.
     */
    @Test
    void realSeriesWithDefaultsIsCalibratedAndSaysWhichOptionGivesDemands() {
        String shared = System.getProperty("straggler.shared");
        Assumptions.assumeTrue(shared != null, "system property straggler.shared is not set");
        Path s2 = Path.of(shared, "traces", "real", "npb-mg.S-2");
        Path s4 = Path.of(shared, "traces", "real", "npb-mg.S-4");
        Assumptions.assumeTrue(Files.isDirectory(s2) && Files.isDirectory(s4), "the NPB MG traces are absent");
        Run r = run("bandwidth", "--from-traces", s2.toString(), s4.toString(), "-q");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains(" calibrated on the traces: Theil–Sen line through the fastest receive leave "
                + "− send enter of each (trace, size)"), r.out());
        assertTrue(r.out().contains("  at 100 % the replay takes "), r.out());
        assertEquals(1, r.out().lines().filter(l -> l.startsWith("Bandwidth demand BW_CTI,p: none: ")
                && l.contains("--cti") && l.contains("--bandwidths")).count(), r.out());
        assertTrue(!r.out().contains("note: p="), r.out());
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
