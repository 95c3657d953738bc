package dev.straggler.patterns;

import dev.straggler.patterns.cube.Metric;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The metrics an analysis produces: Scalasca's remapped metric hierarchy (reference §1.2, {@code scout.spec.in})
 * restricted to MPI, with Scalasca's unique names, display names and nesting. Indices are the positions in
 * {@link #ALL}, in depth-first order; a metric's value includes its children (Cube's convention).
 *
 * <p>One-sided (RMA) and file I/O wait states are not analysed; their time metrics exist so that the parents'
 * values equal Scalasca's.
 */
public final class MetricTree {
    private MetricTree() {
    }

    private static final List<Metric> METRICS = new ArrayList<>();

    private static int time(String name, String display, String parent, String descr) {
        METRICS.add(Metric.time(name, display, parent, descr));
        return METRICS.size() - 1;
    }

    private static int count(String name, String display, String parent, String descr) {
        METRICS.add(Metric.count(name, display, parent, descr));
        return METRICS.size() - 1;
    }

    private static int bytes(String name, String display, String parent, String descr) {
        METRICS.add(Metric.bytes(name, display, parent, descr));
        return METRICS.size() - 1;
    }

    public static final int TIME = time("time", "Time", null,
            "Total time of the program's call paths, summed over locations.");
    public static final int EXECUTION = time("execution", "Execution", "time",
            "Time spent executing the program, without measurement overhead.");
    public static final int COMP = time("comp", "Computation", "execution",
            "Time outside MPI (and other parallel-runtime) calls.");
    public static final int MPI = time("mpi", "MPI", "execution",
            "Time spent in MPI calls.");
    public static final int MPI_MANAGEMENT = time("mpi_management", "Management", "mpi",
            "Time in MPI management calls: init/finalize, communicators, files, windows.");
    public static final int MPI_INIT_EXIT = time("mpi_init_exit", "Init/Finalize", "mpi_management",
            "Time in MPI_Init, MPI_Init_thread, MPI_Initialized, MPI_Finalize and MPI_Finalized.");
    public static final int MPI_INIT_COMPLETION = time("mpi_init_completion", "Initialization Completion",
            "mpi_init_exit", "Time a process needs to finish MPI_Init after the first process left it.");
    public static final int MPI_FINALIZE_WAIT = time("mpi_finalize_wait", "Wait at Finalize", "mpi_init_exit",
            "Time spent in MPI_Finalize waiting for the last process to enter it.");
    public static final int MPI_MGMT_COMM = time("mpi_mgmt_comm", "Communicator", "mpi_management",
            "Time in communicator, group and topology management calls.");
    public static final int MPI_MGMT_FILE = time("mpi_mgmt_file", "File", "mpi_management",
            "Time in MPI file management calls.");
    public static final int MPI_MGMT_WIN = time("mpi_mgmt_win", "Window", "mpi_management",
            "Time in MPI window management calls.");
    public static final int MPI_SYNCHRONIZATION = time("mpi_synchronization", "Synchronization", "mpi",
            "Time in MPI calls that only synchronize.");
    public static final int MPI_SYNC_COLLECTIVE = time("mpi_sync_collective", "Collective", "mpi_synchronization",
            "Time in MPI barriers.");
    public static final int MPI_BARRIER_WAIT = time("mpi_barrier_wait", "Wait at Barrier", "mpi_sync_collective",
            "Time in a barrier before the last process has entered it.");
    public static final int MPI_BARRIER_COMPLETION = time("mpi_barrier_completion", "Barrier Completion",
            "mpi_sync_collective", "Time in a barrier after the first process has left it.");
    public static final int MPI_RMA_SYNCHRONIZATION = time("mpi_rma_synchronization", "One-sided",
            "mpi_synchronization", "Time in one-sided synchronization calls (wait states not analysed).");
    public static final int MPI_COMMUNICATION = time("mpi_communication", "Communication", "mpi",
            "Time in MPI calls that transfer data.");
    public static final int MPI_POINT2POINT = time("mpi_point2point", "Point-to-point", "mpi_communication",
            "Time in point-to-point calls, including the MPI_Wait/MPI_Test family.");
    public static final int MPI_LATESENDER = time("mpi_latesender", "Late Sender", "mpi_point2point",
            "Time a receive waits because the matching send started later.");
    public static final int MPI_LATESENDER_WO = time("mpi_latesender_wo", "Messages in Wrong Order",
            "mpi_latesender", "Late Sender time of receives that waited while an older message was already sent.");
    public static final int MPI_LSWO_DIFFERENT = time("mpi_lswo_different", "From different sources",
            "mpi_latesender_wo", "Wrong-order Late Sender time where the earlier message came from another source.");
    public static final int MPI_LSWO_SAME = time("mpi_lswo_same", "From same source", "mpi_latesender_wo",
            "Wrong-order Late Sender time where both messages came from the same source.");
    public static final int MPI_LATERECEIVER = time("mpi_latereceiver", "Late Receiver", "mpi_point2point",
            "Time a blocking or waited-for send waits because the receive was posted later.");
    public static final int MPI_COLLECTIVE = time("mpi_collective", "Collective", "mpi_communication",
            "Time in collective communication calls.");
    public static final int MPI_EARLYREDUCE = time("mpi_earlyreduce", "Early Reduce", "mpi_collective",
            "Time the root of an N-to-1 operation waits for the last sender.");
    public static final int MPI_EARLYSCAN = time("mpi_earlyscan", "Early Scan", "mpi_collective",
            "Time a process waits in a prefix reduction for a lower-ranked process.");
    public static final int MPI_LATEBROADCAST = time("mpi_latebroadcast", "Late Broadcast", "mpi_collective",
            "Time a process waits in a 1-to-N operation for the root to enter it.");
    public static final int MPI_WAIT_NXN = time("mpi_wait_nxn", "Wait at N x N", "mpi_collective",
            "Time in an N-to-N operation before the last process has entered it.");
    public static final int MPI_NXN_COMPLETION = time("mpi_nxn_completion", "N x N Completion", "mpi_collective",
            "Time in an N-to-N operation after the first process has left it.");
    public static final int MPI_RMA_COMMUNICATION = time("mpi_rma_communication", "One-sided", "mpi_communication",
            "Time in one-sided communication calls (wait states not analysed).");
    public static final int MPI_IO = time("mpi_io", "File I/O", "mpi",
            "Time in MPI file read and write calls.");
    public static final int OVERHEAD = time("overhead", "Overhead", "time",
            "Time the measurement system spent, e.g. flushing trace buffers.");
    public static final int VISITS = count("visits", "Visits", null,
            "Number of times a call path was entered.");
    public static final int SYNCS = count("syncs", "MPI synchronizations", null,
            "MPI operations that transfer no data.");
    public static final int SYNCS_P2P = count("syncs_p2p", "Point-to-point", "syncs",
            "Point-to-point messages without payload.");
    public static final int SYNCS_SEND = count("syncs_send", "Sends", "syncs_p2p",
            "Sends of messages without payload.");
    public static final int MPI_SLR_COUNT = count("mpi_slr_count", "Late Receivers", "syncs_send",
            "Late Receiver instances among sends without payload.");
    public static final int SYNCS_RECV = count("syncs_recv", "Receives", "syncs_p2p",
            "Receives of messages without payload.");
    public static final int MPI_SLS_COUNT = count("mpi_sls_count", "Late Senders", "syncs_recv",
            "Late Sender instances among receives without payload.");
    public static final int MPI_SLSWO_COUNT = count("mpi_slswo_count", "Messages in Wrong Order", "mpi_sls_count",
            "Wrong-order Late Sender instances among receives without payload.");
    public static final int SYNCS_COLL = count("syncs_coll", "Collective", "syncs",
            "Collective operations that neither send nor receive data.");
    public static final int COMMS = count("comms", "MPI communications", null,
            "MPI operations that transfer data.");
    public static final int COMMS_P2P = count("comms_p2p", "Point-to-point", "comms",
            "Point-to-point messages with payload.");
    public static final int COMMS_SEND = count("comms_send", "Sends", "comms_p2p",
            "Sends of messages with payload.");
    public static final int MPI_CLR_COUNT = count("mpi_clr_count", "Late Receivers", "comms_send",
            "Late Receiver instances among sends with payload.");
    public static final int COMMS_RECV = count("comms_recv", "Receives", "comms_p2p",
            "Receives of messages with payload.");
    public static final int MPI_CLS_COUNT = count("mpi_cls_count", "Late Senders", "comms_recv",
            "Late Sender instances among receives with payload.");
    public static final int MPI_CLSWO_COUNT = count("mpi_clswo_count", "Messages in Wrong Order", "mpi_cls_count",
            "Wrong-order Late Sender instances among receives with payload.");
    public static final int COMMS_COLL = count("comms_coll", "Collective", "comms",
            "Collective operations that transfer data.");
    public static final int COMMS_CXCH = count("comms_cxch", "Exchange", "comms_coll",
            "Collective operations in which the process both sends and receives data.");
    public static final int COMMS_CSRC = count("comms_csrc", "As source", "comms_coll",
            "Collective operations in which the process only sends data.");
    public static final int COMMS_CDST = count("comms_cdst", "As destination", "comms_coll",
            "Collective operations in which the process only receives data.");
    public static final int BYTES = bytes("bytes", "MPI bytes transferred", null,
            "Bytes transferred by MPI operations.");
    public static final int BYTES_P2P = bytes("bytes_p2p", "Point-to-point", "bytes",
            "Bytes transferred by point-to-point messages.");
    public static final int BYTES_SENT = bytes("bytes_sent", "Sent", "bytes_p2p",
            "Bytes sent in point-to-point messages.");
    public static final int BYTES_RCVD = bytes("bytes_rcvd", "Received", "bytes_p2p",
            "Bytes received in point-to-point messages (the matching send's length).");
    public static final int BYTES_COLL = bytes("bytes_coll", "Collective", "bytes",
            "Bytes transferred by collective operations.");
    public static final int BYTES_COUT = bytes("bytes_cout", "Outgoing", "bytes_coll",
            "Bytes a process contributes to collective operations.");
    public static final int BYTES_CIN = bytes("bytes_cin", "Incoming", "bytes_coll",
            "Bytes a process receives from collective operations.");

    /** All metrics, depth-first, parents before children. */
    public static final List<Metric> ALL = Collections.unmodifiableList(new ArrayList<>(METRICS));

    public static final int COUNT = ALL.size();

    /** Index of a metric by unique name, -1 when not part of the tree. */
    public static int indexOf(String uniqueName) {
        for (int i = 0; i < ALL.size(); i++) {
            if (ALL.get(i).uniqueName().equals(uniqueName)) {
                return i;
            }
        }
        return -1;
    }

    /** True for metrics measured in seconds (held as ticks during the analysis). */
    public static boolean isTime(int metric) {
        return ALL.get(metric).unit().equals("sec");
    }
}
