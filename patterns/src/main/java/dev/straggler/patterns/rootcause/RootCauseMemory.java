package dev.straggler.patterns.rootcause;

import dev.straggler.replay.CallPathIntervals;
import dev.straggler.replay.LocationData;
import dev.straggler.replay.Replay;

import java.util.Locale;

/**
 * Whether the root-cause stage fits in the heap that is left once the wait states are known. The stage's memory
 * grows with the marks (communication records), not with ENTER/LEAVE events: record links, partner facts and Leave
 * times, synchronisation points, interval times and long-term costs (docs/root-causes.md, "Cost"). Measured on
 * 1.2·10^8 events (32.7 M marks): before the stage freed anything, it ended with an out-of-memory error when it
 * started with 98 bytes per mark free and completed with 118. As the analysis runs it, the stage frees the
 * point-to-point records once it has read them ({@code LocationData.releaseMessageRecords}; there 21.7 M rows,
 * 38.5 bytes per mark): it then failed with 58 bytes per mark free and completed with 64. Since the partner facts
 * are allocated only once the rows are freed, so that the two are never held together, it fails with 29.3 bytes per
 * mark free and completes with 35.0 (37.2 bytes per mark of rows freed): about 72 per mark less the rows it frees.
 * {@value #BYTES_PER_MARK} are counted, less the rows. With the marks in a scratch file (the analysis's answer to a
 * stage that would not fit) 24.9 bytes per mark less are in use, and the stage's own need does not grow: it
 * completed with 48.5 bytes per mark free, the least the replay before it left room for.
 * A run that would not fit keeps its wait states and says why its root causes are missing, instead of failing
 * with an out-of-memory error after minutes of work.
 */
public final class RootCauseMemory {
    /**
     * Bytes the stage adds per mark at its peak, with room for the collector, before the message records it frees
     * are subtracted.
     */
    static final long BYTES_PER_MARK = 75;

    /**
     * The same for the mark of a collective record. The saving measured above is the point-to-point records' (their
     * partner facts no longer held with their rows); a collective mark keeps what every mark counted before that,
     * not having been measured on its own: its roles and its synchronisation point with its ranks may cost more.
     */
    static final long BYTES_PER_COLLECTIVE_MARK = 105;

    /**
     * Bytes the stage adds per OpenMP mark (a fork, barrier or join of a thread) at its peak: each is a
     * synchronisation point of its whole team, with a time map per thread at every barrier, where most MPI marks are
     * not synchronisation points at all. Measured on the hybrid trace of 10^8 events (16 ranks of 8 threads; 24.1 M
     * OpenMP and 8.7 M MPI marks, 0.3 GiB of rows freed): with MPI marks at about 102 bytes, it ended with an
     * out-of-memory error at 142 bytes per OpenMP mark and completed at 161. Counted so that both runs keep their
     * answer now that an MPI mark counts {@value #BYTES_PER_MARK}, and that the run in a 6 GiB heap with the marks in
     * a scratch file, which completed with 4.5 GB free, is let through: 4.43 GB needed in all.
     */
    static final long BYTES_PER_OPENMP_MARK = 170;

    /**
     * The heap per mark that the replay budgets the marks it keeps against ({@code ReplayOptions.bytesPerMark}).
     * The replay itself is what it guards: its records and marks (73 bytes per mark measured) must fit in the old
     * generation, beside the young one, and on 1.2·10^8 events it ran out of memory in a 3.2 GiB heap, 98 bytes per
     * mark of maximum heap. The marks are projected from the first part of the trace, so a trace let through has
     * room unless its projection were more than a sixth too low; one let through whose stage does not fit is refused
     * after the replay, with its wait states, by {@link #shortfall(Replay, long)}.
     */
    public static final long REPLAY_BYTES_PER_MARK = 115;

    /**
     * Bytes the stage adds per MPI mark at its peak when the marks wait in the scratch file, as the replay sends them
     * there when they would not fit on the heap ({@code ReplayOptions.spilledBytesPerMark}); the stage frees the
     * envelope queues and the wait states' waits per row as it goes. Measured on 10^9 events (272 M marks, the
     * launcher's 17.7 GiB heap; live heap after each full collection): 9 bytes per mark in use as the stage started
     * (the rows it frees aside) and 48 at its peak, in the backward replay: the stage adds 40 (46 before a collective's
     * members shared the array of ranks they synchronised with). On 1.2·10^8 events (32.7 M marks) the whole analysis
     * completed in an old generation of 46 bytes per mark and gave up, the collector overwhelmed, in one of 33.
     * Counted with room for the collector.
     */
    static final long SPILLED_BYTES_PER_MARK = 50;

