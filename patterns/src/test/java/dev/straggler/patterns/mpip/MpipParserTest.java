package dev.straggler.patterns.mpip;

import dev.straggler.patterns.callsite.CallsiteEntry;
import dev.straggler.patterns.callsite.CallsiteStatistics;
import dev.straggler.patterns.callsite.Frame;
import dev.straggler.patterns.callsite.RankStats;
import dev.straggler.trace.TraceFormatException;
import org.junit.jupiter.api.Test;

import java.io.InputStreamReader;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Parses sample-k2.mpiP, written by make_sample_report.py (beside it) in mpiP 3.5's layout from per-rank numbers
 * that the script lists; the expected values here are those numbers, and the report carries them with mpiP's three
 * significant digits.
 */
class MpipParserTest {

    static MpipReport sample() throws Exception {
        try (Reader r = new InputStreamReader(MpipParserTest.class.getResourceAsStream("sample-k2.mpiP"),
                StandardCharsets.UTF_8)) {
            return MpipParser.parse(r, "sample-k2.mpiP");
        }
    }

    static CallsiteEntry site(CallsiteStatistics s, int id) {
        return s.callsites().stream().filter(e -> e.site().id() == id).findFirst().orElseThrow();
    }

    static RankStats rank(CallsiteEntry e, int rank) {
        return e.perRank().stream().filter(r -> r.rank() == rank).findFirst().orElseThrow();
    }

    @Test
    void headerTasksAndTimes() throws Exception {
        MpipReport r = sample();
        assertEquals("3.5.0", r.header().get("Version"));
        assertEquals("-k2", r.header().get("MPIP env var"));
        assertEquals(List.of("node01", "node01", "node02", "node02"), r.hosts());
        CallsiteStatistics s = r.statistics();
        assertEquals(4, s.ranks());
        assertEquals(9.52, s.appTime()[2]);
        // Rank 2's MPI time: 0.0000143 + 0.19 + 0.9 + 0.02 s = 1.1100143 s, printed as 1.11.
        assertEquals(1.1100143, s.mpiTime()[2], 0.005);
        assertEquals(2, s.depth());
        assertTrue(r.skippedSections().isEmpty(), r.skippedSections().toString());
    }

    @Test
    void callsiteStacksIncludingAnUnknownFrame() throws Exception {
        CallsiteStatistics s = sample().statistics();
        assertEquals(5, s.callsites().size());
        CallsiteEntry barrier = site(s, 4);
        assertEquals("Barrier", barrier.site().mpiCall());
        assertEquals(List.of(new Frame("[unknown]", "0x4011a2", 0), new Frame("main", "driver.c", 55)),
                barrier.site().frames());
        assertEquals("Isend < exchange_halo (exchange.c:120) < solve (solver.c:88)", site(s, 2).site().key());
        assertEquals("Waitall @ exchange_halo < solve", site(s, 3).site().label());
    }

    @Test
    void perRankCountsTotalsExtremaAndBytes() throws Exception {
        CallsiteStatistics s = sample().statistics();
        RankStats waitall2 = rank(site(s, 3), 2);
        assertEquals(100, waitall2.count());
        assertEquals(0.900, waitall2.total(), 0.900 * 0.005);
        assertEquals(0.0402, waitall2.max(), 1e-12);
        assertEquals(0.0009, waitall2.min(), 1e-12);
        RankStats isend0 = rank(site(s, 2), 0);
        assertEquals(8.192e6, isend0.bytes());
        assertEquals(8192, isend0.bytesMax());
        assertEquals(0.200, isend0.total(), 0.200 * 0.005);
    }

    @Test
    void allRowAndRanksThatNeverCalled() throws Exception {
        CallsiteStatistics s = sample().statistics();
        CallsiteEntry recv = site(s, 5);
        assertEquals(List.of(0, 1, 3), recv.perRank().stream().map(RankStats::rank).toList());
        assertEquals(15, recv.all().count());
        assertEquals(0.033, recv.all().total(), 0.033 * 0.005);
        CallsiteEntry waitall = site(s, 3);
        assertEquals(400, waitall.all().count());
        assertEquals(2.53, waitall.all().total(), 2.53 * 0.005);
        assertEquals(3.277e7, site(s, 2).all().bytes(), 1e3);
    }

