package dev.straggler.cli;

import dev.straggler.cli.CliTest.Run;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;

import static dev.straggler.cli.CliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The corpus of bad inputs in {@code src/test/resources/bad-inputs}: each is the bundled sample with one defect.
 * {@code validate} rejects every one, naming the location and event; {@code analyze} refuses the implausible ones
 * in one line (never printing the impossible numbers they would produce) and, with {@code --lenient}, says that
 * its result is partial.
 */
class BadInputCorpusTest {
    static Path corpus(String name) {
        return Path.of("src", "test", "resources", "bad-inputs", name + ".txt");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "timestamp-bit-flip|location 0 (rank 0), event 7 at 0.003004 s (t=3004): time goes backwards (previous event at 0.007010 s (t=7010))",
            "timestamp-beyond-clock|location 0 (rank 0), event 16 at 4446576000.000000 s (t=4446576000000000): timestamp outside the trace's clock range, from its start to 0.012000 s (t=0 to t=12000)",
            "negative-bytes|location 0 (rank 0), event 6 at 0.007010 s (t=7010): MPI_SEND message length is negative: -8192",
            "tag-mismatch|location 1 (rank 1), event 6 at 0.007200 s (t=7200): receive from rank 0 (communicator 0, tag 43) has no matching send; rank 0 has unmatched sends to rank 1 on this communicator with tag 42 (tag mismatch?)",
            "receive-without-send|location 1 (rank 1), event 6 at 0.007200 s (t=7200): receive from rank 0 (communicator 0, tag 42) has no matching send",
            "send-never-received|location 0 (rank 0), event 6 at 0.007010 s (t=7010): send to rank 1 (communicator 0, tag 42, 4096 bytes) is never received",
            "size-mismatch|location 1 (rank 1), event 6 at 0.007200 s (t=7200): receive of 1024 bytes matches a send of 4096 bytes",
            "mismatched-collective|location 1 (rank 1), event 12 at 0.008099 s (t=8099): collective #1 on communicator 0 (MPI_COMM_WORLD) is BCAST (root 0) here but BARRIER on rank 0",
            "incomplete-collective|location 0 (rank 0), event 12 at 0.008100 s (t=8100): collective #1 on communicator 0 (MPI_COMM_WORLD, size 2) is incomplete: rank 1 joins 0"})
    void validateRejectsEachBadInputNamingWhereItIs(String name, String finding) {
        Run r = run("validate", corpus(name).toString());
        assertEquals(1, r.code(), r.out());
        assertTrue(r.out().contains(corpus(name) + ": " + finding), r.out());
        assertTrue(r.out().strip().endsWith("invalid: " + r.out().lines().filter(l -> l.contains(": location ")).count()
                + " problem(s)"), r.out());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "timestamp-bit-flip|location 0 (rank 0), event 7 (LEAVE): timestamp 0.003004 s (t=3004) is earlier than the previous event's, 0.007010 s (t=7010)",
            "timestamp-beyond-clock|location 0 (rank 0), event 16 (LEAVE): timestamp 4446576000000000 lies outside the trace's clock range [0, 12000]",
            "negative-bytes|location 0 (rank 0), event 6 (MPI_SEND): MPI_SEND with negative message length -8192"})
    void analyzeRefusesAnImplausibleTraceInOneLine(String name, String message) {
        Run r = run("analyze", corpus(name).toString(), "-q");
        assertEquals(1, r.code());
        assertEquals("", r.out());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().startsWith("straggler: " + corpus(name) + ": " + message), r.err());
        assertTrue(r.err().strip().endsWith("; " + dev.straggler.trace.TraceFormatException.LENIENT_HINT), r.err());
    }

    @ParameterizedTest
    @ValueSource(strings = {"timestamp-bit-flip", "timestamp-beyond-clock", "negative-bytes"})
    void lenientAnalysisSaysItIsPartialAndPrintsNoImpossibleNumber(String name) {
        Run r = run("analyze", corpus(name).toString(), "-q", "--lenient");
        assertEquals(0, r.code(), r.err());
        long n = name.equals("negative-bytes") ? 2 : 1; // the send and the receive
        assertTrue(r.out().contains("warning: partial result: --lenient dropped " + n + " implausible record(s)"), r.out());
        assertTrue(r.err().contains("--lenient dropped " + n + " implausible or unreadable part(s) of " + corpus(name)),
                r.err());
        assertTrue(r.err().contains("  location 0 (rank 0), event "), r.err());
        assertNoImpossibleNumber(r.out());
    }

    /** No negative quantity and no share above 100 % anywhere in a report. */
    static void assertNoImpossibleNumber(String report) {
        for (String line : report.lines().toList()) {
            assertFalse(line.matches(".*(^|\\s)-\\d.*") || line.contains("−"), "negative number in: " + line);
            var m = java.util.regex.Pattern.compile("(\\d+(\\.\\d+)?)%").matcher(line);
            while (m.find()) {
                assertTrue(Double.parseDouble(m.group(1)) <= 100.0001, "share above 100 % in: " + line);
            }
        }
    }

    @Test
    void validTraceExitsZeroAndClockWarningsExitThree() throws Exception {
        Run ok = run("validate", CliTest.SAMPLE.toString());
        assertEquals(0, ok.code(), ok.out());
        assertTrue(ok.out().strip().endsWith(": valid"), ok.out());
        String shared = System.getProperty("straggler.shared");
        org.junit.jupiter.api.Assumptions.assumeTrue(shared != null, "system property straggler.shared is not set");
        Path mg = Path.of(shared, "traces", "real", "npb-mg.S-4");
        org.junit.jupiter.api.Assumptions.assumeTrue(java.nio.file.Files.isDirectory(mg), mg + " is absent");
        Run w = run("validate", mg.toString());
        assertEquals(ValidateCommand.VALID_WITH_WARNINGS, w.code(), w.out());
        // the analysis counts the same violations independently (Scalasca's clipping rules)
        assertTrue(w.out().contains("clock condition violated by 1 point-to-point message(s) and 18 collective instance(s)"),
                w.out());
        assertTrue(w.out().strip().endsWith("valid, with 19 warning(s)"), w.out());
    }

    /**
     * validate gives times as seconds since the start of the measurement, to the timer's resolution, and the tick
     * value only in parentheses (to find the event in dump's output): NPB MG's first clock warning, read from its
     * ticks with the trace's 1 GHz timer.
     */
    @Test
    void validateGivesTimesInSecondsWithTheTicksInParentheses() throws Exception {
        String shared = System.getProperty("straggler.shared");
        org.junit.jupiter.api.Assumptions.assumeTrue(shared != null, "system property straggler.shared is not set");
        Path mg = Path.of(shared, "traces", "real", "npb-mg.S-4");
        org.junit.jupiter.api.Assumptions.assumeTrue(java.nio.file.Files.isDirectory(mg), mg + " is absent");
        long offset;
        try (var src = dev.straggler.trace.Traces.open(mg, false)) {
            assertEquals(1_000_000_000L, src.definitions().clock().ticksPerSecond());
            offset = src.definitions().clock().globalOffset();
        }
        Run r = run("validate", mg.toString());
        String first = r.out().lines().filter(l -> l.contains("collective #13 ")).findFirst().orElseThrow();
        String at = java.math.BigDecimal.valueOf(2686552722842L - offset, 9).toPlainString();
        String leaves = java.math.BigDecimal.valueOf(2686552718193L - offset, 9).toPlainString();
        String enters = java.math.BigDecimal.valueOf(2686552718579L - offset, 9).toPlainString();
        assertEquals(mg + ": warning: location 0 (rank 0), event 1477 at " + at + " s (t=2686552722842): clock "
                + "condition: in collective #13 (ALLREDUCE) on communicator 2 a member leaves at " + leaves
                + " s (t=2686552718193), 0.000000386 s before the last member enters at " + enters
                + " s (t=2686552718579)", first);
        assertFalse(r.out().contains(" at t="), r.out());
    }

    /** Found by the mutation fuzzer: a damaged MPI_Waitall name made three waits count in one 5 ms call. */
    @Test
    void waitingInOneCallNeverExceedsTheCall() {
        Run r = run("analyze", corpus("unknown-call-completing-several-receives").toString(), "-q");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("Late Sender: 0.004000 s"), r.out());
    }

    /** Found by the mutation fuzzer: a negated member rank ended in an ArrayIndexOutOfBoundsException. */
    @Test
    void negativeCommunicatorMemberIsALineNumberedError() {
        Run r = run("analyze", corpus("negative-communicator-member").toString(), "-q");
        assertEquals(1, r.code());
        assertEquals("straggler: " + corpus("negative-communicator-member") + ":19: communicator 0 has member rank -1; "
                + "ranks are never negative", r.err().strip());
    }

    /** Found by the mutation fuzzer: a corrupted store file made Arrow ask for 81 TB or fail inside a decoder. */
    @Test
    void corruptedStoreFileIsRefusedByItsChecksum(@org.junit.jupiter.api.io.TempDir Path tmp) throws Exception {
        Path store = corruptedStore(tmp);
        Path events = store.resolve("events").resolve("loc-000000.arrow");
        Run r = run("analyze", store.toString(), "-q");
        assertEquals(1, r.code());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().contains(events + ": checksum ") && r.err().contains("(location 0 is corrupted); re-import it "
                + "from the original trace"), r.err());
    }

    /** Lenient: a store location failing its checksum is left out whole, and the result says it is partial. */
    @Test
    void lenientAnalysisLeavesACorruptedStoreLocationOut(@org.junit.jupiter.api.io.TempDir Path tmp) throws Exception {
        Path store = corruptedStore(tmp);
        Run r = run("analyze", store.toString(), "-q", "--lenient");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("warning: partial result: --lenient left out the unreadable events of 1 location(s)"),
                r.out());
        assertTrue(r.err().contains("location 0 (rank 0), event 0: the location's events from here on are unreadable "
                + "and left out (17 of 17 declared)"), r.err());
        assertNoImpossibleNumber(r.out());
    }

    /** The bundled sample imported into a store whose location 0 has one flipped bit. */
    private static Path corruptedStore(Path tmp) throws Exception {
        Path store = tmp.resolve("s");
        assertEquals(0, run("import", CliTest.SAMPLE.toString(), "-o", store.toString(), "-q").code());
        Path events = store.resolve("events").resolve("loc-000000.arrow");
        byte[] b = java.nio.file.Files.readAllBytes(events);
        b[b.length / 2] ^= 0x40;
        java.nio.file.Files.write(events, b);
        return store;
    }
}
