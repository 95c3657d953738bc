package dev.straggler.patterns.pop;

import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.AnalysisOptions;
import dev.straggler.patterns.AnalysisResult;
import dev.straggler.patterns.focus.Focus;
import dev.straggler.trace.text.TextTraceReader;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.StringReader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * POP's multiplicative hybrid model on 2 ranks × 2 threads with hand-derived times (µs ticks). Each master runs
 * main from 0 to 100, forks at 10 and joins at 90 (the threads enter and leave the region then: no management).
 * Inside, rank 0's master works 40 and its worker 80, rank 1's master 20 and its worker 30; the rest is the
 * implicit barrier. Then rank 0 enters MPI_Barrier at 90, rank 1 computes until 95 and enters it; both leave at
 * 100. Useful computation: 50, 80, 35, 30 (mean 48.75, max 80); outside MPI on the masters: 90 and 95; runtime 100.
 */
class PopHybridTest {
    private static final String TRACE = """
            straggler-text 1
            clock resolution=1000000 offset=0 length=100
            region 0 main paradigm=USER role=FUNCTION
            region 1 par paradigm=OPENMP role=PARALLEL
            region 2 work paradigm=USER role=FUNCTION
            region 3 ibar paradigm=OPENMP role=IMPLICIT_BARRIER
            region 4 MPI_Barrier paradigm=MPI role=BARRIER file=MPI
            location 0 rank=0 thread=0
            location 1 rank=1 thread=0
            location 2 rank=0 thread=1
            location 3 rank=1 thread=1
            comm 0 MPI_COMM_WORLD members=0,1
            0 0 ENTER main
            0 10 THREAD_FORK model=openmp threads=2
            0 10 ENTER par
            0 10 ENTER work
            0 50 LEAVE work
            0 50 ENTER ibar
            0 90 LEAVE ibar
            0 90 LEAVE par
            0 90 THREAD_JOIN model=openmp
            0 90 ENTER MPI_Barrier
            0 90 MPI_COLLECTIVE_BEGIN
            0 100 MPI_COLLECTIVE_END op=BARRIER comm=0 sent=0 received=0
            0 100 LEAVE MPI_Barrier
            0 100 LEAVE main
            1 0 ENTER main
            1 10 THREAD_FORK model=openmp threads=2
            1 10 ENTER par
            1 10 ENTER work
            1 30 LEAVE work
            1 30 ENTER ibar
            1 90 LEAVE ibar
            1 90 LEAVE par
            1 90 THREAD_JOIN model=openmp
            1 95 ENTER MPI_Barrier
            1 95 MPI_COLLECTIVE_BEGIN
            1 100 MPI_COLLECTIVE_END op=BARRIER comm=0 sent=0 received=0
            1 100 LEAVE MPI_Barrier
            1 100 LEAVE main
            2 10 ENTER par
            2 10 ENTER work
            2 90 LEAVE work
            2 90 ENTER ibar
            2 90 LEAVE ibar
            2 90 LEAVE par
            3 10 ENTER par
            3 10 ENTER work
            3 40 LEAVE work
            3 40 ENTER ibar
            3 90 LEAVE ibar
            3 90 LEAVE par
            """;
    private static PopHybrid h;

    @BeforeAll
    static void analyse() throws Exception {
        AnalysisResult r = Analysis.run(TextTraceReader.read(new StringReader(TRACE), "hybrid"),
                AnalysisOptions.defaults());
        h = PopHybrid.of(Focus.ALL.select(r.cube()));
    }

    @Test
    void hybridEfficienciesCoverEveryThreadsUsefulComputation() {
        assertEquals(4, h.threads());
        assertEquals(48.75 / 80, h.hybridLoadBalance(), 1e-12, "mean / max of 50, 80, 35, 30");
        assertEquals(80.0 / 100, h.hybridCommunicationEfficiency(), 1e-12);
        assertEquals(48.75 / 100, h.hybridParallelEfficiency(), 1e-12);
    }

    @Test
    void mpiEfficienciesCountTheMastersTimeOutsideMpiAsUseful() {
        assertEquals(92.5 / 95, h.mpiLoadBalance(), 1e-12, "mean / max of 90, 95");
        assertEquals(95.0 / 100, h.mpiCommunicationEfficiency(), 1e-12);
    }

    @Test
    void hybridParallelEfficiencyIsTheProductOfTheMpiAndOpenMpOnes() {
        assertEquals(0.4875 / 0.925, h.openMpParallelEfficiency(), 1e-12);
        assertEquals(h.hybridParallelEfficiency(), h.mpiParallelEfficiency() * h.openMpParallelEfficiency(), 1e-12);
        assertEquals(h.openMpParallelEfficiency(), h.openMpLoadBalance() * h.openMpCommunicationEfficiency(), 1e-12);
    }

    @Test
    void aRunWithoutThreadsHasNoHybridEfficiencies() throws Exception {
        AnalysisResult r = Analysis.run(TextTraceReader.read(new StringReader("""
                straggler-text 1
                region 0 main
                location 0 rank=0
                0 0 ENTER main
                0 5 LEAVE main
                """), "flat"), AnalysisOptions.defaults());
        assertNull(PopHybrid.of(Focus.ALL.select(r.cube())));
        assertTrue(PopText.hybridLine(h).startsWith("POP hybrid (the same part of the run, 2 processes, 4 threads): "
                + "hybrid parallel efficiency 48.8 % = MPI parallel efficiency 92.5 %"), PopText.hybridLine(h));
    }

    /**
     * Every thread of a team counts, also one that never waits, idles or pays an overhead (the slow thread of a
     * simulated run without OpenMP overheads): membership comes from running in a parallel region.
     */
    @Test
    void everyTeamThreadCountsEvenWithoutOpenMpOrIdleTime() throws Exception {
        dev.straggler.testdata.Scenario s = dev.straggler.testdata.Scenarios.byName("hybrid-omp-to-late-sender");
        dev.straggler.trace.MemoryTrace mt = new dev.straggler.trace.MemoryTrace(s.name());
        s.generate(new dev.straggler.testdata.ScenarioParams(3, 1, java.util.Map.of("threads", "4")), mt);
        AnalysisResult r = Analysis.run(mt, AnalysisOptions.defaults().withThreads(1).withRootCauses(false));
        PopHybrid hy = PopHybrid.of(Focus.ALL.select(r.cube()));
        assertEquals(3, hy.processes());
        assertEquals(12, hy.threads());
    }
}