    @Test
    void covAcrossRanksMatchesMpiPsOwn() throws Exception {
        CallsiteStatistics s = sample().statistics();
        // Waitall per-rank totals 500, 520, 900, 610 ms: mean 632.5, sample sd 184.3: COV 0.2914 (mpiP prints 0.29).
        double mean = (500 + 520 + 900 + 610) / 4.0;
        double sd = Math.sqrt((Math.pow(500 - mean, 2) + Math.pow(520 - mean, 2) + Math.pow(900 - mean, 2)
                + Math.pow(610 - mean, 2)) / 3);
        assertEquals(sd / mean, site(s, 3).cov(4), 0.002);
        assertEquals(0.29, site(s, 3).reportedCov());
        // Recv on 3 of 4 ranks: COV over the ranks that called it, 10, 12, 11 ms: sd 1 / mean 11.
        assertEquals(1.0 / 11, site(s, 5).cov(4), 0.002);
    }

    @Test
    void appAndMpiPercentages() throws Exception {
        CallsiteStatistics s = sample().statistics();
        RankStats waitall2 = rank(site(s, 3), 2);
        // 900 ms of 9.52 s AppTime and of 1.11 s MPI time on rank 2 (report: 9.45 and 81.08).
        assertEquals(9.45, s.appPercent(waitall2), 0.05);
        assertEquals(81.08, s.mpiPercent(waitall2), 0.5);
        assertEquals(65.92, s.mpiPercent(site(s, 3).all()), 0.5);
    }

    @Test
    void aReportWithoutCallsiteStacksUsesOperationsAsCallsites() throws Exception {
        String k0 = """
                @ mpiP
                @ Version                  : 3.5.0
                @ MPIP env var             : -k0
                ---------------------------------------------------------------------------
                @--- MPI Time (seconds) ---------------------------------------------------
                ---------------------------------------------------------------------------
                Task    AppTime    MPITime     MPI%
                   0          2        0.5    25.00
                   1          2        0.7    35.00
                   *          4        1.2    30.00
                ---------------------------------------------------------------------------
                @--- Callsite Time statistics (all, milliseconds): 2 ----------------------
                ---------------------------------------------------------------------------
                Name              Site Rank  Count      Max     Mean      Min   App%   MPI%
                Barrier             10    0      4      200      125       50  25.00 100.00
                Barrier             10    1      4      300      175       50  35.00 100.00
                Barrier             10    *      8      300      150       50  30.00 100.00
                ---------------------------------------------------------------------------
                @--- Callsite I/O statistics (all, I/O bytes) -----------------------------
                ---------------------------------------------------------------------------
                Name              Site Rank   Count       Max      Mean       Min       Sum
                File_read            1    0      20        64        64        64      1280
                ---------------------------------------------------------------------------
                @--- End of Report --------------------------------------------------------
                ---------------------------------------------------------------------------
                """;
        MpipReport r = MpipParser.parse(new StringReader(k0), "k0.mpiP");
        CallsiteStatistics s = r.statistics();
        assertEquals(0, s.depth());
        assertEquals("Barrier", s.callsites().get(0).site().key());
        assertEquals(0.7, rank(s.callsites().get(0), 1).total(), 1e-12);
        assertEquals(List.of("Callsite I/O statistics (all, I/O bytes)"), r.skippedSections());
        assertTrue(s.notes().stream().anyMatch(n -> n.contains("-k 0")));
    }

    @Test
    void aMalformedRowNamesFileAndLine() {
        String bad = """
                @ mpiP
                ---------------------------------------------------------------------------
                @--- MPI Time (seconds) ---------------------------------------------------
                ---------------------------------------------------------------------------
                Task    AppTime    MPITime     MPI%
                   0          2       zero    25.00
                """;
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> MpipParser.parse(new StringReader(bad), "bad.mpiP"));
        assertTrue(e.getMessage().startsWith("bad.mpiP:6: not a number: 'zero'"), e.getMessage());
    }

    @Test
    void somethingElseIsNotTakenForAReport() {
        TraceFormatException e = assertThrows(TraceFormatException.class,
                () -> MpipParser.parse(new StringReader("hello\nworld\n"), "notes.txt"));
        assertTrue(e.getMessage().contains("no 'MPI Time (seconds)' section"), e.getMessage());
    }
}
