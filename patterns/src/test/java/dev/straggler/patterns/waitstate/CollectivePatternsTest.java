package dev.straggler.patterns.waitstate;

import dev.straggler.patterns.Severities;
import dev.straggler.patterns.ViolationKind;
import dev.straggler.replay.TraceBuilder;
import dev.straggler.trace.CollectiveOp;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import static dev.straggler.replay.TraceBuilder.WORLD;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Collective and Init/Finalize patterns on hand-built traces; expected values derived by hand from reference
 * §1.4 (nanosecond ticks). Begin = Enter and End = Leave in these traces.
 */
class CollectivePatternsTest {

    /** One collective per rank with the given Begin, End and byte counts. */
    private static TraceBuilder oneCollective(String call, CollectiveOp op, int root, long[] begin, long[] end,
                                              long[] sent, long[] received) {
        TraceBuilder b = new TraceBuilder(begin.length);
        for (int r = 0; r < begin.length; r++) {
            b.rank(r).enter(0, "main").callCollective(call, begin[r], end[r], op, WORLD, root, sent[r], received[r])
                    .leave(1000);
        }
        return b;
    }

    private static final long[] EIGHT = {8, 8, 8};

    @Test
    void barrierWaitIsTheTimeBeforeTheLastBeginAndCompletionAfterTheFirstEnd() throws IOException {
        Severities s = Severities.analyse(oneCollective("MPI_Barrier", CollectiveOp.BARRIER, -1,
                new long[]{10, 20, 50}, new long[]{60, 61, 62}, new long[3], new long[3]));
        assertEquals(40, s.ns("mpi_barrier_wait", 0, "main", "MPI_Barrier"));
        assertEquals(30, s.ns("mpi_barrier_wait", 1, "main", "MPI_Barrier"));
        assertEquals(0, s.ns("mpi_barrier_wait", 2, "main", "MPI_Barrier"));
        assertEquals(0, s.ns("mpi_barrier_completion", 0, "main", "MPI_Barrier"));
        assertEquals(1, s.ns("mpi_barrier_completion", 1, "main", "MPI_Barrier"));
        assertEquals(2, s.ns("mpi_barrier_completion", 2, "main", "MPI_Barrier"));
        assertEquals(3, s.total("syncs_coll"));
    }

    @Test
    void barrierWaitOfAMemberEndingBeforeTheLastBeginIsClippedToItsEnd() throws IOException {
        Severities s = Severities.analyse(oneCollective("MPI_Barrier", CollectiveOp.BARRIER, -1,
                new long[]{10, 20, 50}, new long[]{40, 61, 62}, new long[3], new long[3]));
        assertEquals(30, s.ns("mpi_barrier_wait", 0, "main", "MPI_Barrier"));
        assertEquals(0, s.ns("mpi_barrier_completion", 0, "main", "MPI_Barrier"));
        assertEquals(11, s.ns("mpi_barrier_completion", 1, "main", "MPI_Barrier"));
        assertEquals(1, s.result.violations().count(ViolationKind.END_BEFORE_LATEST_BEGIN));
    }

    @Test
    void nxnWithFullOverlapWaitsForTheLastBegin() throws IOException {
        Severities s = Severities.analyse(oneCollective("MPI_Allreduce", CollectiveOp.ALLREDUCE, -1,
                new long[]{10, 20, 50}, new long[]{60, 61, 62}, EIGHT, EIGHT));
        assertEquals(70, s.totalNs("mpi_wait_nxn"));
        assertEquals(40, s.ns("mpi_wait_nxn", 0, "main", "MPI_Allreduce"));
        assertEquals(3, s.totalNs("mpi_nxn_completion"));
    }

    @Test
    void nxnWithPartialOverlapWaitsOnlyForTheLastSender() throws IOException {
        // rank 1 is the only sender; rank 2 begins after rank 1 ended, so it does not synchronize
        Severities s = Severities.analyse(oneCollective("MPI_Allreduce", CollectiveOp.ALLREDUCE, -1,
                new long[]{10, 40, 70}, new long[]{80, 60, 90}, new long[]{0, 8, 0}, new long[]{8, 8, 8}));
        assertEquals(30, s.ns("mpi_wait_nxn", 0, "main", "MPI_Allreduce"));
        assertEquals(30, s.totalNs("mpi_wait_nxn"));
        assertEquals(20, s.ns("mpi_nxn_completion", 0, "main", "MPI_Allreduce"));
        assertEquals(20, s.totalNs("mpi_nxn_completion"));
    }

    @Test
    void alltoallvIsNotAnalysed() throws IOException {
        Severities s = Severities.analyse(oneCollective("MPI_Alltoallv", CollectiveOp.ALLTOALLV, -1,
                new long[]{10, 20, 50}, new long[]{60, 61, 62}, EIGHT, EIGHT));
        assertEquals(0, s.totalNs("mpi_wait_nxn"));
        assertEquals(3, s.total("comms_cxch"));
    }

    @Test
    void communicatorManagementCollectivesAreNotAnalysed() throws IOException {
        Severities s = Severities.analyse(oneCollective("MPI_Comm_split", CollectiveOp.CREATE_HANDLE, -1,
                new long[]{10, 20, 50}, new long[]{60, 61, 62}, new long[3], new long[3]));
        assertEquals(0, s.totalNs("mpi_wait_nxn") + s.totalNs("mpi_barrier_wait"));
        assertEquals(3, s.total("syncs_coll"));
    }

