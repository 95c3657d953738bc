package dev.straggler.testdata.sim;

import dev.straggler.trace.Paradigm;
import dev.straggler.trace.Region;
import dev.straggler.trace.RegionRole;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.ToIntFunction;
import java.util.function.ToLongFunction;

/**
 * Builds a {@link Program}. Regions get ids in the order they are first used. User functions are recorded as
 * Score-P's compiler instrumentation records them (paradigm COMPILER, role FUNCTION, with source file and line);
 * MPI calls as its MPI adapter does (paradigm MPI, source file "MPI", role per {@link MpiCall}); OpenMP constructs
 * as Score-P 8's OPARI2 adapter does (paradigm OPENMP, named {@code !$omp parallel @file:line} and so on, with the
 * source file and lines, roles PARALLEL, IMPLICIT_BARRIER, BARRIER, CRITICAL, CRITICAL_SBLOCK). A program with
 * OpenMP constructs initialises MPI with MPI_Init_thread, as a hybrid program must (MPI_THREAD_FUNNELED: MPI calls
 * only on the master thread, outside parallel regions).
 *
 * <p>Peers and roots are ranks within the communicator of the given slot, as in MPI. Not thread-safe.
 */
public final class ProgramBuilder {
    private final String sourceFile;
    private final List<Region> regions = new ArrayList<>();
    private final Map<String, Integer> userRegions = new HashMap<>();
    private final Map<MpiCall, Integer> mpiRegions = new EnumMap<>(MpiCall.class);
    private final Map<String, Integer> ompRegions = new HashMap<>();
    private final Map<String, Integer> locks = new HashMap<>();
    private int commSlots = 1;
    private int requestSlots;
    private int threads = 1;
    private boolean openMp;

    /** @param sourceFile the source file user functions are attributed to unless a call names another */
    public ProgramBuilder(String sourceFile) {
        this.sourceFile = sourceFile;
    }

    /** A new communicator slot, to be filled by {@link #commSplit}. */
    public int newCommSlot() {
        return commSlots++;
    }

    /** Declares that request slots {@code 0 .. n-1} are used. */
    public ProgramBuilder requestSlots(int n) {
        requestSlots = Math.max(requestSlots, n);
        return this;
    }