    /**
     * What an MPI mark costs the whole analysis at its peak with the marks in the scratch file: 48 bytes measured on
     * 10^9 events (above; 55 before the shared arrays), with room for the collector, as
     * {@link #REPLAY_BYTES_PER_MARK} has over the 98 measured for marks on the heap. The replay's own peak, the send and receive rows up to an eighth of the heap and about
     * 9 bytes per mark, is lower.
     */
    public static final long SPILLED_REPLAY_BYTES_PER_MARK = 60;

    /**
     * What an OpenMP mark costs the whole analysis at its peak, for saying how much heap a trace needs: the stage's
     * {@value #BYTES_PER_OPENMP_MARK} and 35 of the mark and the wait states (with the marks in the scratch file, not
     * measured for OpenMP marks). Measured on the hybrid trace (before the partner facts waited for the rows to go):
     * 63 bytes per mark in use before the stage and 145 free (gross), about 200 per OpenMP mark with the MPI marks at
     * 137.
     */
    static final long NEEDED_BYTES_PER_OPENMP_MARK = BYTES_PER_OPENMP_MARK + 35;

    private RootCauseMemory() {
    }

    /**
     * Why the stage would not fit in {@code heap} bytes of this JVM's heap, or null when it fits; for a replay that
     * dropped its marks ({@link Replay#marksDropped}) why it did. Collects garbage once if it is close.
     */
    public static String shortfall(Replay replay, long heap) {
        if (replay.marksDropped()) {
            return projected(replay.projectedMarks(), Math.max(0, replay.projectedOpenMpMarks()),
                    replay.shareReadWhenDropped(), heap, xmxPerUsable(heap));
        }
        Counts c = counts(replay);
        Runtime rt = Runtime.getRuntime();
        double xmx = xmxPerUsable(heap);
        if (shortfall(c.marks, c.openMp, c.collective, c.spilledMpi, c.released, heap,
                rt.totalMemory() - rt.freeMemory(), xmx) == null) {
            return null;
        }
        // what is in use includes garbage: count again after a collection before giving up on the stage
        System.gc();
        return shortfall(c.marks, c.openMp, c.collective, c.spilledMpi, c.released, heap,
                rt.totalMemory() - rt.freeMemory(), xmx);
    }

    /**
     * The heap beyond what the stage needs ({@link #shortfall(Replay, long)}), as free now (garbage counted as in
     * use, so never more than there is); 0 when the stage would not fit, the replay dropped its marks, or any marks
     * wait in the scratch file (a heap too small for them has none to spare: on 10^9 events, interval entries kept in
     * such room left the collector 0.9 GB of an 18 GB heap). What the stage could keep in a scratch file may stay
     * on the heap within part of it ({@code SpillFile.allowOnHeap}).
     */
    public static long room(Replay replay, long heap) {
        if (replay.marksDropped()) {
            return 0;
        }
        Counts c = counts(replay);
        if (c.spilledMpi > 0) {
            return 0;
        }
        Runtime rt = Runtime.getRuntime();
        long free = Math.max(0, heap - (rt.totalMemory() - rt.freeMemory()));
        return Math.max(0, free - needed(c.marks, c.openMp, c.collective, c.spilledMpi, c.released));
    }

    /**
     * The marks of the held locations, how many are OpenMP and collective ones (of locations whose marks are on the
     * heap), how many MPI marks wait in the scratch file, and the rows the stage frees.
     */
    private record Counts(long marks, long openMp, long collective, long spilledMpi, long released) {
    }

    private static Counts counts(Replay replay) {
        long marks = 0;
        long openMp = 0;
        long collective = 0;
        long spilledMpi = 0;
        long released = 0;
        for (LocationData d : replay.locations()) {
            CallPathIntervals iv = d.intervals();
            if (iv != null) {
                marks += iv.size();
                openMp += iv.openMpMarks();
                if (iv.marksSpilled()) {
                    spilledMpi += iv.size() - iv.openMpMarks();
                } else {
                    collective += Math.min(d.collectives().size(), iv.size() - iv.openMpMarks());
                }
            }
            // rows in a scratch file free no heap when the stage lets them go
            released += d.messageRecordHeapBytes();
        }
        return new Counts(marks, openMp, collective, spilledMpi, released);
    }

