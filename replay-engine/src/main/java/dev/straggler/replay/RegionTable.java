package dev.straggler.replay;

import dev.straggler.trace.Paradigm;
import dev.straggler.trace.Region;
import dev.straggler.trace.RegionRole;
import dev.straggler.trace.TraceDefinitions;

import java.util.ArrayList;
import java.util.List;

/**
 * The regions call paths refer to: the trace's own regions followed by the artificial regions the replay
 * enters for events that are not ENTER/LEAVE, as PEARL does (reference §1.1; Scalasca 2.6
 * {@code Otf2EvtCallbacks.cpp}): PROGRAM_BEGIN/END enter and leave the program region, a BUFFER_FLUSH is a visit
 * of {@code TRACE BUFFER FLUSH} lasting until its stop time, MEASUREMENT_ON_OFF off/on enter and leave
 * {@code MEASUREMENT OFF}. A trace that defines these regions (Score-P does) has them reused; otherwise they are
 * added after the trace's regions. Immutable.
 */
public final class RegionTable {
    public static final String FLUSH_REGION = "TRACE BUFFER FLUSH";
    public static final String PAUSE_REGION = "MEASUREMENT OFF";
    /** PEARL's artificial parent of the call paths of threads another thread created (create/wait model). */
    public static final String THREADS_REGION = "THREADS";

    private final List<Region> regions;
    private final int[] classes;
    private final byte[] constructs;
    private final int programRegion;
    private final int flushRegion;
    private final int pauseRegion;
    private final boolean[] tasks;
    private final int threadsRegion;
    private final int traceRegionCount;

    private RegionTable(List<Region> regions, int traceRegionCount, int program, int flush, int pause,
                        int threads) {
        this.threadsRegion = threads;
        this.regions = List.copyOf(regions);
        this.traceRegionCount = traceRegionCount;
        this.programRegion = program;
        this.flushRegion = flush;
        this.pauseRegion = pause;
        this.classes = new int[this.regions.size()];
        this.constructs = new byte[this.regions.size()];
        this.tasks = new boolean[this.regions.size()];
        for (int i = 0; i < classes.length; i++) {
            classes[i] = RegionClass.of(this.regions.get(i));
            constructs[i] = construct(this.regions.get(i));
            Region r = this.regions.get(i);
            tasks[i] = r.paradigm() == Paradigm.OPENMP
                    && (r.role() == RegionRole.TASK || r.role() == RegionRole.TASK_UNTIED);
        }
    }

    /** Not an OpenMP construct the thread-level analysis tracks. */
    public static final byte NO_CONSTRUCT = 0;
    /** An OpenMP parallel region (paradigm OpenMP, role PARALLEL). */
    public static final byte PARALLEL = 1;
    /** An explicit OpenMP barrier (role BARRIER). */
    public static final byte BARRIER = 2;
    /** An implicit OpenMP barrier (role IMPLICIT_BARRIER). */
    public static final byte IMPLICIT_BARRIER = 3;
    /** An OpenMP critical section or its structured block (roles CRITICAL, CRITICAL_SBLOCK). */
    public static final byte CRITICAL = 4;
    /** Any other OpenMP region (lock API calls among them). */
    public static final byte OTHER_OPENMP = 5;
    /** pthread_mutex_lock or pthread_mutex_trylock: where a thread waits for a mutex. */
    public static final byte PTHREAD_MUTEX_LOCK = 6;
    /** pthread_cond_wait or pthread_cond_timedwait: where a woken thread waits to take its mutex back. */
    public static final byte PTHREAD_CONDITION_WAIT = 7;

    private static byte construct(Region r) {
        if (isPthread(r)) {
            // PEARL's classification (Region.cpp): the name after "pthread_", in lower case
            String call = r.name().length() > 8 ? r.name().substring(8).toLowerCase(java.util.Locale.ROOT) : "";
            return switch (call) {
                case "mutex_lock", "mutex_trylock" -> PTHREAD_MUTEX_LOCK;
                case "cond_wait", "cond_timedwait" -> PTHREAD_CONDITION_WAIT;
                default -> NO_CONSTRUCT;
            };
        }
        if (r.paradigm() != Paradigm.OPENMP) {
            return NO_CONSTRUCT;
        }
        return switch (r.role()) {
            case PARALLEL -> PARALLEL;
            case BARRIER -> BARRIER;
            case IMPLICIT_BARRIER -> IMPLICIT_BARRIER;
            case CRITICAL, CRITICAL_SBLOCK -> CRITICAL;
            default -> OTHER_OPENMP;
        };
    }

