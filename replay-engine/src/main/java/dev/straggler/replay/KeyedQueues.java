package dev.straggler.replay;

import it.unimi.dsi.fastutil.ints.IntArrayList;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Record indices of one location grouped by message envelope (communicator, peer's global rank, tag), each
 * queue in stream order: MPI's non-overtaking rule makes the k-th receive of an envelope match the k-th send of
 * the mirrored envelope (reference §1.1, matching as a keyed join). Open addressing over the three ints; allocates
 * per distinct envelope only. Built by one thread, read-only afterwards.
 */
final class KeyedQueues {
    private int[] comm = new int[16];
    private int[] peer = new int[16];
    private int[] tag = new int[16];
    private int[] slotOf = new int[16];
    private int mask = 15;
    private final List<IntArrayList> queues = new ArrayList<>();

    KeyedQueues() {
        Arrays.fill(slotOf, -1);
    }

    private static int hash(int c, int p, int t) {
        int h = c * 0x9E3779B9 + p * 0x85EBCA6B + t * 0xC2B2AE35;
        return h ^ (h >>> 16);
    }

    /** Queue number of an envelope, -1 when it has none. */
    int find(int c, int p, int t) {
        for (int h = hash(c, p, t) & mask; ; h = (h + 1) & mask) {
            int s = slotOf[h];
            if (s < 0) {
                return -1;
            }
            if (comm[h] == c && peer[h] == p && tag[h] == t) {
                return s;
            }
        }
    }

    void add(int c, int p, int t, int index) {
        int h = hash(c, p, t) & mask;
        while (true) {
            int s = slotOf[h];
            if (s < 0) {
                break;
            }
            if (comm[h] == c && peer[h] == p && tag[h] == t) {
                queues.get(s).add(index);
                return;
            }
            h = (h + 1) & mask;
        }
        int s = queues.size();
        IntArrayList q = new IntArrayList(4);
        q.add(index);
        queues.add(q);
        comm[h] = c;
        peer[h] = p;
        tag[h] = t;
        slotOf[h] = s;
        if (queues.size() * 2 > mask) {
            rehash();
        }
    }

    IntArrayList queue(int slot) {
        return queues.get(slot);
    }

    int queueCount() {
        return queues.size();
    }

    /** Calls {@code v} with each envelope and its queue. */
    void forEach(EnvelopeVisitor v) {
        for (int h = 0; h <= mask; h++) {
            if (slotOf[h] >= 0) {
                v.visit(comm[h], peer[h], tag[h], queues.get(slotOf[h]));
            }
        }
    }

    interface EnvelopeVisitor {
        void visit(int comm, int peer, int tag, IntArrayList queue);
    }

    private void rehash() {
        int[] oc = comm;
        int[] op = peer;
        int[] ot = tag;
        int[] os = slotOf;
        int cap = (mask + 1) * 2;
        comm = new int[cap];
        peer = new int[cap];
        tag = new int[cap];
        slotOf = new int[cap];
        Arrays.fill(slotOf, -1);
        mask = cap - 1;
        for (int i = 0; i < os.length; i++) {
            if (os[i] >= 0) {
                int h = hash(oc[i], op[i], ot[i]) & mask;
                while (slotOf[h] >= 0) {
                    h = (h + 1) & mask;
                }
                comm[h] = oc[i];
                peer[h] = op[i];
                tag[h] = ot[i];
                slotOf[h] = os[i];
            }
        }
    }

    void trim() {
        for (IntArrayList q : queues) {
            q.trim();
        }
    }
}
