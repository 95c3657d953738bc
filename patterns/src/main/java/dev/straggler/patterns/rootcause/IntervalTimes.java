package dev.straggler.patterns.rootcause;

import dev.straggler.replay.CallPathIntervals;
import dev.straggler.replay.IntervalEntries;

import java.util.Arrays;

/**
 * Time maps of synchronisation intervals (Scalasca's {@code TmapCacheHandler::getRuntimes}, {@code DelayOps}):
 * call-path times summed over the intervals between two marks, the waiting time of the synchronisation points in
 * between, and the pruning that removes both, in seconds added in Scalasca's order (the second pass's interval
 * times, {@link CallPathIntervals}). One instance per thread (it owns a dense accumulator over the unified call
 * tree).
 */
final class IntervalTimes {
    /** The analysis thread's working arrays for OpenMP barrier evaluations ({@link OmpBarrierDelay}). */
    private final OmpBarrierDelay.Scratch scratch = new OmpBarrierDelay.Scratch();
    private final double[] acc;
    private final int[] touched;
    /** Per call path, the call of {@link #runtimes} in which it was last listed. */
    private final int[] listedIn;
    private int call;
    /** Scratch for the maps built here (one slot more for the call path pruning may insert), copied out once. */
    private final int[] scratchPaths;
    private final double[] scratchSeconds;
    private final int[] diffPaths;
    private final double[] diffSeconds;
    /** The sum of the last {@link #prunedInto}. */
    private double prunedSum;
    /** The sum of the last {@link #prunedMinusPositive}. */
    private double delaySum;

    /** Scalasca's call-path id of each unified call path (the order that breaks ties in its bounded maps). */
    private final int[] cnodeId;
    /** The unified call path of each Scalasca call-path id. */
    private final int[] pathOfCnode;
    private final BoundedTimeMap bounded = new BoundedTimeMap();
    /** Scratch for one interval's entries in Scalasca's order: (cnode id << 32 | entry index). */
    private long[] order = new long[16];

    /**
     * @param cnodeIds Scalasca's call-path id of each unified call path ({@code CallTree.creationId}); its length is
     *                 the size of the unified call tree
     */
    IntervalTimes(int[] cnodeIds) {
        int callPaths = cnodeIds.length;
        this.cnodeId = cnodeIds;
        this.pathOfCnode = new int[callPaths];
        for (int p = 0; p < callPaths; p++) {
            pathOfCnode[cnodeIds[p]] = p;
        }
        this.acc = new double[callPaths];
        this.touched = new int[callPaths];
        this.listedIn = new int[callPaths];
        this.scratchPaths = new int[callPaths + 1];
        this.scratchSeconds = new double[callPaths + 1];
        this.diffPaths = new int[callPaths + 1];
        this.diffSeconds = new double[callPaths + 1];
    }

    /**
     * Sums the ticks of the intervals after {@code fromMark} up to {@code toMark} per unified call path into the
     * accumulator; returns how many call paths it holds, listed in ascending order in {@code touched[0..n)}.
     */
    private int accumulate(LocationState st, int fromMark, int toMark) {
        CallPathIntervals iv = st.times;
        int n = 0;
        call++;
        // the intervals' entries lie one after another: one run over them adds in interval order, each interval's
        // entries in their order, as a loop over the marks would; block by block (a large location's blocks are
        // read back from its spill file)
        IntervalEntries entries = iv.intervalEntries();
        int e = fromMark < toMark ? iv.entriesBegin(fromMark + 1) : 0;
        int end = fromMark < toMark ? iv.entriesEnd(toMark) : 0;
        while (e < end) {
            IntervalEntries.Block block = entries.block(e >>> IntervalEntries.SHIFT);
            int base = e & -IntervalEntries.BLOCK;
            int stop = Math.min(end - base, IntervalEntries.BLOCK);
            int[] entryPath = block.paths();
            double[] entrySeconds = block.seconds();
            for (int i = e - base; i < stop; i++) {
                int p = entryPath[i];
                if (listedIn[p] != call) {
                    listedIn[p] = call;
                    touched[n++] = p;
                }
                acc[p] += entrySeconds[i];
            }
            e = base + stop;
        }
        if (n > BoundedTimeMap.CAPACITY) {
            n = bound(st, fromMark, toMark, n);
        }
        sortSmall(touched, n);
        return n;
    }

