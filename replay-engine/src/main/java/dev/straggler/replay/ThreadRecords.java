package dev.straggler.replay;

import it.unimi.dsi.fastutil.bytes.ByteArrayList;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.LongArrayList;

/**
 * What the thread-level (OpenMP) analysis needs of one location, kept by its replay like the communication
 * records: the master's forks (with its call stack at each, where the team's call paths hang, docs/openmp.md §2)
 * and joins, every thread's parallel-region and barrier instances in stream order (the k-th of each thread of a
 * process form one team instance), and the lock acquisitions and releases of OpenMP and POSIX threads. Grows with OpenMP constructs, never
 * with ENTER/LEAVE events. Call paths are the location's local ones.
 */
public final class ThreadRecords implements java.io.Serializable {
    // forks: time, and the region ids of the call stack at the fork (flattened; stack f is [start(f), start(f+1)))
    private final LongArrayList forkTime = new LongArrayList();
    private final IntArrayList forkStackStart = new IntArrayList();
    private final IntArrayList forkStackRegions = new IntArrayList();
    private final LongArrayList joinTime = new LongArrayList();

    private final IntArrayList parallelPath = new IntArrayList();
    private final LongArrayList parallelEnter = new LongArrayList();
    private final LongArrayList parallelLeave = new LongArrayList();

    private final IntArrayList barrierPath = new IntArrayList();
    private final LongArrayList barrierEnter = new LongArrayList();
    private final ByteArrayList barrierKind = new ByteArrayList();
    /** Per barrier, the ticks this thread spent executing tasks inside it (task regions directly in the barrier). */
    private final LongArrayList barrierTasks = new LongArrayList();

    // lock records: OpenMP's (critical sections, lock API) and POSIX threads' (mutexes, condition variables)
    private final ByteArrayList acquireModel = new ByteArrayList();
    private final IntArrayList acquireLock = new IntArrayList();
    private final LongArrayList acquireOrder = new LongArrayList();
    private final IntArrayList acquirePath = new IntArrayList();
    private final LongArrayList acquireRegionEnter = new LongArrayList();
    private final ByteArrayList acquireConstruct = new ByteArrayList();

    private final ByteArrayList releaseModel = new ByteArrayList();
    private final IntArrayList releaseLock = new IntArrayList();
    private final LongArrayList releaseOrder = new LongArrayList();
    private final LongArrayList releaseTime = new LongArrayList();

    /** Parallel regions entered while another was open on this thread (Scalasca supports no nesting). */
    private long nestedParallel;
    /** Lock records of the OpenMP model, acquisitions and releases. */
    private int openMpLocks;

    // --- writing (the location's replay) ---------------------------------------------------------------------

    void fork(long t, int[] stackRegions, int depth) {
        forkTime.add(t);
        forkStackStart.add(forkStackRegions.size());
        forkStackRegions.addElements(forkStackRegions.size(), stackRegions, 0, depth);
    }

    void join(long t) {
        joinTime.add(t);
    }

    /** A parallel region entered; returns its instance index on this thread. */
    int parallelEnter(int path, long t) {
        parallelPath.add(path);
        parallelEnter.add(t);
        parallelLeave.add(t);
        return parallelPath.size() - 1;
    }

    void parallelLeave(int instance, long t) {
        parallelLeave.set(instance, t);
    }

    void nestedParallel() {
        nestedParallel++;
    }

    void barrier(int path, long enter, byte kind) {
        barrierPath.add(path);
        barrierEnter.add(enter);
        barrierKind.add(kind);
        barrierTasks.add(0L);
    }

    /** Lock records of OpenMP (the OTF2 paradigm of the record). */
    public static final byte OPENMP_LOCK = 0;
    /** Lock records of POSIX threads. */
    public static final byte PTHREAD_LOCK = 1;

    void acquire(byte model, int lock, long order, int path, long regionEnter, byte construct) {
        if (model == OPENMP_LOCK) {
            openMpLocks++;
        }
        acquireModel.add(model);
        acquireLock.add(lock);
        acquireOrder.add(order);
        acquirePath.add(path);
        acquireRegionEnter.add(regionEnter);
        acquireConstruct.add(construct);
    }

    void release(byte model, int lock, long order, long t) {
        if (model == OPENMP_LOCK) {
            openMpLocks++;
        }
        releaseModel.add(model);
        releaseLock.add(lock);
        releaseOrder.add(order);
        releaseTime.add(t);
    }