    /** Runs every parallel region with a team of {@code n} threads (OMP_NUM_THREADS = n). */
    public ProgramBuilder threads(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("a team needs at least one thread: " + n);
        }
        threads = n;
        return this;
    }

    public Node seq(Node... nodes) {
        return new Node.Seq(nodes);
    }

    public Node loop(int count, Node... body) {
        return new Node.Loop(c -> count, seq(body));
    }

    public Node loop(ToIntFunction<Ctx> count, Node... body) {
        return new Node.Loop(count, seq(body));
    }

    /** A call of user function {@code name} defined at {@code line} of the builder's source file. */
    public Node call(String name, int line, Node... body) {
        return call(name, sourceFile, line, body);
    }

    public Node call(String name, String file, int line, Node... body) {
        return new Node.Call(userRegion(name, file, line), body.length == 0 ? null : seq(body));
    }

    public Node compute(long ticks) {
        return new Node.Compute(c -> ticks);
    }

    public Node compute(ToLongFunction<Ctx> ticks) {
        return new Node.Compute(ticks);
    }

    public Node when(Predicate<Ctx> test, Node then) {
        return new Node.If(test, then, null);
    }

    public Node when(Predicate<Ctx> test, Node then, Node otherwise) {
        return new Node.If(test, then, otherwise);
    }

    // ---- OpenMP

    /**
     * {@code #pragma omp parallel} at lines {@code line .. endLine}: every thread of the team runs {@code body}, then
     * the team meets in the implicit barrier at {@code endLine}. The body may hold local statements (their amounts
     * may depend on {@link Ctx#thread()}), {@link #ompBarrier} and {@link #critical}, no MPI call and no nested
     * parallel region.
     */
    public Node parallel(int line, int endLine, Node... body) {
        openMp = true;
        int region = ompRegion("!$omp parallel", line, endLine, RegionRole.PARALLEL);
        int barrier = ompRegion("!$omp implicit barrier", endLine, endLine, RegionRole.IMPLICIT_BARRIER);
        return new Node.Parallel(region, barrier, seq(body));
    }

    /** {@code #pragma omp barrier} at {@code line}, inside a parallel region. */
    public Node ompBarrier(int line) {
        openMp = true;
        return new Node.OmpBarrier(ompRegion("!$omp barrier", line, line, RegionRole.BARRIER));
    }

    /** An unnamed {@code #pragma omp critical} at lines {@code line .. endLine} around {@code body} (local statements). */
    public Node critical(int line, int endLine, Node... body) {
        return critical("", line, endLine, body);
    }

    /**
     * {@code #pragma omp critical(name)}: critical sections of one name share one lock of the process (the unnamed
     * ones, name "", share another), numbered in the order the names first appear. The region names are those of
     * the unnamed construct; the name selects the lock only.
     */
    public Node critical(String name, int line, int endLine, Node... body) {
        openMp = true;
        int lock = locks.computeIfAbsent(name, k -> locks.size());
        int region = ompRegion("!$omp critical", line, endLine, RegionRole.CRITICAL);
        int sblock = ompRegion("!$omp critical sblock", line, endLine, RegionRole.CRITICAL_SBLOCK);
        return new Node.Critical(region, sblock, lock, seq(body));
    }

    private int ompRegion(String construct, int line, int endLine, RegionRole role) {
        String file = sourceFile.substring(sourceFile.lastIndexOf('/') + 1);
        String name = construct + " @" + file + ":" + line;
        return ompRegions.computeIfAbsent(name, k -> {
            int nid = regions.size();
            regions.add(new Region(nid, name, name, sourceFile, line, endLine, Paradigm.OPENMP, role));
            return nid;
        });
    }

    // ---- point-to-point

    public Node send(int comm, ToIntFunction<Ctx> dest, int tag, ToLongFunction<Ctx> bytes) {
        return mpi(MpiCall.SEND, comm, dest, c -> tag, bytes, null, null, null, null, null, null, -1);
    }

    public Node send(int comm, ToIntFunction<Ctx> dest, ToIntFunction<Ctx> tag, ToLongFunction<Ctx> bytes) {
        return mpi(MpiCall.SEND, comm, dest, tag, bytes, null, null, null, null, null, null, -1);
    }

    public Node ssend(int comm, ToIntFunction<Ctx> dest, int tag, ToLongFunction<Ctx> bytes) {
        return mpi(MpiCall.SSEND, comm, dest, c -> tag, bytes, null, null, null, null, null, null, -1);
    }

    /** MPI_Recv from {@code source} ({@link Program#ANY_SOURCE} allowed) with {@code tag} ({@link Program#ANY_TAG} allowed). */
    public Node recv(int comm, ToIntFunction<Ctx> source, int tag) {
        return mpi(MpiCall.RECV, comm, source, c -> tag, null, null, null, null, null, null, null, -1);
    }

    public Node recv(int comm, ToIntFunction<Ctx> source, ToIntFunction<Ctx> tag) {
        return mpi(MpiCall.RECV, comm, source, tag, null, null, null, null, null, null, null, -1);
    }

    public Node isend(int comm, ToIntFunction<Ctx> dest, ToIntFunction<Ctx> tag, ToLongFunction<Ctx> bytes,
                      ToIntFunction<Ctx> slot) {
        return mpi(MpiCall.ISEND, comm, dest, tag, bytes, null, null, null, slot, null, null, -1);
    }

    public Node irecv(int comm, ToIntFunction<Ctx> source, ToIntFunction<Ctx> tag, ToIntFunction<Ctx> slot) {
        return mpi(MpiCall.IRECV, comm, source, tag, null, null, null, null, slot, null, null, -1);
    }

    /** MPI_Wait on a request slot; an empty slot is MPI_REQUEST_NULL and returns at once. */
    public Node await(ToIntFunction<Ctx> slot) {
        return mpi(MpiCall.WAIT, Program.WORLD, null, null, null, null, null, null, slot, null, null, -1);
    }

    /** MPI_Waitall on request slots {@code first .. first+count-1}; empty slots are MPI_REQUEST_NULL. */
    public Node waitall(ToIntFunction<Ctx> first, ToIntFunction<Ctx> count) {
        return mpi(MpiCall.WAITALL, Program.WORLD, null, null, null, null, null, null, first, count, null, -1);
    }

    public Node sendrecv(int comm, ToIntFunction<Ctx> dest, int sendTag, ToLongFunction<Ctx> bytes,
                         ToIntFunction<Ctx> source, int recvTag) {
        return mpi(MpiCall.SENDRECV, comm, dest, c -> sendTag, bytes, source, c -> recvTag, null, null, null, null, -1);
    }

    // ---- collectives

    public Node barrier(int comm) {
        return collective(MpiCall.BARRIER, comm, null, c -> 0L);
    }

    public Node bcast(int comm, int root, ToLongFunction<Ctx> bytes) {
        return collective(MpiCall.BCAST, comm, c -> root, bytes);
    }

    public Node scatter(int comm, int root, ToLongFunction<Ctx> bytes) {
        return collective(MpiCall.SCATTER, comm, c -> root, bytes);
    }

    public Node gather(int comm, int root, ToLongFunction<Ctx> bytes) {
        return collective(MpiCall.GATHER, comm, c -> root, bytes);
    }

    public Node reduce(int comm, int root, ToLongFunction<Ctx> bytes) {
        return collective(MpiCall.REDUCE, comm, c -> root, bytes);
    }

    public Node allreduce(int comm, ToLongFunction<Ctx> bytes) {
        return collective(MpiCall.ALLREDUCE, comm, null, bytes);
    }

    public Node allgather(int comm, ToLongFunction<Ctx> bytes) {
        return collective(MpiCall.ALLGATHER, comm, null, bytes);
    }

    /** MPI_Alltoall with {@code bytes} to each peer. */
    public Node alltoall(int comm, ToLongFunction<Ctx> bytes) {
        return collective(MpiCall.ALLTOALL, comm, null, bytes);
    }

    /** MPI_Alltoallv; {@code sent} and {@code received} are the rank's totals over all peers. */
    public Node alltoallv(int comm, ToLongFunction<Ctx> sent, ToLongFunction<Ctx> received) {
        return mpi(MpiCall.ALLTOALLV, comm, null, null, sent, null, null, received, null, null, null, -1);
    }

    public Node scan(int comm, ToLongFunction<Ctx> bytes) {
        return collective(MpiCall.SCAN, comm, null, bytes);
    }

    /**
     * MPI_Comm_split of the communicator in {@code parent}: ranks with the same colour form a communicator,
     * ordered by (key, parent rank), stored in {@code resultSlot}; a negative colour (MPI_UNDEFINED) gets none.
     */
    public Node commSplit(int parent, ToIntFunction<Ctx> color, ToIntFunction<Ctx> key, int resultSlot) {
        if (resultSlot <= Program.WORLD || resultSlot >= commSlots) {
            throw new IllegalArgumentException("result slot " + resultSlot + " was not created by newCommSlot()");
        }
        return mpi(MpiCall.COMM_SPLIT, parent, color, key, null, null, null, null, null, null, null, resultSlot);
    }

    private Node collective(MpiCall call, int comm, ToIntFunction<Ctx> root, ToLongFunction<Ctx> bytes) {
        return mpi(call, comm, null, null, bytes, null, null, null, null, null, root, -1);
    }

    private Node mpi(MpiCall call, int comm, ToIntFunction<Ctx> peer, ToIntFunction<Ctx> tag, ToLongFunction<Ctx> bytes,
                     ToIntFunction<Ctx> peer2, ToIntFunction<Ctx> tag2, ToLongFunction<Ctx> bytes2,
                     ToIntFunction<Ctx> request, ToIntFunction<Ctx> count, ToIntFunction<Ctx> root, int resultSlot) {
        if (comm < 0 || comm >= commSlots) {
            throw new IllegalArgumentException("communicator slot " + comm + " does not exist");
        }
        return new Node.Mpi(call, mpiRegion(call), comm, peer, tag, bytes, peer2, tag2, bytes2, request, count, root,
                resultSlot);
    }

    // ---- the whole program

    /**
     * {@code name} (e.g. "main") calling MPI_Init (MPI_Init_thread when the program has OpenMP constructs), then
     * {@code body}, then MPI_Finalize.
     */
    public Program program(String name, int line, Node... body) {
        Node init = openMp ? initThread()
                : mpi(MpiCall.INIT, Program.WORLD, null, null, null, null, null, null, null, null, null, -1);
        Node[] all = new Node[body.length + 2];
        all[0] = init;
        System.arraycopy(body, 0, all, 1, body.length);
        all[all.length - 1] = mpi(MpiCall.FINALIZE, Program.WORLD, null, null, null, null, null, null, null, null, null, -1);
        Node root = call(name, line, all);
        return new Program(root, regions, commSlots, requestSlots, threads, locks.size());
    }

    /** MPI_Init_thread: MPI_Init's semantics and records under its own region, as Score-P records it. */
    private Node initThread() {
        int id = regions.size();
        regions.add(new Region(id, "MPI_Init_thread", "MPI_Init_thread", "MPI", 0, 0, Paradigm.MPI,
                MpiCall.INIT.role()));
        return new Node.Mpi(MpiCall.INIT, id, Program.WORLD, null, null, null, null, null, null, null, null, null, -1);
    }

    /** The id of a user function, defining it on first use. */
    public int userRegion(String name, String file, int line) {
        Integer id = userRegions.get(name);
        if (id != null) {
            return id;
        }
        int nid = regions.size();
        regions.add(new Region(nid, name, name, file, line, line, Paradigm.COMPILER, RegionRole.FUNCTION));
        userRegions.put(name, nid);
        return nid;
    }

    private int mpiRegion(MpiCall call) {
        return mpiRegions.computeIfAbsent(call, c -> {
            int nid = regions.size();
            regions.add(new Region(nid, c.regionName(), c.regionName(), "MPI", 0, 0, Paradigm.MPI, c.role()));
            return nid;
        });
    }
}