    /**
     * Redoes a sum of more than {@link BoundedTimeMap#CAPACITY} call paths the way Scalasca's {@code getRuntimes}
     * does it, into its bounded map: the cached intervals in order, each one's entries in call-path id order (the
     * order its time map is saved in). Up to that many call paths no entry is ever dropped, so the plain sum above is
     * the same. Leaves the kept call paths in the accumulator; returns how many.
     */
    private int bound(LocationState st, int fromMark, int toMark, int n) {
        for (int i = 0; i < n; i++) {
            acc[touched[i]] = 0;
        }
        CallPathIntervals iv = st.times;
        bounded.clear();
        for (int m = fromMark + 1; m <= toMark; m++) {
            int begin = iv.entriesBegin(m);
            int k = iv.entriesEnd(m) - begin;
            if (k > order.length) {
                order = new long[Math.max(k, order.length * 2)];
            }
            for (int j = 0; j < k; j++) {
                order[j] = ((long) cnodeId[iv.entryPath(begin + j)] << 32) | j;
            }
            Arrays.sort(order, 0, k);
            for (int j = 0; j < k; j++) {
                bounded.add((int) (order[j] >>> 32), iv.entrySeconds(begin + (int) order[j]));
            }
        }
        int kept = bounded.size();
        for (int i = 0; i < kept; i++) {
            int p = pathOfCnode[bounded.id(i)];
            touched[i] = p;
            acc[p] = bounded.seconds(i);
        }
        return kept;
    }

    /**
     * Sorts {@code a[0..n)}: an insertion sort for the few call paths of a typical interval (the library sort's
     * set-up costs more than the sorting there), the library sort beyond.
     */
    private static void sortSmall(int[] a, int n) {
        if (n > 24) {
            Arrays.sort(a, 0, n);
            return;
        }
        for (int i = 1; i < n; i++) {
            int v = a[i];
            int j = i - 1;
            while (j >= 0 && a[j] > v) {
                a[j + 1] = a[j];
                j--;
            }
            a[j + 1] = v;
        }
    }

    /** {@link #sortSmall} for distinct longs. */
    private static void sortSmall(long[] a) {
        int n = a.length;
        if (n > 24) {
            Arrays.sort(a);
            return;
        }
        for (int i = 1; i < n; i++) {
            long v = a[i];
            int j = i - 1;
            while (j >= 0 && a[j] > v) {
                a[j + 1] = a[j];
                j--;
            }
            a[j + 1] = v;
        }
    }

    /**
     * Call-path times between two marks: the intervals after {@code fromMark} up to and including the one ending
     * at {@code toMark}. fromMark -1 is the start of the trace, toMark {@code size()} its end.
     */
    TimeMap runtimes(LocationState st, int fromMark, int toMark) {
        int n = accumulate(st, fromMark, toMark);
        int[] paths = Arrays.copyOf(touched, n);
        double[] v = new double[n];
        double sum = 0;
        for (int i = 0; i < n; i++) {
            v[i] = acc[paths[i]];
            acc[paths[i]] = 0;
            sum += v[i];
        }
        return new TimeMap(paths, v, sum);
    }

    /**
     * Scalasca's {@code CalculateWaitMap} over the synchronisation points strictly between {@code fromSp} and
     * {@code toSp}: their waiting time per call path, and its sum.
     */
    TimeMap waitMap(LocationState st, int fromSp, int toSp) {
        SyncPoints sp = st.sp;
        int waits = 0;
        for (int s = fromSp + 1; s < toSp; s++) {
            if (sp.waitTime(s) > 0) {
                waits++;
            }
        }
        if (waits == 0) {
            return TimeMap.EMPTY;
        }
        int n = 0;
        int[] paths = new int[waits];
        double[] v = new double[paths.length];
        double sum = 0;
        for (int s = fromSp + 1; s < toSp; s++) {
            double w = sp.waitTime(s);
            if (w > 0) {
                paths[n] = st.spCallPath(s);
                v[n++] = w;
                sum += w;
            }
        }
        TimeMap m = sorted(paths, v, n, sum);
        return m.size() > BoundedTimeMap.CAPACITY ? boundedWaits(st, fromSp, toSp, sum) : m;
    }

