package dev.straggler.testdata.scenario;

/**
 * Scalasca 2.6's wait-state formulas (reference §1.3–1.4, SCA26 {@code MPI.pattern}) on recorded timestamps
 * (ticks), with its clipping, sync-point and payload rules and its exclusion of size-1 communicators. Arrays are
 * indexed by rank within the communicator; results are added into the output arrays.
 */
public final class ScalascaRules {
    private ScalascaRules() {
    }

    /** Late Sender: {@code min(Enter(send call), Leave(receive call)) − Enter(receive call)}, when positive. */
    public static long lateSender(long enterSend, long enterRecv, long leaveRecv) {
        return Math.max(0, Math.min(enterSend, leaveRecv) - enterRecv);
    }

    /**
     * Late Receiver, for a send completed in MPI_Send/MPI_Ssend/MPI_Wait: zero when the completing call was left
     * before the receive request was posted, else {@code Enter(request call) − Enter(completing call)}.
     */
    public static long lateReceiver(long enterCompletion, long leaveCompletion, long enterRequest) {
        if (leaveCompletion <= enterRequest) {
            return 0;
        }
        return Math.max(0, enterRequest - enterCompletion);
    }

    /** MPI_Barrier: wait and completion of every rank. */
    public static void barrier(long[] begin, long[] end, long[] wait, long[] completion) {
        int n = begin.length;
        if (n < 2) {
            return;
        }
        long latest = max(begin);
        long earliestEnd = min(end);
        for (int i = 0; i < n; i++) {
            long latestB = Math.min(latest, end[i]);
            wait[i] += Math.max(0, latestB - begin[i]);
            completion[i] += Math.max(0, end[i] - Math.max(earliestEnd, latestB));
        }
    }

    /**
     * N×N (Allreduce, Allgather, Alltoall): with full overlap (earliest end after latest begin) every rank with
     * payload is a sync point and the reference is the latest begin; otherwise the reference is the latest begin
     * of the ranks that send data, and a rank is a sync point if it receives data and began before it, or is that
     * latest sender. The earliest end is taken over sync points.
     */
    public static void nxn(long[] begin, long[] end, long[] sent, long[] received, long[] wait, long[] completion) {
        int n = begin.length;
        if (n < 2) {
            return;
        }
        boolean[] sync = new boolean[n];
        long latest;
        if (min(end) > max(begin)) {
            latest = max(begin);
            for (int i = 0; i < n; i++) {
                sync[i] = sent[i] != 0 || received[i] != 0;
            }
        } else {
            latest = Long.MIN_VALUE;
            int latestSender = -1;
            for (int i = 0; i < n; i++) {
                if (sent[i] > 0 && begin[i] > latest) {
                    latest = begin[i];
                    latestSender = i;
                }
            }
            if (latestSender < 0) {
                return;
            }
            for (int i = 0; i < n; i++) {
                sync[i] = received[i] > 0 && begin[i] < latest || i == latestSender;
            }
        }
        long earliestEnd = Long.MAX_VALUE;
        for (int i = 0; i < n; i++) {
            if (sync[i]) {
                earliestEnd = Math.min(earliestEnd, end[i]);
            }
        }
        for (int i = 0; i < n; i++) {
            if (sync[i]) {
                long latestB = Math.min(latest, end[i]);
                wait[i] += Math.max(0, latestB - begin[i]);
                completion[i] += Math.max(0, end[i] - Math.max(earliestEnd, latestB));
            }
        }
    }

    /** 1-to-N (Bcast, Scatter): non-roots that receive data and began before the root wait for it. */
    public static void oneToN(long[] begin, long[] end, int root, long rootSent, long[] received, long[] wait) {
        int n = begin.length;
        if (n < 2 || rootSent == 0) {
            return;
        }
        long r = begin[root];
        for (int i = 0; i < n; i++) {
            if (i != root && received[i] > 0 && begin[i] < r) {
                wait[i] += Math.max(0, Math.min(r, end[i]) - begin[i]);
            }
        }
    }

    /** N-to-1 (Reduce, Gather): the root, if it receives data and began before the latest sender, waits for it. */
    public static void nToOne(long[] begin, long[] end, int root, long[] sent, long rootReceived, long[] wait) {
        int n = begin.length;
        if (n < 2 || rootReceived == 0) {
            return;
        }
        long latest = Long.MIN_VALUE;
        for (int i = 0; i < n; i++) {
            if (sent[i] > 0) {
                latest = Math.max(latest, begin[i]);
            }
        }
        if (begin[root] < latest) {
            wait[root] += Math.max(0, Math.min(latest, end[root]) - begin[root]);
        }
    }

    /** Scan: rank i waits for the latest begin among the ranks 0..i that send data. */
    public static void scan(long[] begin, long[] end, long[] sent, long[] received, long[] wait) {
        int n = begin.length;
        if (n < 2) {
            return;
        }
        long latest = Long.MIN_VALUE;
        for (int i = 0; i < n; i++) {
            if (sent[i] > 0) {
                latest = Math.max(latest, begin[i]);
            }
            if ((sent[i] != 0 || received[i] != 0) && begin[i] < latest) {
                wait[i] += Math.max(0, Math.min(latest, end[i]) - begin[i]);
            }
        }
    }

    /** MPI_Init: completion only, from the Enter/Leave of every rank of MPI_COMM_WORLD. */
    public static void initCompletion(long[] enter, long[] leave, long[] completion) {
        long latest = max(enter);
        long earliestEnd = min(leave);
        for (int i = 0; i < enter.length; i++) {
            long latestB = Math.min(latest, leave[i]);
            completion[i] += Math.max(0, leave[i] - Math.max(earliestEnd, latestB));
        }
    }

    /** MPI_Finalize: wait until the last rank has entered. */
    public static void finalizeWait(long[] enter, long[] leave, long[] wait) {
        long latest = max(enter);
        for (int i = 0; i < enter.length; i++) {
            wait[i] += Math.max(0, Math.min(latest, leave[i]) - enter[i]);
        }
    }

    static long max(long[] a) {
        long m = Long.MIN_VALUE;
        for (long v : a) {
            m = Math.max(m, v);
        }
        return m;
    }

    static long min(long[] a) {
        long m = Long.MAX_VALUE;
        for (long v : a) {
            m = Math.min(m, v);
        }
        return m;
    }
}
