package dev.straggler.patterns.algebra;

import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.AnalysisOptions;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.testdata.GeneratedTrace;
import dev.straggler.testdata.ScenarioParams;
import dev.straggler.testdata.Scenarios;
import dev.straggler.trace.MemoryTrace;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The example, on the simulator's GYRO-like family analysed by Straggler: going from 128 to 192 processes
 * the sub-communicator transpose starts waiting (p no longer divides the work units), which the diff must name.
 */
class DiffOfAnalysedRunsTest {

    record Run(SeverityCube cube, GeneratedTrace generated) {
    }

    static Run gyro(int p) throws Exception {
        MemoryTrace t = new MemoryTrace("gyro-like.p" + p);
        GeneratedTrace g = Scenarios.byName("gyro-like").generate(new ScenarioParams(p, 5, Map.of()), t);
        return new Run(Analysis.run(t, AnalysisOptions.defaults()).cube(), g);
    }

    @Test
    void growthFrom128To192IsWaitAtNxNUnderTranspose() throws Exception {
        Run p128 = gyro(128);
        Run p192 = gyro(192);
        DiffReport r = DiffReport.of(p192.cube(), p128.cube());
        assertTrue(r.collapsed());
        assertEquals("mpi_wait_nxn", r.topFinding().metric());
        assertEquals("transpose", r.topFinding().caller());
        assertTrue(r.headline().contains("is Wait at N x N under `transpose`"), r.headline());
        // The difference of the Wait at N x N totals is the difference of the closed forms (none at 128).
        List<String> transpose = List.of("main", "timestep", "transpose", "MPI_Alltoall");
        double expected = 0;
        for (int rank = 0; rank < 192; rank++) {
            expected += p192.generated().expected().value("mpi_wait_nxn", transpose, rank);
        }
        assertTrue(expected > 0);
        assertEquals(expected, r.topFinding().change().diff(), 1e-9 * expected + 1e-12);
        SeverityCube d = ProfileAlgebra.diff(p192.cube(), p128.cube());
        assertEquals(p192.generated().expected().total("mpi_wait_nxn") - p128.generated().expected().total("mpi_wait_nxn"),
                d.total("mpi_wait_nxn"), 1e-9);
    }
}