    /** A region of the POSIX threads API: Score-P names its file "PTHREAD", as "MPI" for MPI's. */
    private static boolean isPthread(Region r) {
        return r.sourceFile().equals("PTHREAD") || (r.sourceFile().isEmpty() && r.paradigm() == Paradigm.PTHREAD);
    }

    /**
     * The OpenMP construct a region is ({@link #PARALLEL} ...), or the Pthread call where a thread waits for a lock
     * ({@link #PTHREAD_MUTEX_LOCK}, {@link #PTHREAD_CONDITION_WAIT}); {@link #NO_CONSTRUCT} otherwise.
     */
    public byte construct(int region) {
        return constructs[region];
    }

    /** True for an OpenMP task region (roles TASK, TASK_UNTIED): a task's execution. */
    public boolean isTask(int region) {
        return tasks[region];
    }

    public static RegionTable of(TraceDefinitions defs) {
        List<Region> all = new ArrayList<>(defs.regions());
        int n = all.size();
        int program = -1;
        int flush = -1;
        int pause = -1;
        int threads = -1;
        boolean pthreads = false;
        for (Region r : all) {
            pthreads |= r.paradigm() == Paradigm.PTHREAD;
            if (threads < 0 && r.name().equals(THREADS_REGION) && r.role() == RegionRole.ARTIFICIAL) {
                // Score-P before 1.4 defined it itself (PEARL's Otf2DefCallbacks takes that one)
                threads = r.id();
                continue;
            }
            if (r.name().equals(FLUSH_REGION) && flush < 0) {
                flush = r.id();
            } else if (r.name().equals(PAUSE_REGION) && pause < 0) {
                pause = r.id();
            } else if (program < 0 && r.role() == RegionRole.ARTIFICIAL && r.paradigm() == Paradigm.MEASUREMENT_SYSTEM
                    && !r.name().equals("TRACING")) {
                // Score-P defines the program region as the artificial measurement region named after the executable
                program = r.id();
            }
        }
        if (program < 0) {
            String app = defs.experiment().application();
            String name = app == null || app.isBlank() ? "PROGRAM" : app;
            program = all.size();
            all.add(new Region(program, name, name, "", 0, 0, Paradigm.MEASUREMENT_SYSTEM, RegionRole.ARTIFICIAL));
        }
        if (flush < 0) {
            flush = all.size();
            all.add(new Region(flush, FLUSH_REGION, FLUSH_REGION, "", 0, 0, Paradigm.MEASUREMENT_SYSTEM, RegionRole.ARTIFICIAL));
        }
        if (pause < 0) {
            pause = all.size();
            all.add(new Region(pause, PAUSE_REGION, PAUSE_REGION, "", 0, 0, Paradigm.USER, RegionRole.ARTIFICIAL));
        }
        if (threads < 0 && pthreads) {
            // as PEARL adds it (MutableGlobalDefs): paradigm Pthread, its file named THREADS too
            threads = all.size();
            all.add(new Region(threads, THREADS_REGION, THREADS_REGION, THREADS_REGION, 0, 0, Paradigm.PTHREAD,
                    RegionRole.ARTIFICIAL));
        }
        return new RegionTable(all, n, program, flush, pause, threads);
    }

    public List<Region> regions() {
        return regions;
    }

    public int size() {
        return regions.size();
    }

    public Region region(int id) {
        return regions.get(id);
    }

    /** {@link RegionClass} bits of a region. */
    public int classOf(int region) {
        return classes[region];
    }

    /** Number of regions that come from the trace; ids at or above it are artificial. */
    public int traceRegionCount() {
        return traceRegionCount;
    }

    public int programRegion() {
        return programRegion;
    }

    public int flushRegion() {
        return flushRegion;
    }

    public int pauseRegion() {
        return pauseRegion;
    }

    /**
     * The THREADS region under the program region where created threads' call paths begin, or -1 when the trace
     * has no POSIX threads (a THREAD_BEGIN then leaves the thread's call paths at the root).
     */
    public int threadsRegion() {
        return threadsRegion;
    }
}
