/**
 * Ground truth for every analysis: simulated MPI programs whose wait states are known in closed form.
 *
 * <h2>Use</h2>
 * <pre>{@code
 * Scenario s = Scenarios.byName("late-sender");                 // Scenarios.all() for --list
 * ScenarioParams p = new ScenarioParams(8, seed, Map.of("extra", "0.5", "comm", "halves"));
 * GeneratedTrace g = s.generate(p, traceWriter);                // MemoryTrace, StoreWriter, ...
 * g.expected().write(Path.of("late-sender.expected.json"));     // or s.expected(p) without generating
 * ScalingFamily.generate(Scenarios.byName("bt-like"), List.of(4, 16, 64), 3, seed, Map.of(), sink);
 * }</pre>
 *
 * <h2>Simulator</h2>
 * {@link dev.straggler.testdata.sim.Simulator} runs an SPMD {@link dev.straggler.testdata.sim.Program} (nested user
 * functions, computation, MPI calls) on p ranks in simulated time. All timestamps come from the
 * {@link dev.straggler.testdata.sim.NetworkModel} (latency, bandwidth, eager threshold, call overhead, collective
 * costs, exit stagger), so wait states emerge from the program; per-rank clock offset and drift
 * ({@link dev.straggler.testdata.sim.ClockSkew}) violate the clock condition on purpose. Events are recorded as
 * Score-P 8 records them (reference §6.6): MPI regions have source file "MPI", paradigm MPI and Score-P's roles
 * (MPI_Wait, MPI_Waitall, MPI_Init, MPI_Finalize, MPI_Comm_split: FUNCTION); MPI_Init, MPI_Finalize and
 * MPI_Comm_split carry CREATE_HANDLE / DESTROY_HANDLE collective records on which Scalasca computes no wait state;
 * collective byte counts follow Score-P's rules. Timer: 1 ns ticks. Each rank's events reach the writer in batches
 * of at most 8 K events as the rank advances, so memory does not grow with the trace.
 *
 * <p>Hybrid MPI+OpenMP programs ({@link dev.straggler.testdata.sim.ProgramBuilder#threads},
 * {@code parallel}, {@code ompBarrier}, {@code critical}) give every rank a team of T threads: its master (thread 0,
 * location = rank) and T−1 workers (CPU_THREAD locations of the rank's group, OTF2 id t &lt;&lt; 32 | rank, indexed
 * t × p + rank after the masters, as an OTF2 reader orders them). They are recorded as Score-P 8 with OPARI2
 * records them (docs/openmp.md §1–§5): MPI_Init_thread; on the master THREAD_FORK (T requested threads) before
 * {@code !$omp parallel @file:line} and THREAD_JOIN after it; every thread's region from its ENTER (a worker's first
 * event) to its LEAVE, barriers as {@code !$omp barrier} (role BARRIER) or {@code !$omp implicit barrier}
 * (IMPLICIT_BARRIER), critical sections as {@code !$omp critical} (CRITICAL) around THREAD_ACQUIRE_LOCK,
 * {@code !$omp critical sblock} (CRITICAL_SBLOCK), THREAD_RELEASE_LOCK, with one lock per critical name and
 * acquisition orders 1, 2, 3 … per lock across the process. MPI runs on the masters outside parallel regions
 * (MPI_THREAD_FUNNELED). Timing ({@link dev.straggler.testdata.sim.ThreadModel}): thread t enters a region
 * fork + t·fork_stagger after the fork; a barrier is left by all at the latest entry + barrier; a critical section
 * is granted in the order of the requests (ties by thread number) when its previous holder releases it; the master
 * records THREAD_JOIN {@code join} after the threads leave the region.
 *
 * <h2>Expectations</h2>
 * {@link dev.straggler.testdata.ExpectedSeverities} are derived from the parameters with the same cost model and
 * Scalasca 2.6's definitions (reference §1.3–1.4: clipping, sync points, payload rules, wrong-order buffer,
 * multi-wait maximum, exclusion of Alltoallv and size-1 communicators, Init/Finalize), never from the trace;
 * tests check them against the timestamps of the generated traces with an independent recomputation. Entries of
 * hybrid scenarios name the OpenMP thread; their metrics include every OpenMP metric of docs/openmp.md (management,
 * fork, barrier waits, lock contention, idle threads, limited parallelism) and, where derived, the root causes
 * across threads.
 *
 * <h2>Catalogue</h2> (closed forms for synchronised starts; the expectation files hold the exact values, network
 * terms included)
 * <table>
 *   <tr><th>scenario</th><th>expected</th></tr>
 *   <tr><td>late-sender (-nonblocking)</td><td>mpi_latesender ≈ extra per repetition at each receiver's MPI_Recv
 *       (MPI_Wait)</td></tr>
 *   <tr><td>late-receiver (-nonblocking)</td><td>mpi_latereceiver ≈ extra at MPI_Ssend or rendezvous MPI_Send
 *       (the sender's MPI_Wait); 0 with an eager MPI_Send</td></tr>
 *   <tr><td>waitall-late-senders</td><td>mpi_latesender = (p−1)·extra − (p−1)·overhead at rank 0's MPI_Waitall</td></tr>
 *   <tr><td>imbalance-at-barrier / -alltoall / -allreduce / -allgather</td><td>wait = max_k w_k − w_j at every
 *       rank (mpi_barrier_wait / mpi_wait_nxn)</td></tr>
 *   <tr><td>late-broadcast, late-scatter</td><td>mpi_latebroadcast = high − low at every non-root</td></tr>
 *   <tr><td>early-reduce, early-gather</td><td>mpi_earlyreduce = low − high at the root</td></tr>
 *   <tr><td>early-scan</td><td>mpi_earlyscan at rank i = max_{k≤i} w_k − w_i</td></tr>
 *   <tr><td>wrong-order-different / -same, right-order</td><td>mpi_lswo_different (same) = the first receive's late
 *       sender; right-order: late senders, no wrong order</td></tr>
 *   <tr><td>barrier-completion, nxn-completion</td><td>completion = stagger × rank</td></tr>
 *   <tr><td>alltoallv-excluded, size1-comm-excluded</td><td>no collective wait state</td></tr>
 *   <tr><td>clock-violation</td><td>late sender clipped to the receive's duration; skewed Init/Finalize</td></tr>
 *   <tr><td>imbalance-delay-barrier / -allreduce / -sends</td><td>root causes: delay_barrier / delay_n2n /
 *       delay_latesender = reps × (p−1) × delta at the slow rank's imbalanced_work, nothing elsewhere</td></tr>
 *   <tr><td>late-sender-chain</td><td>root causes: Late Sender chain 0 → … → p−1; short- vs long-term delay,
 *       direct vs indirect and propagating vs terminal waiting, critical path along the chain</td></tr>
 *   <tr><td>critical-path-slowest-rank</td><td>root causes: critical path through the slow rank's solve and
 *       the writer's write_output; critical-path imbalance and performance impact</td></tr>
 *   <tr><td>critical-path-master-worker</td><td>root causes: rank 0's manage and rank p−1's work take turns on the
 *       critical path (MPMD partitions); imbalance impact split into inter-partition (waiting for the other
 *       partition's routine) and intra-partition imbalance, activities and non-critical activities per rank</td></tr>
 *   <tr><td>critical-path-extra-routine</td><td>root causes: one rank alone runs extra before each barrier; imbalance
 *       impact (p−1)·reps·extra there, no inter-partition imbalance at all (that rank's empty headroom gives 0/0 =
 *       NaN, as in Scalasca), so all of it is intra-partition</td></tr>
 *   <tr><td>critical-path-producer-consumer</td><td>root causes: rank 0 produces and sends to ranks 1 … p−1 in
 *       turn, which receive (Late Sender) and consume; critical path through all of produce and the last consume;
 *       all imbalance impact inter-partition, none intra-partition</td></tr>
 *   <tr><td>critical-path-many-routines</td><td>root causes: one rank runs more than 128 distinct routines between
 *       two synchronisation points; Scalasca's 128-entry time maps keep them off the critical path (the interval's
 *       map) and take a routine's local time (the whole-run map): activities, imbalance impact and inter-partition
 *       imbalance as the bounded maps give them</td></tr>
 *   <tr><td>omp-imbalance-explicit-barrier / -implicit-barrier</td><td>hybrid, T threads per rank: thread t works
 *       work + t·delta, then omp_ebarrier_wait (resp. omp_ibarrier_wait) = (T−1−t)·delta per region at the barrier's
 *       call path ((T−1−t)·(delta + omp.fork_stagger) in general)</td></tr>
 *   <tr><td>omp-critical-contention</td><td>hybrid: all threads enter a critical section of length c at once:
 *       omp_lock_contention_critical = k·c for the k-th acquirer (k = 0 … T−1) per region, from its ENTER of
 *       {@code !$omp critical} to the previous release; omp_ibarrier_wait = (T−1−k)·c</td></tr>
 *   <tr><td>omp-serial-phase</td><td>hybrid: the master runs s alone between two parallel regions: omp_idle_threads
 *       = reps·s on every worker at serial_phase (and the master's MPI_Init_thread / MPI_Finalize time there);
 *       omp_fork = reps·(fork + t·fork_stagger), omp_management = that + reps·join per region and thread</td></tr>
 *   <tr><td>hybrid-omp-to-late-sender</td><td>hybrid, BT-MZ-like: rank 0's slow thread works delta longer, then
 *       rank 0 sends to ranks 1 … p−1: omp_ibarrier_wait = delta on rank 0's other threads, mpi_latesender = delta
 *       on every receiver, omp_idle_threads = delta on its workers, per repetition. Pending (Scalasca 2.6's rules,
 *       derived in the class's javadoc): delay_ompbarrier = reps·(T−1)·delta, delay_latesender_longterm =
 *       reps·(p−1)·delta, delay_ompidle_longterm = reps·(p−1)(T−1)·delta, critical_path = reps·(work + delta), all at
 *       the slow thread's work; delay_latesender = 0</td></tr>
 *   <tr><td>deep-calltree</td><td>include-list ground truth: the helpers (&gt;98% of function events) are excluded</td></tr>
 *   <tr><td>bt-like, sweep3d-like</td><td>model-level: designed-bad / designed-good callsites</td></tr>
 *   <tr><td>gyro-like</td><td>exact; Wait at N×N in the sub-communicator Alltoall at p = 192, none at 128</td></tr>
 *   <tr><td>graph500-like</td><td>exact; run time c0 + c1/p + c2/√p</td></tr>
 * </table>
 * The root-cause scenarios ({@code imbalance-delay-*}, {@code late-sender-chain}, {@code critical-path-slowest-rank})
 * also predict delay costs, wait-state classes and critical-path metrics (reference §1.6) in closed form, and
 * {@code critical-path-master-worker}, {@code critical-path-extra-routine}, {@code critical-path-producer-consumer}
 * and {@code critical-path-many-routines} the critical-path metrics only; they
 * default to a network without latency and call overhead, which those closed forms assume.
 * Every ATS-like scenario takes {@code comm=world|halves|self} to run on MPI_COMM_WORLD, on the two halves of an
 * MPI_Comm_split, or on size-1 communicators. The hybrid scenarios take {@code threads} and the OpenMP overheads
 * {@code omp.fork}, {@code omp.fork_stagger}, {@code omp.join}, {@code omp.barrier};
 * {@code hybrid-omp-to-late-sender} defaults to an ideal network and free OpenMP overheads, for which its root
 * causes are derived.
 */
package dev.straggler.testdata;
