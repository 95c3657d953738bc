package dev.straggler.patterns;

import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.trace.TraceSource;
import dev.straggler.trace.Traces;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The metrics Scalasca's remapper derives after the trace analysis, on a hand-written two-rank trace whose values
 * follow from the definitions by hand: visit counts under the masks of {@code scout.spec.in} (file operations,
 * one-sided synchronizations and communications), their time metrics, and the computational imbalance heuristic.
 * (The shared real traces have none of these calls; their imbalance is checked against Scalasca in
 * ScalascaCubeParityTest.)
 */
class RemapMetricsTest {
    @TempDir
    static Path tmp;
    static AnalysisResult result;
    static SeverityCube cube;

    /*
     * rank 0: main { File_open 0-1, File_read 1-3, File_read 3-5, File_write_all 5-9, File_get_size 9-10,
     *                Win_fence 10-11 x3 (to 13), Put 13-14 x2 (to 15), Win_lock 15-16, Fetch_and_op 16-17,
     *                compute 17-27 }
     * rank 1: main { File_open 0-1, compute 1-31, serial 31-39 }   (1 tick = 1 ms)
     */
    private static final String TRACE = """
            straggler-text 1
            clock resolution=1000 offset=0 length=40
            experiment application=remap processes=2
            region 0 main paradigm=USER role=FUNCTION
            region 1 compute paradigm=USER role=FUNCTION
            region 2 serial paradigm=USER role=FUNCTION
            region 3 MPI_File_open paradigm=MPI role=FILE_IO_METADATA file=MPI
            region 4 MPI_File_read paradigm=MPI role=FILE_IO file=MPI
            region 5 MPI_File_write_all paradigm=MPI role=FILE_IO file=MPI
            region 6 MPI_File_get_size paradigm=MPI role=FILE_IO_METADATA file=MPI
            region 7 MPI_Win_fence paradigm=MPI role=BARRIER file=MPI
            region 8 MPI_Put paradigm=MPI role=RMA file=MPI
            region 9 MPI_Win_lock paradigm=MPI role=FUNCTION file=MPI
            region 10 MPI_Fetch_and_op paradigm=MPI role=ATOMIC file=MPI
            location 0 rank=0 thread=0 name="Master thread"
            location 1 rank=1 thread=0 name="Master thread"
            comm 0 MPI_COMM_WORLD members=0,1
            0 0 ENTER main
            0 0 ENTER MPI_File_open
            0 1 LEAVE MPI_File_open
            0 1 ENTER MPI_File_read
            0 3 LEAVE MPI_File_read
            0 3 ENTER MPI_File_read
            0 5 LEAVE MPI_File_read
            0 5 ENTER MPI_File_write_all
            0 9 LEAVE MPI_File_write_all
            0 9 ENTER MPI_File_get_size
            0 10 LEAVE MPI_File_get_size
            0 10 ENTER MPI_Win_fence
            0 11 LEAVE MPI_Win_fence
            0 11 ENTER MPI_Win_fence
            0 12 LEAVE MPI_Win_fence
            0 12 ENTER MPI_Win_fence
            0 13 LEAVE MPI_Win_fence
            0 13 ENTER MPI_Put
            0 14 LEAVE MPI_Put
            0 14 ENTER MPI_Put
            0 15 LEAVE MPI_Put
            0 15 ENTER MPI_Win_lock
            0 16 LEAVE MPI_Win_lock
            0 16 ENTER MPI_Fetch_and_op
            0 17 LEAVE MPI_Fetch_and_op
            0 17 ENTER compute
            0 27 LEAVE compute
            0 40 LEAVE main
            1 0 ENTER main
            1 0 ENTER MPI_File_open
            1 1 LEAVE MPI_File_open
            1 1 ENTER compute
            1 31 LEAVE compute
            1 31 ENTER serial
            1 39 LEAVE serial
            1 40 LEAVE main
            """;

    @BeforeAll
    static void analyse() throws IOException {
        Path f = tmp.resolve("remap.txt");
        Files.writeString(f, TRACE);
        try (TraceSource s = Traces.open(f)) {
            result = Analysis.run(s, AnalysisOptions.defaults());
        }
        cube = result.cube();
    }

