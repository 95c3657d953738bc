package dev.straggler.patterns.callsite;

import dev.straggler.patterns.cube.CallPath;
import dev.straggler.patterns.cube.Metric;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.patterns.cube.SystemLocation;
import dev.straggler.trace.Paradigm;
import dev.straggler.trace.Region;
import dev.straggler.trace.RegionRole;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

class CubePhasesTest {

    @Test
    void phasesSumTimeMpiAndEveryWaitStateFamilyOnce() {
        List<Metric> metrics = List.of(Metric.time("time", "Time", null, ""),
                Metric.time("mpi_latesender", "Late Sender", "time", ""),
                Metric.time("mpi_latesender_wo", "Late Sender, wrong order", "mpi_latesender", ""),
                Metric.time("mpi_wait_nxn", "Wait at N x N", "time", ""));
        List<Region> regions = List.of(Region.function(0, "main"), Region.function(1, "solve"),
                new Region(2, "MPI_Recv", "MPI_Recv", "MPI", 0, 0, Paradigm.MPI, RegionRole.POINT2POINT),
                new Region(3, "MPI_Allreduce", "MPI_Allreduce", "MPI", 0, 0, Paradigm.MPI, RegionRole.COLL_ALL2ALL));
        List<CallPath> paths = List.of(new CallPath(0, -1, 0, 0), new CallPath(1, 0, 1, 0), new CallPath(2, 1, 2, 0),
                new CallPath(3, 1, 3, 0), new CallPath(4, 0, 3, 0));
        SeverityCube c = new SeverityCube(metrics, regions, paths,
                List.of(new SystemLocation(0, 0, 0, "r0"), new SystemLocation(1, 1, 0, "r1")), Map.of());
        // main 1 s; solve 4 s own; its MPI_Recv 3 s (2 s late sender, 1.5 of it wrong order); its Allreduce 2 s
        // (0.5 s waiting); MPI_Allreduce directly under main 1 s (0.25 s waiting): on rank 0; rank 1 only computes.
        c.set(0, 0, 0, 1);
        c.set(0, 1, 0, 4);
        c.set(0, 2, 0, 3);
        c.set(1, 2, 0, 2);
        c.set(2, 2, 0, 1.5);
        c.set(0, 3, 0, 2);
        c.set(3, 3, 0, 0.5);
        c.set(0, 4, 0, 1);
        c.set(3, 4, 0, 0.25);
        c.set(0, 1, 1, 6);
        PhaseBreakdown b = CubePhases.of(c.freeze(), 1);
        assertEquals(2, b.phases().size());
        PhaseBreakdown.Phase solve = b.phases().get(0);
        assertEquals(List.of("main", "solve"), solve.path());
        assertArrayEquals(new double[]{9, 6}, solve.total());
        assertArrayEquals(new double[]{5, 0}, solve.mpi());
        // Late Sender 2 (its wrong-order part is inside it) + Wait at N x N 0.5.
        assertArrayEquals(new double[]{2.5, 0}, solve.imbalance());
        PhaseBreakdown.Phase allreduce = b.phases().get(1);
        assertEquals(List.of("main", "MPI_Allreduce"), allreduce.path());
        assertArrayEquals(new double[]{0.25, 0}, allreduce.imbalance());
    }
}