    /** {@link #waitMap} over more call paths than Scalasca's map holds: summed into it in point order. */
    private TimeMap boundedWaits(LocationState st, int fromSp, int toSp, double sum) {
        bounded.clear();
        for (int s = fromSp + 1; s < toSp; s++) {
            double w = st.sp.waitTime(s);
            if (w > 0) {
                bounded.add(cnodeId[st.spCallPath(s)], w);
            }
        }
        int[] p = new int[BoundedTimeMap.CAPACITY];
        double[] v = new double[BoundedTimeMap.CAPACITY];
        int k = drainBounded(p, v);
        return new TimeMap(Arrays.copyOf(p, k), Arrays.copyOf(v, k), sum);
    }

    /**
     * Writes the bounded map's entries into {@code paths}/{@code seconds} ordered by unified call path, the order of
     * the maps here; returns how many.
     */
    private int drainBounded(int[] paths, double[] seconds) {
        int k = bounded.size();
        long[] byPath = new long[k];
        for (int i = 0; i < k; i++) {
            byPath[i] = ((long) pathOfCnode[bounded.id(i)] << 32) | i;
        }
        Arrays.sort(byPath);
        for (int i = 0; i < k; i++) {
            paths[i] = (int) (byPath[i] >>> 32);
            seconds[i] = bounded.seconds((int) byPath[i]);
        }
        return k;
    }

    /** Sums duplicate call paths and sorts by call path. */
    static TimeMap sorted(int[] paths, double[] v, int n, double sum) {
        if (n == 0) {
            return new TimeMap(new int[0], new double[0], sum);
        }
        if (n == 1) {
            return new TimeMap(paths, v, sum);
        }
        long[] keyed = new long[n];
        for (int i = 0; i < n; i++) {
            keyed[i] = ((long) paths[i] << 32) | i;
        }
        sortSmall(keyed);
        int[] p = new int[n];
        double[] s = new double[n];
        int k = -1;
        for (long key : keyed) {
            int path = (int) (key >>> 32);
            int i = (int) key;
            if (k >= 0 && p[k] == path) {
                s[k] += v[i];
            } else {
                k++;
                p[k] = path;
                s[k] = v[i];
            }
        }
        return new TimeMap(Arrays.copyOf(p, k + 1), Arrays.copyOf(s, k + 1), sum);
    }

    /** {@code GetMpiDelayTimemap}: the pruned times since the previous synchronisation with {@code rank}. */
    TimeMap delayTimemap(LocationState st, int s, int rank) {
        int prev = st.sp.previous(s, rank);
        return pruned(st, prev, s, waitMap(st, prev, s));
    }

    /** {@code GetSynchpointTimes}: pruned times between two synchronisation points, sum = their waiting time. */
    TimeMap synchpointTimes(LocationState st, int fromSp, int toSp) {
        TimeMap w = waitMap(st, fromSp, toSp);
        return pruned(st, fromSp, toSp, w).withSum(w.sum());
    }

    /**
     * Scalasca's {@code PruneDelayTimemap} applied to the call-path times between two synchronisation points: the
     * interval's times without its waiting time ({@code waits}, per call path, positive part kept), and without the
     * part of the opening point's MPI call that is not completion time (that call's time falls into this
     * interval). One pass over the accumulator, no intermediate maps: this runs for every wait state.
     */
    TimeMap pruned(LocationState st, int fromSp, int toSp, TimeMap waits) {
        int k = prunedInto(st, fromSp, toSp, waits);
        return new TimeMap(Arrays.copyOf(scratchPaths, k), Arrays.copyOf(scratchSeconds, k), prunedSum);
    }