    private static double total(String metric) {
        return cube.total(metric);
    }

    @Test
    void fileOperationsCountAsTheSpecificationMasksSay() {
        // individual: 2 reads + File_get_size (a management call whose name has "get"); collective: 2 opens + write_all
        assertEquals(2, total("mpi_file_irops"));
        assertEquals(0, total("mpi_file_iwops"));
        assertEquals(3, total("mpi_file_iops"));
        assertEquals(0, total("mpi_file_crops"));
        assertEquals(1, total("mpi_file_cwops"));
        assertEquals(3, total("mpi_file_cops"));
        assertEquals(6, total("mpi_file_ops"));
    }

    @Test
    void oneSidedCallsCountAsSynchronizationsAndCommunications() {
        assertEquals(3, total("syncs_rma_active"));
        assertEquals(1, total("syncs_rma_passive"));
        assertEquals(4, total("syncs_rma"));
        assertEquals(4, total("syncs"), "syncs includes its one-sided child");
        assertEquals(2, total("comms_rma_puts"));
        assertEquals(0, total("comms_rma_gets"));
        assertEquals(1, total("comms_rma_atomics"));
        assertEquals(3, total("comms_rma"));
        assertEquals(3, total("comms"));
    }

    @Test
    void fileAndOneSidedTimesFollowTheirMasks() {
        assertEquals(0.004, total("mpi_io_individual"), 1e-12, "two reads of 2 ms");
        assertEquals(0.004, total("mpi_io_collective"), 1e-12, "one write_all of 4 ms");
        assertEquals(0.008, total("mpi_io"), 1e-12);
        assertEquals(0.003, total("mpi_rma_sync_active"), 1e-12);
        assertEquals(0.001, total("mpi_rma_sync_passive"), 1e-12);
    }

    @Test
    void oneSidedTimeIsReportedAsNotAnalysed() {
        assertTrue(result.warnings().stream().anyMatch(w -> w.contains("one-sided MPI calls") && w.contains("not analysed")),
                result.warnings().toString());
    }

    @Test
    void imbalanceIsTheDistanceFromTheMeanPerProcess() {
        int compute = pathOf("compute");
        // 10 ms and 30 ms of compute: mean 20 ms; rank 0 is 10 ms under, rank 1 10 ms over
        assertEquals(0.010, cube.get(cube.metricIndex("imbalance_below"), compute, 0), 1e-12);
        assertEquals(0.010, cube.get(cube.metricIndex("imbalance_above"), compute, 1), 1e-12);
        assertEquals(0.010, cube.get(cube.metricIndex("imbalance"), compute, 0), 1e-12);
        assertEquals(0.010, cube.get(cube.metricIndex("imbalance"), compute, 1), 1e-12);
        assertEquals(0, cube.get(cube.metricIndex("imbalance_below_bypass"), compute, 0), "both ranks visit it");
    }

    @Test
    void callPathOfOneProcessIsSingularity() {
        int serial = pathOf("serial");
        // 8 ms on rank 1 only: mean 4 ms; rank 1 has 4 ms overload, all of it single-participant (4 ms x (2 - 1)),
        // rank 0 has 4 ms underload, all non-participation in a singularity
        assertEquals(0.004, cube.get(cube.metricIndex("imbalance_above"), serial, 1), 1e-12);
        assertEquals(0.004, cube.get(cube.metricIndex("imbalance_above_single"), serial, 1), 1e-12);
        assertEquals(0.004, cube.get(cube.metricIndex("imbalance_below"), serial, 0), 1e-12);
        assertEquals(0.004, cube.get(cube.metricIndex("imbalance_below_bypass"), serial, 0), 1e-12);
        assertEquals(0.004, cube.get(cube.metricIndex("imbalance_below_singularity"), serial, 0), 1e-12);
    }

    private static int pathOf(String region) {
        for (int p = 0; p < cube.callPaths().size(); p++) {
            if (cube.regions().get(cube.callPaths().get(p).region()).name().equals(region)) {
                return p;
            }
        }
        throw new AssertionError("no call path of " + region);
    }
}