    /** What the stage adds at its peak, less the rows it frees. */
    private static long needed(long marks, long openMp, long collective, long spilledMpi, long released) {
        return Math.max(0, (marks - openMp - collective - spilledMpi) * BYTES_PER_MARK
                + collective * BYTES_PER_COLLECTIVE_MARK + spilledMpi * SPILLED_BYTES_PER_MARK
                + openMp * BYTES_PER_OPENMP_MARK - released);
    }

    /**
     * Why the replay kept no marks: the marks projected for the whole trace from the share {@code shareRead} of its
     * events read would need more than the heap.
     */
    static String projected(long marks, long openMp, double shareRead, long heap) {
        return projected(marks, openMp, shareRead, heap, 1.0);
    }

    /** As above; the heap asked for is {@code xmxPerUsable} times what is needed ({@link #xmxPerUsable}). */
    private static String projected(long marks, long openMp, double shareRead, long heap, double xmxPerUsable) {
        // the replay refuses only marks that fit neither on the heap nor in the scratch file: the least they need
        long needed = (marks - openMp) * SPILLED_REPLAY_BYTES_PER_MARK + openMp * NEEDED_BYTES_PER_OPENMP_MARK;
        return String.format(Locale.ROOT, "they would need about %s of heap for about %,d marks (MPI records, and "
                        + "OpenMP forks and barriers of threads; about %d bytes each with the marks in the scratch file, "
                        + "%d for an OpenMP one, the mark's own and the stage's), projected "
                        + "from the first %.0f %% of the trace's events, more than the %s heap; give the analysis more "
                        + "heap (e.g. STRAGGLER_HEAP=%s bin/straggler ...) or analyse with --no-root-causes",
                gib(needed), marks, SPILLED_REPLAY_BYTES_PER_MARK, NEEDED_BYTES_PER_OPENMP_MARK,
                Math.floor(100 * shareRead), gib(heap), heapToAsk((long) (needed * xmxPerUsable)));
    }

    /**
     * @param marks    the marks of all locations: MPI records, and on threads OpenMP forks and barriers
     * @param openMp   how many of them are OpenMP marks ({@value #BYTES_PER_OPENMP_MARK} bytes each)
     * @param released the bytes of the point-to-point records the stage frees once it has read them
     * @param maxHeap  the heap's limit in bytes
     * @param used     bytes of heap in use now
     * @return why the stage would not fit, or null when it fits
     */
    static String shortfall(long marks, long openMp, long released, long maxHeap, long used) {
        return shortfall(marks, openMp, 0, released, maxHeap, used, 1.0);
    }

    /**
     * As above; {@code collective} of the MPI marks are those of collective records
     * ({@value #BYTES_PER_COLLECTIVE_MARK} bytes each), and the heap asked for is {@code xmxPerUsable} times what is
     * needed ({@link #xmxPerUsable}).
     */
    static String shortfall(long marks, long openMp, long collective, long released, long maxHeap, long used,
                            double xmxPerUsable) {
        return shortfall(marks, openMp, collective, 0, released, maxHeap, used, xmxPerUsable);
    }

    /**
     * As above; {@code spilledMpi} of the MPI marks are of locations whose marks wait in the scratch file
     * ({@value #SPILLED_BYTES_PER_MARK} bytes each; {@code collective} counts none of them).
     */
    static String shortfall(long marks, long openMp, long collective, long spilledMpi, long released, long maxHeap,
                            long used, double xmxPerUsable) {
        long needed = needed(marks, openMp, collective, spilledMpi, released);
        long free = Math.max(0, maxHeap - used);
        if (needed <= free) {
            return null;
        }
        String spilled = spilledMpi > 0 ? String.format(Locale.ROOT, ", %d for one in the scratch file",
                SPILLED_BYTES_PER_MARK) : "";
        return String.format(Locale.ROOT, "they need about %s more memory for %,d marks (MPI records, and OpenMP forks and "
                + "barriers of threads; about %d bytes each, %d for a collective one%s, %d for an OpenMP one, less the %s "
                + "of message records the stage frees), but only "
                + "%s of the %s heap are free; give the analysis more heap (e.g. STRAGGLER_HEAP=%s "
                + "bin/straggler ...) or analyse with --no-root-causes", gib(needed), marks, BYTES_PER_MARK,
                BYTES_PER_COLLECTIVE_MARK, spilled,
                BYTES_PER_OPENMP_MARK, gib(released), gib(free),
                gib(maxHeap), heapToAsk((long) ((used + needed) * xmxPerUsable)));
    }