    /**
     * {@link #pruned} followed by {@link TimeMap#minusPositive}{@code (other)}, the same operations in the same
     * order, without building the pruned map: the delay of a point-to-point wait state, computed for each one. The
     * result stays in this instance's scratch ({@link #delayPath}, {@link #delaySeconds}, {@link #delaySum}) until
     * the next call; returns its number of call paths.
     */
    int prunedMinusPositive(LocationState st, int fromSp, int toSp, TimeMap waits, TimeMap other) {
        int k = prunedInto(st, fromSp, toSp, waits);
        int[] paths = scratchPaths;
        double[] seconds = scratchSeconds;
        int n = 0;
        double s = 0;
        int[] op = other.paths();
        double[] os = other.seconds();
        int j = 0;
        for (int i = 0; i < k; i++) {
            while (j < op.length && op[j] < paths[i]) {
                j++;
            }
            double d = seconds[i] - (j < op.length && op[j] == paths[i] ? os[j] : 0);
            if (d > 0) {
                diffPaths[n] = paths[i];
                diffSeconds[n++] = d;
                s += d;
            }
        }
        delaySum = s;
        return n;
    }

    /** The call paths of the last {@link #prunedMinusPositive}, ascending. */
    int delayPath(int i) {
        return diffPaths[i];
    }

    double delaySeconds(int i) {
        return diffSeconds[i];
    }

    /** The sum of the last {@link #prunedMinusPositive}, added in call-path order. */
    double delaySum() {
        return delaySum;
    }

    /** {@link #pruned} into the scratch arrays; returns the number of call paths, the sum in {@link #prunedSum}. */
    private int prunedInto(LocationState st, int fromSp, int toSp, TimeMap waits) {
        int n = accumulate(st, fromSp < 0 ? -1 : st.sp.mark(fromSp), st.sp.mark(toSp));
        int[] paths = scratchPaths;
        double[] v = scratchSeconds;
        int k = 0;
        double sum = 0;
        int[] wp = waits.paths();
        double[] wv = waits.seconds();
        int j = 0;
        // the opening point's call path: where the pruned map holds it (or would insert it), found while merging
        int id = fromSp >= 0 ? st.spCallPath(fromSp) : -1;
        int at = -1;
        int before = 0;
        for (int i = 0; i < n; i++) {
            int p = touched[i];
            double t = acc[p];
            acc[p] = 0;
            while (j < wp.length && wp[j] < p) {
                j++;
            }
            double d = t - (j < wp.length && wp[j] == p ? wv[j] : 0);
            if (d > 0) {
                if (p == id) {
                    at = k;
                } else if (p < id) {
                    before++;
                }
                paths[k] = p;
                v[k++] = d;
                sum += d;
            }
        }
        if (fromSp >= 0) {
            double total = st.sp.totalTime(fromSp);
            double completion = st.sp.completionTime(fromSp);
            // as Arrays.binarySearch over the kept paths, which ascend
            int i = at >= 0 ? at : -before - 1;
            double mapIdTime = i < 0 ? 0 : v[i];
            double value = Math.max(mapIdTime - total + completion, 0.0);
            sum = sum - Math.min(total - completion, mapIdTime);
            if (i >= 0) {
                v[i] = value;
            } else if (k == BoundedTimeMap.CAPACITY) {
                // Scalasca's map is full: the call path is kept only in place of a smaller entry
                bounded.clear();
                for (int q = 0; q < k; q++) {
                    bounded.add(cnodeId[paths[q]], v[q]);
                }
                bounded.set(cnodeId[id], value);
                k = drainBounded(paths, v);
            } else {
                // Scalasca's map operator[] inserts the call path
                int pos = -i - 1;
                System.arraycopy(paths, pos, paths, pos + 1, k - pos);
                System.arraycopy(v, pos, v, pos + 1, k - pos);
                paths[pos] = id;
                v[pos] = value;
                k++;
            }
        }
        prunedSum = sum;
        return k;
    }

    OmpBarrierDelay.Scratch scratch() {
        return scratch;
    }
}
