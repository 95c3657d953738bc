package dev.straggler.patterns.scalasca;

import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.AnalysisOptions;
import dev.straggler.patterns.AnalysisResult;
import dev.straggler.trace.TraceSource;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The third-party traces of shared/traces analyse without error; facts asserted by their origin projects
 * (traces/README.md) hold.
 */
class SharedTracesTest {

    private static AnalysisResult analyse(String folder) throws IOException {
        Optional<Path> traces = RealTraces.tracesDir();
        Assumptions.assumeTrue(traces.isPresent(), "shared traces not found (system property straggler.shared)");
        Optional<TraceSource> s = RealTraces.openOtf2(traces.get().resolve(folder).resolve("traces.otf2"));
        Assumptions.assumeTrue(s.isPresent(), "OTF2 reader not in the build yet");
        try (TraceSource src = s.get()) {
            return Analysis.run(src, AnalysisOptions.defaults().withThreads(2));
        }
    }

    @Test
    void pingPongHasEightMessagesOfFourMegabytesEachWay() throws IOException {
        AnalysisResult r = analyse("pipit-ping-pong");
        assertEquals(16, r.summary().messages());
        double[] sent = r.cube().perLocation(r.cube().metricIndex("bytes_sent"));
        assertEquals(4_177_920, sent[0]);
        assertEquals(4_177_920, sent[1]);
        assertEquals(2 * 4_177_920, r.total("bytes_rcvd"));
        assertTrue(r.warnings().isEmpty(), r.warnings().toString());
    }

    @Test
    void pingPongWithMetricRecordsGivesTheSameMessages() throws IOException {
        AnalysisResult r = analyse("pipit-ping-pong-papi");
        assertEquals(16, r.summary().messages());
        assertEquals(2 * 4_177_920, r.total("bytes_sent"));
    }

    @Test
    void nineSendersTwoMessagesEachToRankZero() throws IOException {
        AnalysisResult r = analyse("casita-10_scorep_mpi_tags");
        assertEquals(18, r.summary().messages());
        assertEquals(0, r.summary().unmatchedReceives() + r.summary().unmatchedSends());
        double[] recv = r.cube().perLocation(r.cube().metricIndex("comms_recv"));
        assertEquals(18, recv[r.cube().locations().stream().filter(l -> l.rank() == 0 && l.thread() == 0)
                .findFirst().orElseThrow().index()]);
    }

    @Test
    void hybridAndCudaTracesAnalyse() throws IOException {
        AnalysisResult jacobi = analyse("casita-2_jacobi_blame_cpu_015");
        assertTrue(jacobi.summary().hasMpi());
        assertTrue(jacobi.total("time") > 0);
        AnalysisResult cuda = analyse("casita-2_cuda_simple");
        assertTrue(cuda.total("time") > 0);
    }

    @Test
    void traceWithoutMpiSaysSo() throws IOException {
        AnalysisResult r = analyse("fastotf2-mi300");
        assertFalse(r.summary().hasMpi());
        assertTrue(r.warnings().contains(Analysis.NO_MPI_WARNING), r.warnings().toString());
        assertTrue(r.total("time") > 0);
        assertEquals(0, r.total("mpi"));
    }
}