    /**
     * What a mark costs the Spark engine with root causes, per executor heap: besides the stage's state the executors
     * keep the locations' records and marks as cached blocks and in the shuffles that feed the barrier stage (which
     * gets each location without its send and receive rows). Measured in local mode (driver and executors in one
     * JVM) on 27.3 M marks (`SparkBenchmark`, 10^8 events): the analysis ends with an out-of-memory error in a 6 GiB
     * heap (236 bytes per mark) and completes in 7 GiB (275); before the barrier stage left the rows out, it failed in
     * 8 GiB (315) and completed in 10 GiB (393).
     */
    static final long SPARK_BYTES_PER_MARK = 280;

    /**
     * Why the root-cause stage of the Spark engine would not fit in its executors' heaps, or null when it fits: its
     * barrier stage holds every location's marks, records and stage state at once, spread over the executors
     * ({@value #SPARK_BYTES_PER_MARK} bytes per mark in all).
     *
     * @param marks        the marks of all locations, counted where the trace was read
     * @param executors    the executors the stage's tasks are spread over (1 in local mode)
     * @param executorHeap the heap of one executor in bytes (in local mode, this JVM's)
     */
    public static String executorShortfall(long marks, int executors, long executorHeap) {
        return executorShortfall(marks, executors, executorHeap, String.format(Locale.ROOT, "%,d marks (", marks));
    }

    /**
     * {@link #executorShortfall(long, int, long)} for marks projected from a sample read before the trace
     * ({@code sampled} events), or null when they fit.
     */
    public static String projectedExecutorShortfall(long marks, long sampled, int executors, long executorHeap) {
        return executorShortfall(marks, executors, executorHeap, String.format(Locale.ROOT,
                "about %,d marks (projected from a sample of %,d events; ", marks, sampled));
    }

    private static String executorShortfall(long marks, int executors, long executorHeap, String marksPhrase) {
        long perExecutor = (long) Math.ceil((double) marks * SPARK_BYTES_PER_MARK / Math.max(1, executors));
        if (perExecutor <= executorHeap) {
            return null;
        }
        return String.format(Locale.ROOT, "they would need about %s of heap per executor for %sMPI records, "
                        + "and OpenMP forks and barriers of threads; about %d bytes each, the records and Spark's "
                        + "copies of them included) over %d executor(s) of %s; give the executors more memory (spark.executor.memory, "
                        + "or STRAGGLER_HEAP=%s in local mode) or more executors, or analyse with --no-root-causes",
                gib(perExecutor), marksPhrase, SPARK_BYTES_PER_MARK, executors, gib(executorHeap),
                heapToAsk(perExecutor));
    }

    /**
     * For {@code heap} when it is this JVM's: how much larger its {@code -Xmx} is than the heap it lets the program
     * use (a survivor space is kept out of {@link Runtime#maxMemory}: 5.3 GiB of a 6 GiB heap here), so that the heap
     * a message asks for holds what it says is needed; 1 for a heap given otherwise, or when the JVM does not say.
     */
    static double xmxPerUsable(long heap) {
        long usable = Runtime.getRuntime().maxMemory();
        if (heap != usable || usable <= 0) {
            return 1.0;
        }
        try {
            var vm = java.lang.management.ManagementFactory.getPlatformMXBean(
                    com.sun.management.HotSpotDiagnosticMXBean.class);
            long xmx = Long.parseLong(vm.getVMOption("MaxHeapSize").getValue());
            return xmx > usable ? (double) xmx / usable : 1.0;
        } catch (RuntimeException | LinkageError e) {
            return 1.0;
        }
    }

    /** A heap to ask for that holds {@code bytes}: a tenth more, in whole GiB (e.g. {@code 26g}). */
    private static String heapToAsk(long bytes) {
        return (long) Math.ceil(bytes * 1.1 / (1L << 30)) + "g";
    }

    private static String gib(long bytes) {
        return String.format(Locale.ROOT, "%.1f GiB", bytes / (double) (1L << 30));
    }
}
