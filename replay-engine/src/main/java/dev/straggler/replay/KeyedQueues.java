package dev.straggler.replay;

/**
 * Record indices of one location grouped by message envelope (communicator, peer's global rank, tag), each
 * queue in stream order: MPI's non-overtaking rule makes the k-th receive of an envelope match the k-th send of
 * the mirrored envelope (reference §1.1, matching as a keyed join). Built by a counting sort: one int per record
 * plus one small table entry per distinct envelope, nothing allocated per record. The envelope table is open
 * addressing over the three ints, stored interleaved (comm, peer, tag, queue) so that a probe touches one cache
 * line. Built by one thread, read-only afterwards.
 */
final class KeyedQueues {
    private static final int STRIDE = 4;
    private int[] table = new int[16 * STRIDE];
    private int mask = 15;
    private int queues;
    /** Record indices grouped by queue; queue q is {@code order[start[q] .. start[q + 1])}. */
    private int[] order = new int[0];
    private int[] start = new int[1];

    KeyedQueues() {
        clearSlots(table);
    }

    /** Source of the records to group: the envelope of record i, or null to leave it out. */
    interface Envelopes {
        int size();

        /** False when record i takes no part in matching. */
        boolean included(int i);

        int comm(int i);

        int peer(int i);

        int tag(int i);
    }

    static KeyedQueues build(Envelopes e) {
        KeyedQueues k = new KeyedQueues();
        int n = e.size();
        int[] queueOf = new int[n];
        int[] count = new int[16];
        for (int i = 0; i < n; i++) {
            if (!e.included(i)) {
                queueOf[i] = -1;
                continue;
            }
            int q = k.queueFor(e.comm(i), e.peer(i), e.tag(i));
            if (q == count.length) {
                count = java.util.Arrays.copyOf(count, count.length * 2);
            }
            count[q]++;
            queueOf[i] = q;
        }
        int[] start = new int[k.queues + 1];
        for (int q = 0; q < k.queues; q++) {
            start[q + 1] = start[q] + count[q];
        }
        int[] fill = java.util.Arrays.copyOf(start, k.queues);
        int[] order = new int[start[k.queues]];
        for (int i = 0; i < n; i++) {
            if (queueOf[i] >= 0) {
                order[fill[queueOf[i]]++] = i;
            }
        }
        k.start = start;
        k.order = order;
        return k;
    }

    private static void clearSlots(int[] t) {
        for (int i = 3; i < t.length; i += STRIDE) {
            t[i] = -1;
        }
    }

    private static int hash(int c, int p, int t) {
        int h = c * 0x9E3779B9 + p * 0x85EBCA6B + t * 0xC2B2AE35;
        return h ^ (h >>> 16);
    }

    /** Queue number of an envelope, -1 when it has none. */
    int find(int c, int p, int t) {
        final int[] tab = table;
        for (int h = hash(c, p, t) & mask; ; h = (h + 1) & mask) {
            int o = h * STRIDE;
            int q = tab[o + 3];
            if (q < 0) {
                return -1;
            }
            if (tab[o] == c && tab[o + 1] == p && tab[o + 2] == t) {
                return q;
            }
        }
    }

    private int queueFor(int c, int p, int t) {
        int h = hash(c, p, t) & mask;
        while (true) {
            int o = h * STRIDE;
            int q = table[o + 3];
            if (q < 0) {
                break;
            }
            if (table[o] == c && table[o + 1] == p && table[o + 2] == t) {
                return q;
            }
            h = (h + 1) & mask;
        }
        int q = queues++;
        int o = h * STRIDE;
        table[o] = c;
        table[o + 1] = p;
        table[o + 2] = t;
        table[o + 3] = q;
        if (queues * 2 > mask) {
            rehash();
        }
        return q;
    }

    int queueCount() {
        return queues;
    }

    int size(int q) {
        return start[q + 1] - start[q];
    }

    /** The k-th record index of queue q. */
    int get(int q, int k) {
        return order[start[q] + k];
    }

    /** Calls {@code v} with each envelope and the size of its queue. */
    void forEach(EnvelopeVisitor v) {
        for (int h = 0; h <= mask; h++) {
            int o = h * STRIDE;
            if (table[o + 3] >= 0) {
                v.visit(table[o], table[o + 1], table[o + 2], size(table[o + 3]));
            }
        }
    }

    interface EnvelopeVisitor {
        void visit(int comm, int peer, int tag, int queueSize);
    }

    private void rehash() {
        int[] old = table;
        int cap = (mask + 1) * 2;
        table = new int[cap * STRIDE];
        clearSlots(table);
        mask = cap - 1;
        for (int o = 0; o < old.length; o += STRIDE) {
            if (old[o + 3] >= 0) {
                int h = hash(old[o], old[o + 1], old[o + 2]) & mask;
                while (table[h * STRIDE + 3] >= 0) {
                    h = (h + 1) & mask;
                }
                System.arraycopy(old, o, table, h * STRIDE, STRIDE);
            }
        }
    }
}
