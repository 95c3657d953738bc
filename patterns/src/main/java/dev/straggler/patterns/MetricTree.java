package dev.straggler.patterns;

import dev.straggler.patterns.cube.Metric;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The metrics an analysis produces: Scalasca's remapped metric hierarchy (reference §1.2, {@code scout.spec.in})
 * for MPI, OpenMP and POSIX threads, with Scalasca's unique names, display names and nesting. Indices are the
 * positions in {@link #ALL}, in depth-first order; a metric's value includes its children (Cube's convention).
 * The OpenMP and the POSIX threads metrics are left out of a run without them, as Scalasca's remapping leaves them.
 *
 * <p>The tree is the whole MPI part of Scalasca's, so that our Cube files pair with Scalasca's metric by metric
 * (same unique names, display names and ids). One-sided (RMA) records are not replayed: the one-sided wait states,
 * pair-wise synchronization counts and one-sided bytes stay zero (the analysis warns when a trace spends time in
 * one-sided calls), while their call-path masks (time and visit counts) are computed as Scalasca's remapper does.
 * The computational imbalance heuristic, which Scalasca's remapper adds, is computed by
 * {@link ComputationalImbalance}.
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
    public static final int MPI_RMA_WAIT_AT_CREATE = time("mpi_rma_wait_at_create", "Wait at Create", "mpi_mgmt_win",
            "Waiting in MPI_Win_create for the last process to enter it (one-sided wait states are not analysed).");
    public static final int MPI_RMA_WAIT_AT_FREE = time("mpi_rma_wait_at_free", "Wait at Free", "mpi_mgmt_win",
            "Waiting in MPI_Win_free for the last process to enter it (one-sided wait states are not analysed).");
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
    public static final int MPI_RMA_SYNC_ACTIVE = time("mpi_rma_sync_active", "Active Target", "mpi_rma_synchronization",
            "Time in active-target synchronization calls (MPI_Win_complete/fence/post/start/test/wait).");
    public static final int MPI_RMA_SYNC_LATE_POST = time("mpi_rma_sync_late_post", "Late Post", "mpi_rma_sync_active",
            "One-sided wait state (not analysed).");
    public static final int MPI_RMA_EARLY_WAIT = time("mpi_rma_early_wait", "Early Wait", "mpi_rma_sync_active",
            "One-sided wait state (not analysed).");
    public static final int MPI_RMA_LATE_COMPLETE = time("mpi_rma_late_complete", "Late Complete", "mpi_rma_early_wait",
            "One-sided wait state (not analysed).");
    public static final int MPI_RMA_WAIT_AT_FENCE = time("mpi_rma_wait_at_fence", "Wait at Fence", "mpi_rma_sync_active",
            "One-sided wait state (not analysed).");
    public static final int MPI_RMA_EARLY_FENCE = time("mpi_rma_early_fence", "Early Fence", "mpi_rma_wait_at_fence",
            "One-sided wait state (not analysed).");
    public static final int MPI_RMA_SYNC_PASSIVE = time("mpi_rma_sync_passive", "Passive Target", "mpi_rma_synchronization",
            "Time in passive-target synchronization calls (MPI_Win_lock/unlock/flush/sync).");
    public static final int MPI_RMA_SYNC_LOCK_COMPETITION = time("mpi_rma_sync_lock_competition", "Lock Contention",
            "mpi_rma_sync_passive", "One-sided wait state (not analysed).");
    public static final int MPI_RMA_SYNC_WAIT_FOR_PROGRESS = time("mpi_rma_sync_wait_for_progress", "Wait for Progress",
            "mpi_rma_sync_passive", "One-sided wait state (not analysed).");
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
    public static final int MPI_RMA_COMM_LATE_POST = time("mpi_rma_comm_late_post", "Late Post", "mpi_rma_communication",
            "One-sided wait state (not analysed).");
    public static final int MPI_RMA_COMM_LOCK_COMPETITION = time("mpi_rma_comm_lock_competition", "Lock Contention",
            "mpi_rma_communication", "One-sided wait state (not analysed).");
    public static final int MPI_RMA_COMM_WAIT_FOR_PROGRESS = time("mpi_rma_comm_wait_for_progress", "Wait for Progress",
            "mpi_rma_communication", "One-sided wait state (not analysed).");
    public static final int MPI_IO = time("mpi_io", "File I/O", "mpi",
            "Time in MPI file read and write calls.");
    public static final int MPI_IO_INDIVIDUAL = time("mpi_io_individual", "Individual", "mpi_io",
            "Time in individual MPI file reads and writes.");
    public static final int MPI_IO_COLLECTIVE = time("mpi_io_collective", "Collective", "mpi_io",
            "Time in collective MPI file reads and writes.");
    public static final int OMP_TIME = time("omp_time", "OpenMP", "execution",
            "Time in the OpenMP runtime: team management, synchronization and flushes (docs/openmp.md).");
    public static final int OMP_MANAGEMENT = time("omp_management", "Management", "omp_time",
            "Time a thread spends between the master's fork and its entering the parallel region, and between its"
                    + " leaving it and the master's join.");
    public static final int OMP_FORK = time("omp_fork", "Fork", "omp_management",
            "The part of the management time between the master's fork and the thread entering the region.");
    public static final int OMP_SYNCHRONIZATION = time("omp_synchronization", "Synchronization", "omp_time",
            "Time in OpenMP barriers, critical sections, atomics, lock API calls, ordered regions and task waits.");
    public static final int OMP_BARRIER = time("omp_barrier", "Barrier", "omp_synchronization",
            "Time in OpenMP barriers, explicit and implicit.");
    public static final int OMP_EBARRIER = time("omp_ebarrier", "Explicit", "omp_barrier",
            "Time in explicit (#pragma omp barrier) OpenMP barriers.");
    public static final int OMP_EBARRIER_WAIT = time("omp_ebarrier_wait", "Wait at Barrier", "omp_ebarrier",
            "Time a thread waits in an explicit barrier for the last thread of its team to arrive.");
    public static final int OMP_IBARRIER = time("omp_ibarrier", "Implicit", "omp_barrier",
            "Time in the barriers OpenMP implies at the end of parallel regions and worksharing constructs.");
    public static final int OMP_IBARRIER_WAIT = time("omp_ibarrier_wait", "Wait at Barrier", "omp_ibarrier",
            "Time a thread waits in an implicit barrier for the last thread of its team to arrive.");
    public static final int OMP_CRITICAL = time("omp_critical", "Critical", "omp_synchronization",
            "Time in OpenMP critical sections (entering them) and atomics.");
    public static final int OMP_LOCK_CONTENTION_CRITICAL = time("omp_lock_contention_critical", "Lock Contention",
            "omp_critical", "Time a thread waits to enter a critical section another thread is still in.");
    public static final int OMP_LOCK_API = time("omp_lock_api", "Lock API", "omp_synchronization",
            "Time in the OpenMP lock routines (omp_init_lock ... omp_unset_nest_lock).");
    public static final int OMP_LOCK_CONTENTION_API = time("omp_lock_contention_api", "Lock Contention",
            "omp_lock_api", "Time a thread waits for an OpenMP lock another thread still holds.");
    public static final int OMP_ORDERED = time("omp_ordered", "Ordered", "omp_synchronization",
            "Time waiting to enter OpenMP ordered regions.");
    public static final int OMP_TASKWAIT = time("omp_taskwait", "Task Wait", "omp_synchronization",
            "Time in OpenMP taskwait directives.");
    public static final int OMP_FLUSH = time("omp_flush", "Flush", "omp_time",
            "Time in OpenMP flush directives.");
    public static final int PTHREAD_TIME = time("pthread_time", "POSIX threads", "execution",
            "Time in the POSIX threads API: thread management and synchronization (docs/openmp.md §8).");
    public static final int PTHREAD_MANAGEMENT = time("pthread_management", "Management", "pthread_time",
            "Time in pthread_create, pthread_join, pthread_exit, pthread_cancel and pthread_detach.");
    public static final int PTHREAD_SYNCHRONIZATION = time("pthread_synchronization", "Synchronization", "pthread_time",
            "Time in the POSIX threads mutex and condition-variable calls.");
    public static final int PTHREAD_LOCK_API = time("pthread_lock_api", "Mutex", "pthread_synchronization",
            "Time in pthread_mutex_init, _destroy, _lock, _trylock and _unlock.");
    public static final int PTHREAD_LOCK_CONTENTION_MUTEX_LOCK = time("pthread_lock_contention_mutex_lock",
            "Lock Contention", "pthread_lock_api",
            "Time a thread waits in pthread_mutex_lock or _trylock for a mutex another thread still holds.");
    public static final int PTHREAD_CONDITIONAL = time("pthread_conditional", "Condition", "pthread_synchronization",
            "Time in pthread_cond_init, _destroy, _signal, _broadcast, _wait and _timedwait.");
    public static final int PTHREAD_LOCK_CONTENTION_CONDITIONAL = time("pthread_lock_contention_conditional",
            "Lock Contention", "pthread_conditional",
            "Time a thread woken in pthread_cond_wait or _timedwait waits to take back the mutex another thread"
                    + " still holds.");
    public static final int OVERHEAD = time("overhead", "Overhead", "time",
            "Time the measurement system spent, e.g. flushing trace buffers.");
    public static final int OMP_IDLE_THREADS = time("omp_idle_threads", "Idle threads", "time",
            "CPU time reserved for a process's OpenMP threads but unused: the master's serial time on every worker,"
                    + " and the shortfall of threads that do less than the master inside a construct (docs/openmp.md).");
    public static final int OMP_LIMITED_PARALLELISM = time("omp_limited_parallelism", "Limited parallelism",
            "omp_idle_threads", "Idle time of threads that take a smaller part than the master in an OpenMP construct.");
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
    public static final int SYNCS_RMA = count("syncs_rma", "One-sided", "syncs",
            "One-sided synchronization calls.");
    public static final int SYNCS_RMA_ACTIVE = count("syncs_rma_active", "Active target", "syncs_rma",
            "Active-target synchronization calls.");
    public static final int SYNCS_RMA_PASSIVE = count("syncs_rma_passive", "Passive target", "syncs_rma",
            "Passive-target synchronization calls.");
    public static final int MPI_RMA_PAIRSYNC_COUNT = count("mpi_rma_pairsync_count",
            "MPI pair-wise one-sided synchronizations", null,
            "Pair-wise one-sided synchronizations (one-sided operations are not analysed).");
    public static final int MPI_RMA_PAIRSYNC_UNNEEDED_COUNT = count("mpi_rma_pairsync_unneeded_count",
            "Unneeded synchronizations", "mpi_rma_pairsync_count",
            "Pair-wise one-sided synchronizations without data transfer (not analysed).");
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
    public static final int COMMS_RMA = count("comms_rma", "One-sided", "comms",
            "One-sided communication calls.");
    public static final int COMMS_RMA_PUTS = count("comms_rma_puts", "Puts", "comms_rma",
            "MPI_Put and MPI_Rput calls.");
    public static final int COMMS_RMA_GETS = count("comms_rma_gets", "Gets", "comms_rma",
            "MPI_Get and MPI_Rget calls.");
    public static final int COMMS_RMA_ATOMICS = count("comms_rma_atomics", "Atomics", "comms_rma",
            "One-sided atomic calls.");
    public static final int MPI_FILE_OPS = count("mpi_file_ops", "MPI file operations", null,
            "MPI file operations.");
    public static final int MPI_FILE_IOPS = count("mpi_file_iops", "Individual", "mpi_file_ops",
            "Individual MPI file operations (reads, writes, and the individual management calls).");
    public static final int MPI_FILE_IROPS = count("mpi_file_irops", "Reads", "mpi_file_iops",
            "Individual MPI file reads.");
    public static final int MPI_FILE_IWOPS = count("mpi_file_iwops", "Writes", "mpi_file_iops",
            "Individual MPI file writes.");
    public static final int MPI_FILE_COPS = count("mpi_file_cops", "Collective", "mpi_file_ops",
            "Collective MPI file operations (reads, writes, and the collective management calls).");
    public static final int MPI_FILE_CROPS = count("mpi_file_crops", "Reads", "mpi_file_cops",
            "Collective MPI file reads.");
    public static final int MPI_FILE_CWOPS = count("mpi_file_cwops", "Writes", "mpi_file_cops",
            "Collective MPI file writes.");
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
    public static final int BYTES_RMA = bytes("bytes_rma", "One-sided", "bytes",
            "Bytes transferred by one-sided operations (not analysed).");
    public static final int BYTES_PUT = bytes("bytes_put", "Sent", "bytes_rma",
            "Bytes sent by one-sided operations (not analysed).");
    public static final int BYTES_GET = bytes("bytes_get", "Received", "bytes_rma",
            "Bytes received by one-sided operations (not analysed).");

    public static final int DELAY = time("delay", "Delay costs", null,
            "Time that delays on one process cause as waiting time on others (root causes of wait states).");
    public static final int DELAY_MPI = time("delay_mpi", "MPI", "delay",
            "Delay costs of MPI wait states.");
    public static final int DELAY_P2P = time("delay_p2p", "Point-to-point", "delay_mpi",
            "Delay costs of point-to-point wait states.");
    public static final int DELAY_LATESENDER_AGGREGATE = time("delay_latesender_aggregate", "Late Sender",
            "delay_p2p", "Delays that cause Late Sender wait states, directly or through propagation.");
    public static final int DELAY_LATESENDER = time("delay_latesender", "Short-term", "delay_latesender_aggregate",
            "Delays that directly cause Late Sender wait states.");
    public static final int DELAY_LATESENDER_LONGTERM = time("delay_latesender_longterm", "Long-term",
            "delay_latesender_aggregate", "Delays that cause Late Sender wait states through wait-state propagation.");
    public static final int DELAY_LATERECEIVER_AGGREGATE = time("delay_latereceiver_aggregate", "Late Receiver",
            "delay_p2p", "Delays that cause Late Receiver wait states, directly or through propagation.");
    public static final int DELAY_LATERECEIVER = time("delay_latereceiver", "Short-term",
            "delay_latereceiver_aggregate", "Delays that directly cause Late Receiver wait states.");
    public static final int DELAY_LATERECEIVER_LONGTERM = time("delay_latereceiver_longterm", "Long-term",
            "delay_latereceiver_aggregate",
            "Delays that cause Late Receiver wait states through wait-state propagation.");
    public static final int DELAY_COLLECTIVE = time("delay_collective", "Collective", "delay_mpi",
            "Delay costs of collective wait states.");
    public static final int DELAY_BARRIER_AGGREGATE = time("delay_barrier_aggregate", "Wait at Barrier",
            "delay_collective", "Delays that cause Wait at Barrier, directly or through propagation.");
    public static final int DELAY_BARRIER = time("delay_barrier", "Short-term", "delay_barrier_aggregate",
            "Delays that directly cause Wait at Barrier.");
    public static final int DELAY_BARRIER_LONGTERM = time("delay_barrier_longterm", "Long-term",
            "delay_barrier_aggregate", "Delays that cause Wait at Barrier through wait-state propagation.");
    public static final int DELAY_N21_AGGREGATE = time("delay_n21_aggregate", "Early Reduce", "delay_collective",
            "Delays that cause Early Reduce, directly or through propagation.");
    public static final int DELAY_N21 = time("delay_n21", "Short-term", "delay_n21_aggregate",
            "Delays that directly cause Early Reduce.");
    public static final int DELAY_N21_LONGTERM = time("delay_n21_longterm", "Long-term", "delay_n21_aggregate",
            "Delays that cause Early Reduce through wait-state propagation.");
    public static final int DELAY_12N_AGGREGATE = time("delay_12n_aggregate", "Late Broadcast", "delay_collective",
            "Delays that cause Late Broadcast, directly or through propagation.");
    public static final int DELAY_12N = time("delay_12n", "Short-term", "delay_12n_aggregate",
            "Delays that directly cause Late Broadcast.");
    public static final int DELAY_12N_LONGTERM = time("delay_12n_longterm", "Long-term", "delay_12n_aggregate",
            "Delays that cause Late Broadcast through wait-state propagation.");
    public static final int DELAY_N2N_AGGREGATE = time("delay_n2n_aggregate", "Wait at N x N", "delay_collective",
            "Delays that cause Wait at N x N, directly or through propagation.");
    public static final int DELAY_N2N = time("delay_n2n", "Short-term", "delay_n2n_aggregate",
            "Delays that directly cause Wait at N x N.");
    public static final int DELAY_N2N_LONGTERM = time("delay_n2n_longterm", "Long-term", "delay_n2n_aggregate",
            "Delays that cause Wait at N x N through wait-state propagation.");
    public static final int DELAY_OMP = time("delay_omp", "OpenMP", "delay",
            "Delay costs of OpenMP wait states and of idle worker threads.");
    public static final int DELAY_OMPBARRIER_AGGREGATE = time("delay_ompbarrier_aggregate", "Wait at Barrier",
            "delay_omp", "Delays that cause waiting at OpenMP barriers, directly or through propagation.");
    public static final int DELAY_OMPBARRIER = time("delay_ompbarrier", "Short-term", "delay_ompbarrier_aggregate",
            "Delays of the last thread that directly cause waiting at OpenMP barriers.");
    public static final int DELAY_OMPBARRIER_LONGTERM = time("delay_ompbarrier_longterm", "Long-term",
            "delay_ompbarrier_aggregate", "Delays that cause waiting at OpenMP barriers through wait-state propagation.");
    public static final int DELAY_OMPIDLE_AGGREGATE = time("delay_ompidle_aggregate", "Idleness delay costs",
            "delay_omp", "Delays that leave OpenMP worker threads idle, directly or through propagation.");
    public static final int DELAY_OMPIDLE = time("delay_ompidle", "Short-term", "delay_ompidle_aggregate",
            "Serial time of the master thread outside parallel regions, times the idle worker threads.");
    public static final int DELAY_OMPIDLE_LONGTERM = time("delay_ompidle_longterm", "Long-term",
            "delay_ompidle_aggregate",
            "Delays that leave worker threads idle by causing MPI waiting of their master outside parallel regions.");
    public static final int WAITSTATES_PROPAGATING_VS_TERMINAL = time("waitstates_propagating_vs_terminal",
            "MPI point-to-point wait states (propagating vs. terminal)", null,
            "Point-to-point waiting time split by whether it causes further waiting elsewhere.");
    public static final int MPI_WAIT_PROPAGATING = time("mpi_wait_propagating", "Propagating wait states",
            "waitstates_propagating_vs_terminal", "Point-to-point waiting that causes waiting on other processes.");
    public static final int MPI_WAIT_PROPAGATING_LS = time("mpi_wait_propagating_ls", "Late Sender",
            "mpi_wait_propagating", "Late Sender waiting that causes waiting on other processes.");
    public static final int MPI_WAIT_PROPAGATING_LR = time("mpi_wait_propagating_lr", "Late Receiver",
            "mpi_wait_propagating", "Late Receiver waiting that causes waiting on other processes.");
    public static final int MPI_WAIT_TERMINAL = time("mpi_wait_terminal", "Terminal wait states",
            "waitstates_propagating_vs_terminal", "Point-to-point waiting that does not propagate further.");
    public static final int MPI_WAIT_TERMINAL_LS = time("mpi_wait_terminal_ls", "Late Sender", "mpi_wait_terminal",
            "Late Sender waiting that does not propagate further.");
    public static final int MPI_WAIT_TERMINAL_LR = time("mpi_wait_terminal_lr", "Late Receiver",
            "mpi_wait_terminal", "Late Receiver waiting that does not propagate further.");
    public static final int WAITSTATES_DIRECT_VS_INDIRECT = time("waitstates_direct_vs_indirect",
            "MPI point-to-point wait states (direct vs. indirect)", null,
            "Point-to-point waiting split by whether a delay or propagated waiting caused it.");
    public static final int MPI_WAIT_DIRECT = time("mpi_wait_direct", "Direct wait states", "waitstates_direct_vs_indirect",
            "Point-to-point waiting caused directly by a delay.");
    public static final int MPI_WAIT_DIRECT_LATESENDER = time("mpi_wait_direct_latesender", "Late Sender",
            "mpi_wait_direct", "Late Sender waiting caused directly by a delay.");
    public static final int MPI_WAIT_DIRECT_LATERECEIVER = time("mpi_wait_direct_latereceiver", "Late Receiver",
            "mpi_wait_direct", "Late Receiver waiting caused directly by a delay.");
    public static final int MPI_WAIT_INDIRECT = time("mpi_wait_indirect", "Indirect wait states",
            "waitstates_direct_vs_indirect", "Point-to-point waiting caused by waiting on the delaying process.");
    public static final int MPI_WAIT_INDIRECT_LATESENDER = time("mpi_wait_indirect_latesender", "Late Sender",
            "mpi_wait_indirect", "Late Sender waiting caused by wait-state propagation.");
    public static final int MPI_WAIT_INDIRECT_LATERECEIVER = time("mpi_wait_indirect_latereceiver",
            "Late Receiver", "mpi_wait_indirect", "Late Receiver waiting caused by wait-state propagation.");
    public static final int CRITICAL_PATH = time("critical_path", "Critical path", null,
            "The call paths and processes that determine the run time, followed back from the last process.");
    public static final int CRITICAL_PATH_IMBALANCE = time("critical_path_imbalance", "Imbalance", "critical_path",
            "Critical-path time of a call path above its average time per process.");
    public static final int PERFORMANCE_IMPACT = time("performance_impact", "Performance impact", null,
            "Resource use of each call path including the waiting its imbalance causes.");
    public static final int PERFORMANCE_IMPACT_CRITICALPATH = time("performance_impact_criticalpath",
            "Critical-path activities", "performance_impact",
            "Resource use of activities on the critical path, including waiting they cause.");
    public static final int CRITICAL_PATH_ACTIVITIES = time("critical_path_activities", "Activity impact",
            "performance_impact_criticalpath", "Resource use of executing activities on the critical path.");
    public static final int CRITICAL_IMBALANCE_IMPACT = time("critical_imbalance_impact",
            "Imbalance impact", "performance_impact_criticalpath",
            "Waiting time mapped onto activities that take too long on the critical path.");
    public static final int INTRA_PARTITION_IMBALANCE = time("intra_partition_imbalance",
            "Intra-partition imbalance", "critical_imbalance_impact",
            "Imbalance impact within the process partitions on the critical path.");
    public static final int INTER_PARTITION_IMBALANCE = time("inter_partition_imbalance",
            "Inter-partition imbalance", "critical_imbalance_impact",
            "Imbalance impact between process partitions (MPMD).");
    public static final int NON_CRITICAL_PATH_ACTIVITIES = time("non_critical_path_activities",
            "Non-critical-path activities", "performance_impact",
            "Resource use of activities off the critical path: optimising them does not shorten the run.");
    public static final int IMBALANCE = time("imbalance", "Computational imbalance", null,
            "Per call path and process, the distance of its computation time from the mean over processes.");
    public static final int IMBALANCE_ABOVE = time("imbalance_above", "Overload", "imbalance",
            "Computation time above the mean over processes.");
    public static final int IMBALANCE_ABOVE_SINGLE = time("imbalance_above_single", "Single participant",
            "imbalance_above", "Computation done by one process only, which the others could have shared.");
    public static final int IMBALANCE_BELOW = time("imbalance_below", "Underload", "imbalance",
            "Computation time below the mean over processes.");
    public static final int IMBALANCE_BELOW_BYPASS = time("imbalance_below_bypass", "Non-participation",
            "imbalance_below", "The mean computation time of a call path this process never visits.");
    public static final int IMBALANCE_BELOW_SINGULARITY = time("imbalance_below_singularity", "Singularity",
            "imbalance_below_bypass", "Non-participation in a call path only one process visits.");

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

    /**
     * A metric's name where it is shown on its own, outside the metric tree: Scalasca's documentation name (the
     * DOCNAME of its pattern definition, CriticalPath.pattern) for the two whose display name reads right only under
     * their parent, "Imbalance" under "Critical path" and "Imbalance impact" under "Critical-path activities" (the
     * display names stay Scalasca's, so that our Cube files pair with its own); otherwise the display name, or the
     * unique name of a metric outside the tree. Reports use this so that no two metrics are both called "imbalance".
     */
    public static String standaloneName(String uniqueName) {
        return switch (uniqueName) {
            case "critical_path_imbalance" -> "Critical-path imbalance";
            case "critical_imbalance_impact" -> "Critical imbalance impact";
            // the OpenMP waits share their display names with MPI's ("Wait at Barrier") and each other's
            case "omp_ebarrier_wait" -> "Wait at explicit OpenMP barrier";
            case "omp_ibarrier_wait" -> "Wait at implicit OpenMP barrier";
            case "omp_lock_contention_critical" -> "OpenMP critical contention";
            case "omp_lock_contention_api" -> "OpenMP lock contention";
            // OpenMP's categories share "Management", "Synchronization", "Barrier" ... with MPI's
            case "omp_management" -> "OpenMP management";
            case "omp_fork" -> "OpenMP fork";
            case "omp_synchronization" -> "OpenMP synchronization";
            case "omp_barrier" -> "OpenMP barrier";
            case "omp_ebarrier" -> "Explicit OpenMP barrier";
            case "omp_ibarrier" -> "Implicit OpenMP barrier";
            case "omp_critical" -> "OpenMP critical";
            case "omp_lock_api" -> "OpenMP lock API";
            case "omp_ordered" -> "OpenMP ordered";
            case "omp_taskwait" -> "OpenMP task wait";
            case "omp_flush" -> "OpenMP flush";
            // the POSIX threads categories share "Management", "Synchronization", "Lock Contention" likewise
            case "pthread_time" -> "POSIX threads";
            case "pthread_management" -> "Pthread management";
            case "pthread_synchronization" -> "Pthread synchronization";
            case "pthread_lock_api" -> "Pthread mutex";
            case "pthread_lock_contention_mutex_lock" -> "Pthread mutex contention";
            case "pthread_conditional" -> "Pthread condition";
            case "pthread_lock_contention_conditional" -> "Pthread condition contention";
            // the OpenMP delay costs share "Short-term", "Long-term", "Wait at Barrier" with MPI's
            case "delay_omp" -> "OpenMP delay costs";
            case "delay_ompbarrier_aggregate" -> "OpenMP barrier delay costs";
            case "delay_ompbarrier" -> "Short-term OpenMP barrier delay costs";
            case "delay_ompbarrier_longterm" -> "Long-term OpenMP barrier delay costs";
            case "delay_ompidle_aggregate" -> "OpenMP idleness delay costs";
            case "delay_ompidle" -> "Short-term OpenMP idleness delay costs";
            case "delay_ompidle_longterm" -> "Long-term OpenMP idleness delay costs";
            default -> {
                int m = indexOf(uniqueName);
                yield m < 0 ? uniqueName : ALL.get(m).displayName();
            }
        };
    }

    /** First metric of the root-cause stage; metrics from here on are computed in seconds, not ticks. */
    public static final int FIRST_ROOT_CAUSE = DELAY;

    /** True for metrics measured in seconds (held as ticks during the analysis). */
    public static boolean isTime(int metric) {
        return ALL.get(metric).unit().equals("sec");
    }
}