    /** True when the location recorded nothing for the thread level: no OpenMP construct, no lock record. */
    public boolean isEmpty() {
        return forkTime.isEmpty() && joinTime.isEmpty() && parallelPath.isEmpty() && barrierPath.isEmpty()
                && acquireLock.isEmpty() && releaseLock.isEmpty();
    }

    /**
     * True when the location recorded something of OpenMP: a fork, join, parallel region, barrier or OpenMP lock
     * record. Pthread mutexes alone make no OpenMP thread: they neither
     * reserve idle CPU time nor belong to a team's fork and join.
     */
    public boolean hasOpenMp() {
        return !forkTime.isEmpty() || !joinTime.isEmpty() || !parallelPath.isEmpty() || !barrierPath.isEmpty()
                || openMpLocks > 0;
    }

    // --- reading ---------------------------------------------------------------------------------------------

    public int forks() {
        return forkTime.size();
    }

    public long forkTime(int f) {
        return forkTime.getLong(f);
    }

    /** The region ids of the call stack at fork {@code f}, outermost first. */
    /** Number of regions in the call stack at fork {@code f}. */
    public int forkStackDepth(int f) {
        return forkStackEnd(f) - forkStackStart.getInt(f);
    }

    /** Region {@code i} (0: the outermost) of the call stack at fork {@code f}; no copy, unlike {@link #forkStack}. */
    public int forkStackRegion(int f, int i) {
        return forkStackRegions.getInt(forkStackStart.getInt(f) + i);
    }

    private int forkStackEnd(int f) {
        return f + 1 < forkStackStart.size() ? forkStackStart.getInt(f + 1) : forkStackRegions.size();
    }

    public int[] forkStack(int f) {
        int from = forkStackStart.getInt(f);
        int to = f + 1 < forkStackStart.size() ? forkStackStart.getInt(f + 1) : forkStackRegions.size();
        return forkStackRegions.subList(from, to).toIntArray();
    }

    public int joins() {
        return joinTime.size();
    }

    public long joinTime(int j) {
        return joinTime.getLong(j);
    }

    public int parallels() {
        return parallelPath.size();
    }

    public int parallelPath(int k) {
        return parallelPath.getInt(k);
    }

    public long parallelEnter(int k) {
        return parallelEnter.getLong(k);
    }

    public long parallelLeave(int k) {
        return parallelLeave.getLong(k);
    }

    public long nestedParallelRegions() {
        return nestedParallel;
    }

    public int barriers() {
        return barrierPath.size();
    }

    public int barrierPath(int k) {
        return barrierPath.getInt(k);
    }

    public long barrierEnter(int k) {
        return barrierEnter.getLong(k);
    }

    /** A task executed inside the last barrier entered, for {@code ticks}. */
    void barrierTask(long ticks) {
        int k = barrierTasks.size() - 1;
        barrierTasks.set(k, barrierTasks.getLong(k) + ticks);
    }

    /**
     * The ticks this thread spent executing tasks inside its k-th barrier (the task regions entered and left there):
     * Scalasca subtracts them from the barrier's waiting time (OMP.pattern, {@code mTaskExecutionTime}).
     */
    public long barrierTaskTicks(int k) {
        return barrierTasks.getLong(k);
    }

    /** {@link RegionTable#BARRIER} or {@link RegionTable#IMPLICIT_BARRIER}. */
    public byte barrierKind(int k) {
        return barrierKind.getByte(k);
    }

    public int acquisitions() {
        return acquireLock.size();
    }

    /** {@link #OPENMP_LOCK} or {@link #PTHREAD_LOCK}: which threading model's lock (ids are per model). */
    public byte acquireModel(int i) {
        return acquireModel.getByte(i);
    }

    public int acquireLock(int i) {
        return acquireLock.getInt(i);
    }

    public long acquireOrder(int i) {
        return acquireOrder.getLong(i);
    }

    /** Local call path of the region around the acquisition (the critical section, the lock API call). */
    public int acquirePath(int i) {
        return acquirePath.getInt(i);
    }

    /** Enter of the region around the acquisition. */
    public long acquireRegionEnter(int i) {
        return acquireRegionEnter.getLong(i);
    }

    /** {@link RegionTable#construct} of the region around the acquisition. */
    public byte acquireConstruct(int i) {
        return acquireConstruct.getByte(i);
    }

    public int releases() {
        return releaseLock.size();
    }

    public byte releaseModel(int i) {
        return releaseModel.getByte(i);
    }

    public int releaseLock(int i) {
        return releaseLock.getInt(i);
    }

    public long releaseOrder(int i) {
        return releaseOrder.getLong(i);
    }

    public long releaseTime(int i) {
        return releaseTime.getLong(i);
    }
}
