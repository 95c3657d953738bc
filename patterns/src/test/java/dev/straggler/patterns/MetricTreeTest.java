package dev.straggler.patterns;

import dev.straggler.patterns.cube.Metric;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The metric tree is Scalasca's remapped hierarchy (reference §1.2, scout.spec.in). */
class MetricTreeTest {

    private static final String[][] PARENT_OF = {
            {"execution", "time"}, {"comp", "execution"}, {"mpi", "execution"}, {"mpi_management", "mpi"},
            {"mpi_init_exit", "mpi_management"}, {"mpi_init_completion", "mpi_init_exit"},
            {"mpi_finalize_wait", "mpi_init_exit"}, {"mpi_synchronization", "mpi"},
            {"mpi_sync_collective", "mpi_synchronization"}, {"mpi_barrier_wait", "mpi_sync_collective"},
            {"mpi_barrier_completion", "mpi_sync_collective"}, {"mpi_communication", "mpi"},
            {"mpi_point2point", "mpi_communication"}, {"mpi_latesender", "mpi_point2point"},
            {"mpi_latesender_wo", "mpi_latesender"}, {"mpi_lswo_different", "mpi_latesender_wo"},
            {"mpi_lswo_same", "mpi_latesender_wo"}, {"mpi_latereceiver", "mpi_point2point"},
            {"mpi_collective", "mpi_communication"}, {"mpi_earlyreduce", "mpi_collective"},
            {"mpi_earlyscan", "mpi_collective"}, {"mpi_latebroadcast", "mpi_collective"},
            {"mpi_wait_nxn", "mpi_collective"}, {"mpi_nxn_completion", "mpi_collective"},
            {"syncs_p2p", "syncs"}, {"syncs_send", "syncs_p2p"}, {"mpi_slr_count", "syncs_send"},
            {"syncs_recv", "syncs_p2p"}, {"mpi_sls_count", "syncs_recv"}, {"mpi_slswo_count", "mpi_sls_count"},
            {"syncs_coll", "syncs"}, {"comms_p2p", "comms"}, {"comms_send", "comms_p2p"},
            {"mpi_clr_count", "comms_send"}, {"comms_recv", "comms_p2p"}, {"mpi_cls_count", "comms_recv"},
            {"mpi_clswo_count", "mpi_cls_count"}, {"comms_coll", "comms"}, {"comms_cxch", "comms_coll"},
            {"comms_csrc", "comms_coll"}, {"comms_cdst", "comms_coll"}, {"bytes_p2p", "bytes"},
            {"bytes_sent", "bytes_p2p"}, {"bytes_rcvd", "bytes_p2p"}, {"bytes_coll", "bytes"},
            {"bytes_cout", "bytes_coll"}, {"bytes_cin", "bytes_coll"},
            {"mpi_rma_wait_at_create", "mpi_mgmt_win"}, {"mpi_rma_late_complete", "mpi_rma_early_wait"},
            {"mpi_rma_early_fence", "mpi_rma_wait_at_fence"}, {"mpi_rma_sync_passive", "mpi_rma_synchronization"},
            {"mpi_io_individual", "mpi_io"}, {"syncs_rma", "syncs"}, {"syncs_rma_passive", "syncs_rma"},
            {"mpi_rma_pairsync_unneeded_count", "mpi_rma_pairsync_count"}, {"comms_rma_atomics", "comms_rma"},
            {"mpi_file_irops", "mpi_file_iops"}, {"mpi_file_cwops", "mpi_file_cops"}, {"bytes_get", "bytes_rma"},
            {"imbalance_above_single", "imbalance_above"}, {"imbalance_below_singularity", "imbalance_below_bypass"}};

    @Test
    void nestingAndUniqueNamesAreScalascas() {
        Map<String, String> parents = new HashMap<>();
        for (Metric m : MetricTree.ALL) {
            parents.put(m.uniqueName(), m.parent());
        }
        for (String[] p : PARENT_OF) {
            assertEquals(p[1], parents.get(p[0]), p[0]);
        }
        for (String root : new String[]{"time", "visits", "syncs", "mpi_rma_pairsync_count", "comms", "mpi_file_ops",
                "bytes", "delay", "critical_path", "performance_impact", "imbalance"}) {
            assertTrue(parents.containsKey(root));
            assertEquals(null, parents.get(root));
        }
    }

    @Test
    void waitStatesHaveScalascasDisplayNames() {
        assertEquals("Late Sender", MetricTree.ALL.get(MetricTree.MPI_LATESENDER).displayName());
        assertEquals("Messages in Wrong Order", MetricTree.ALL.get(MetricTree.MPI_LATESENDER_WO).displayName());
        assertEquals("Wait at N x N", MetricTree.ALL.get(MetricTree.MPI_WAIT_NXN).displayName());
        assertEquals("sec", MetricTree.ALL.get(MetricTree.MPI_WAIT_NXN).unit());
        assertEquals("occ", MetricTree.ALL.get(MetricTree.VISITS).unit());
        assertEquals("bytes", MetricTree.ALL.get(MetricTree.BYTES_SENT).unit());
    }
}