    @Test
    void collectivesOnSingleMemberCommunicatorsDoNotSynchronize() throws IOException {
        TraceBuilder b = new TraceBuilder(2);
        int self = b.comm("self", 0);
        b.rank(0).enter(0, "main").callCollective("MPI_Barrier", 10, 60, CollectiveOp.BARRIER, self, -1, 0, 0)
                .leave(100);
        b.rank(1).enter(0, "main").leave(100);
        Severities s = Severities.analyse(b);
        assertEquals(0, s.totalNs("mpi_barrier_wait") + s.totalNs("mpi_barrier_completion"));
    }

    @Test
    void lateBroadcastWaitsForTheRoot() throws IOException {
        Severities s = Severities.analyse(oneCollective("MPI_Bcast", CollectiveOp.BCAST, 2,
                new long[]{10, 20, 50}, new long[]{60, 61, 62}, new long[]{0, 0, 16}, new long[]{8, 8, 0}));
        assertEquals(40, s.ns("mpi_latebroadcast", 0, "main", "MPI_Bcast"));
        assertEquals(30, s.ns("mpi_latebroadcast", 1, "main", "MPI_Bcast"));
        assertEquals(70, s.totalNs("mpi_latebroadcast"));
        assertEquals(1, s.at("comms_csrc", 2, "main", "MPI_Bcast"));
        assertEquals(2, s.total("comms_cdst"));
    }

    @Test
    void broadcastWithoutPayloadIsNoSynchronization() throws IOException {
        Severities s = Severities.analyse(oneCollective("MPI_Bcast", CollectiveOp.BCAST, 2,
                new long[]{10, 20, 50}, new long[]{60, 61, 62}, new long[3], new long[3]));
        assertEquals(0, s.totalNs("mpi_latebroadcast"));
    }

    @Test
    void earlyReduceIsTheRootWaitingForTheLastSender() throws IOException {
        Severities s = Severities.analyse(oneCollective("MPI_Reduce", CollectiveOp.REDUCE, 0,
                new long[]{10, 30, 50}, new long[]{60, 61, 62}, EIGHT, new long[]{16, 0, 0}));
        assertEquals(40, s.ns("mpi_earlyreduce", 0, "main", "MPI_Reduce"));
        assertEquals(40, s.totalNs("mpi_earlyreduce"));
    }

    @Test
    void earlyScanWaitsForTheLatestLowerRank() throws IOException {
        Severities s = Severities.analyse(oneCollective("MPI_Scan", CollectiveOp.SCAN, -1,
                new long[]{50, 10, 30}, new long[]{60, 61, 62}, EIGHT, EIGHT));
        assertEquals(0, s.ns("mpi_earlyscan", 0, "main", "MPI_Scan"));
        assertEquals(40, s.ns("mpi_earlyscan", 1, "main", "MPI_Scan"));
        assertEquals(20, s.ns("mpi_earlyscan", 2, "main", "MPI_Scan"));
    }

    @Test
    void initCompletionAndFinalizeWaitUseTheFirstInitAndFinalize() throws IOException {
        TraceBuilder b = new TraceBuilder(3);
        long[] initLeave = {100, 110, 120};
        long[] finEnter = {500, 520, 510};
        for (int r = 0; r < 3; r++) {
            b.rank(r).enter(0, "main")
                    .callCollective("MPI_Init", 1, initLeave[r], CollectiveOp.CREATE_HANDLE, WORLD, -1, 0, 0)
                    .enter(finEnter[r], "MPI_Finalize").leave(600).leave(700);
        }
        Severities s = Severities.analyse(b);
        assertEquals(0, s.ns("mpi_init_completion", 0, "main", "MPI_Init"));
        assertEquals(10, s.ns("mpi_init_completion", 1, "main", "MPI_Init"));
        assertEquals(20, s.ns("mpi_init_completion", 2, "main", "MPI_Init"));
        assertEquals(20, s.ns("mpi_finalize_wait", 0, "main", "MPI_Finalize"));
        assertEquals(0, s.ns("mpi_finalize_wait", 1, "main", "MPI_Finalize"));
        assertEquals(10, s.ns("mpi_finalize_wait", 2, "main", "MPI_Finalize"));
        // the CREATE_HANDLE collective Score-P records inside MPI_Init is no wait state
        assertEquals(0, s.totalNs("mpi_wait_nxn") + s.totalNs("mpi_barrier_wait"));
    }

    @Test
    void collectiveBytesAreCountedPerDirection() throws IOException {
        Severities s = Severities.analyse(oneCollective("MPI_Allreduce", CollectiveOp.ALLREDUCE, -1,
                new long[]{10, 20, 50}, new long[]{60, 61, 62}, new long[]{8, 8, 8}, new long[]{4, 4, 4}));
        assertEquals(24, s.total("bytes_cout"));
        assertEquals(12, s.total("bytes_cin"));
        assertEquals(36, s.total("bytes_coll"));
        assertEquals(3, s.total("comms_coll"));
    }
}
