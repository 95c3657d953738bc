package dev.straggler.patterns.rootcause;

import it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap;

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
    /**
     * The rank a point synchronised with, {@link #ALL} for every rank, {@link #SEVERAL} when they are in
     * {@link #several}: most points are point-to-point, and an array per point would cost more than the point.
     */
    private int[] rank = new int[16];
    private Int2ObjectOpenHashMap<int[]> several = new Int2ObjectOpenHashMap<>();
    private static final int ALL = -1;
    private static final int SEVERAL = -2;
    /** An OpenMP point: it synchronised the threads of this process and no MPI rank. */
    private static final int NONE = -3;
    private boolean frozen;

    /** Registers a synchronisation point unless the event already is one; ranks sorted, or ALL_RANKS. */
    void add(int markIndex, double waitTime, double totalTime, double completionTime, int[] syncRanks) {
        if (syncRanks != ALL_RANKS && syncRanks.length == 1) {
            add(markIndex, waitTime, totalTime, completionTime, syncRanks[0]);
            return;
        }
        if (syncRanks != ALL_RANKS) {
            several.put(size, syncRanks);
        }
        append(markIndex, waitTime, totalTime, completionTime, syncRanks == ALL_RANKS ? ALL : SEVERAL);
    }

    /**
     * Registers an OpenMP synchronisation point (a fork or a team barrier, docs/openmp.md §6): it synchronised the
     * threads of this process, so no search for the last synchronisation with an MPI rank stops at it.
     */
    void addTeam(int markIndex, double waitTime, double totalTime, double completionTime) {
        append(markIndex, waitTime, totalTime, completionTime, NONE);
    }

    /** True for an OpenMP point ({@link #addTeam}). */
    boolean team(int sp) {
        return rank[sp] == NONE;
    }

    /** {@link #add} of a point that synchronised with one rank. */
    void add(int markIndex, double waitTime, double totalTime, double completionTime, int syncRank) {
        append(markIndex, waitTime, totalTime, completionTime, syncRank);
    }

    private void append(int markIndex, double waitTime, double totalTime, double completionTime, int r) {
        if (size == mark.length) {
            int cap = size * 2;
            mark = Arrays.copyOf(mark, cap);
            wait = Arrays.copyOf(wait, cap);
            total = Arrays.copyOf(total, cap);
            completion = Arrays.copyOf(completion, cap);
            rank = Arrays.copyOf(rank, cap);
        }
        mark[size] = markIndex;
        wait[size] = waitTime;
        total[size] = totalTime;
        completion[size] = completionTime;
        rank[size] = r;
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
        int[] nr = new int[size];
        Int2ObjectOpenHashMap<int[]> ns = new Int2ObjectOpenHashMap<>();
        for (int k = 0; k < size; k++) {
            int i = (int) order[k];
            if (n > 0 && nm[n - 1] == mark[i]) {
                continue;
            }
            nm[n] = mark[i];
            nw[n] = wait[i];
            nt[n] = total[i];
            nc[n] = completion[i];
            nr[n] = rank[i];
            if (rank[i] == SEVERAL) {
                ns.put(n, several.get(i));
            }
            n++;
        }
        size = n;
        mark = Arrays.copyOf(nm, n);
        wait = Arrays.copyOf(nw, n);
        total = Arrays.copyOf(nt, n);
        completion = Arrays.copyOf(nc, n);
        rank = Arrays.copyOf(nr, n);
        several = ns;
        frozen = true;
    }

    int size() {
        return size;
    }

    /** Per point (and at {@link #size}), the last OpenMP team point before it, -1 for none; made on first use. */
    private int[] previousTeam;

    /**
     * Scalasca's {@code findPreviousOmpSynchpoint}: the last OpenMP team point before point {@code sp} ({@code sp}
     * may be {@link #size}: before the end), -1 when none. One pass over the points the first time (after
     * {@link #freeze}), a lookup after: a master's MPI points between two forks are not searched again at every
     * barrier and fork.
     */
    int previousTeam(int sp) {
        if (!frozen) {
            // points may still be added: search (never cached before the points are final)
            for (int x = sp - 1; x >= 0; x--) {
                if (team(x)) {
                    return x;
                }
            }
            return -1;
        }
        if (previousTeam == null) {
            int[] p = new int[size + 1];
            int last = -1;
            for (int x = 0; x <= size; x++) {
                p[x] = last;
                if (x < size && team(x)) {
                    last = x;
                }
            }
            previousTeam = p;
        }
        return previousTeam[sp];
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

    /** The one rank point {@code sp} synchronised with, or a negative value when it is every rank, several or none. */
    int singleRank(int sp) {
        return rank[sp];
    }

    /** True when point {@code sp} synchronised with every rank. */
    boolean all(int sp) {
        return rank[sp] == ALL;
    }

    /** The ranks of a point that synchronised with several (sorted); null for a point of one rank, all or none. */
    int[] several(int sp) {
        return rank[sp] == SEVERAL ? several.get(sp) : null;
    }

    boolean contains(int sp, int rank) {
        int r = this.rank[sp];
        return r >= 0 ? r == rank : r == ALL || (r == SEVERAL && Arrays.binarySearch(several.get(sp), rank) >= 0);
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
