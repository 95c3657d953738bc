package dev.straggler.patterns.rootcause;

import java.util.Arrays;

/**
 * The synchronisation points of one location, in stream order (Scalasca's {@code SynchpointHandler}): the
 * communication events at which it synchronised with other ranks, each with its waiting time, the time spent in the
 * MPI call holding it ({@code totalTime}), the call's completion time and the global ranks it synchronised with.
 * Built once by {@link SyncPointDetection}; the first registration of an event wins, as in Scalasca's map.
 */
final class SyncPoints implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    /** Marker for "every rank of MPI_COMM_WORLD" (null, so that it survives serialization). */
    static final int[] ALL_RANKS = null;

    // building
    private int size;
    private int[] mark = new int[16];
    private double[] wait = new double[16];
    private double[] total = new double[16];
    private double[] completion = new double[16];
    private int[][] ranks = new int[16][];
    private boolean frozen;

    /** Registers a synchronisation point unless the event already is one; ranks sorted, or ALL_RANKS. */
    void add(int markIndex, double waitTime, double totalTime, double completionTime, int[] syncRanks) {
        if (size == mark.length) {
            int cap = size * 2;
            mark = Arrays.copyOf(mark, cap);
            wait = Arrays.copyOf(wait, cap);
            total = Arrays.copyOf(total, cap);
            completion = Arrays.copyOf(completion, cap);
            ranks = Arrays.copyOf(ranks, cap);
        }
        mark[size] = markIndex;
        wait[size] = waitTime;
        total[size] = totalTime;
        completion[size] = completionTime;
        ranks[size] = syncRanks;
        size++;
    }

    /** Sorts by stream position; of duplicates the first registered is kept. Read-only afterwards. */
    void freeze() {
        // (mark, registration) as one primitive key: sorted, equal marks keep registration order
        long[] order = new long[size];
        for (int i = 0; i < size; i++) {
            order[i] = ((long) mark[i] << 32) | i;
        }
        Arrays.sort(order);
        int n = 0;
        int[] nm = new int[size];
        double[] nw = new double[size];
        double[] nt = new double[size];
        double[] nc = new double[size];
        int[][] nr = new int[size][];
        for (int k = 0; k < size; k++) {
            int i = (int) order[k];
            if (n > 0 && nm[n - 1] == mark[i]) {
                continue;
            }
            nm[n] = mark[i];
            nw[n] = wait[i];
            nt[n] = total[i];
            nc[n] = completion[i];
            nr[n] = ranks[i];
            n++;
        }
        size = n;
        mark = Arrays.copyOf(nm, n);
        wait = Arrays.copyOf(nw, n);
        total = Arrays.copyOf(nt, n);
        completion = Arrays.copyOf(nc, n);
        ranks = Arrays.copyOf(nr, n);
        frozen = true;
    }

    int size() {
        return size;
    }

    /** Index of the synchronisation point at a mark, -1 when the mark is none. */
    int at(int markIndex) {
        int i = Arrays.binarySearch(mark, 0, size, markIndex);
        return i < 0 ? -1 : i;
    }

    int mark(int sp) {
        return mark[sp];
    }

    double waitTime(int sp) {
        return sp < 0 ? 0 : wait[sp];
    }

    double totalTime(int sp) {
        return sp < 0 ? 0 : total[sp];
    }

    double completionTime(int sp) {
        return sp < 0 ? 0 : completion[sp];
    }

    boolean isWaitState(int sp) {
        return sp >= 0 && wait[sp] > 0;
    }

    boolean contains(int sp, int rank) {
        int[] r = ranks[sp];
        // most points synchronise with one rank (point-to-point)
        return r == ALL_RANKS || (r.length == 1 ? r[0] == rank : Arrays.binarySearch(r, rank) >= 0);
    }

    int[] ranks(int sp) {
        return ranks[sp];
    }

    /**
     * Scalasca's {@code findPreviousMpiSynchpoint}: the last synchronisation point before {@code sp} that
     * synchronised with {@code rank}, -1 (the start of the trace) when there is none.
     */
    int previous(int sp, int rank) {
        for (int i = sp - 1; i >= 0; i--) {
            if (contains(i, rank)) {
                return i;
            }
        }
        return -1;
    }

    boolean frozen() {
        return frozen;
    }
}
