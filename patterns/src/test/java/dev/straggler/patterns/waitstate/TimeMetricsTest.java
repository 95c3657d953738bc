package dev.straggler.patterns.waitstate;

import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.Severities;
import dev.straggler.replay.TraceBuilder;
import dev.straggler.trace.CollectiveOp;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import static dev.straggler.replay.TraceBuilder.WORLD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Time, visits and the call-path masks of Scalasca's metric hierarchy (reference §1.2). */
class TimeMetricsTest {

    private static Severities analyse() throws IOException {
        TraceBuilder b = new TraceBuilder(2);
        for (int r = 0; r < 2; r++) {
            b.rank(r).enter(0, "main")
                    .callCollective("MPI_Init", 10, 20, CollectiveOp.CREATE_HANDLE, WORLD, -1, 0, 0)
                    .compute("work", 20, 70)
                    .compute("MPI_Comm_rank", 70, 72)
                    .callCollective("MPI_Barrier", 80, 100, CollectiveOp.BARRIER, WORLD, -1, 0, 0)
                    .callCollective("MPI_Allreduce", 100, 130, CollectiveOp.ALLREDUCE, WORLD, -1, 8, 8)
                    .enter(130, "MPI_Wait").leave(134)
                    .leave(200);
        }
        return Severities.analyse(b);
    }

    @Test
    void timeIsExclusiveAlongTheCallTree() throws IOException {
        Severities s = analyse();
        assertEquals(200 - 10 - 50 - 2 - 20 - 30 - 4, s.ns("time", 0, "main"));
        assertEquals(50, s.ns("time", 0, "main", "work"));
        assertEquals(2 * 200, s.totalNs("time"));
        assertEquals(1, s.at("visits", 1, "main", "work"));
    }

    @Test
    void mpiTimeIsSplitByScalascasMasks() throws IOException {
        Severities s = analyse();
        assertEquals(2 * (10 + 2 + 20 + 30 + 4), s.totalNs("mpi"));
        assertEquals(2 * 10, s.totalNs("mpi_init_exit"));
        assertEquals(2 * 2, s.totalNs("mpi_mgmt_comm"));
        assertEquals(2 * 12, s.totalNs("mpi_management"));
        assertEquals(2 * 20, s.totalNs("mpi_sync_collective"));
        assertEquals(2 * 20, s.totalNs("mpi_synchronization"));
        assertEquals(2 * 30, s.totalNs("mpi_collective"));
        assertEquals(2 * 4, s.totalNs("mpi_point2point"));
        assertEquals(2 * 34, s.totalNs("mpi_communication"));
        assertEquals(s.totalNs("execution") - s.totalNs("mpi"), s.totalNs("comp"));
        assertEquals(s.totalNs("time"), s.totalNs("execution"));
    }

    @Test
    void everyMetricIncludesItsChildren() throws IOException {
        Severities s = analyse();
        var cube = s.result.cube();
        for (int m = 0; m < cube.metrics().size(); m++) {
            double own = cube.total(m);
            double children = 0;
            for (int c : cube.childMetrics(m)) {
                children += cube.total(c);
            }
            assertTrue(own + 1e-12 >= children, cube.metrics().get(m).uniqueName());
        }
    }

    @Test
    void aTraceWithoutMpiIsAnalysedForTimeAndVisitsWithAWarning() throws IOException {
        TraceBuilder b = new TraceBuilder(1);
        b.rank(0).enter(0, "main").compute("work", 10, 90).leave(100);
        Severities s = Severities.analyse(b);
        assertTrue(s.result.warnings().contains(Analysis.NO_MPI_WARNING));
        assertEquals(100, s.totalNs("time"));
        assertEquals(2, s.total("visits"));
        assertEquals(0, s.totalNs("mpi"));
        assertTrue(!s.result.summary().hasMpi());
    }
}
