package dev.straggler.replay;

import dev.straggler.trace.Communicator;
import dev.straggler.trace.TraceDefinitions;
import it.unimi.dsi.fastutil.ints.IntArrayList;

import java.util.List;

/**
 * Point-to-point matching by MPI semantics: per envelope (communicator, source, destination, tag), the k-th
 * shipped send matches the k-th receive, in each location's stream order (non-overtaking). Sends that Scalasca
 * does not ship (cancelled, or outside an MPI call) and receives outside an MPI call take no part.
 *
 * <p>Nothing is stored per message beyond one int per record in the envelope queues: partners are found by
 * walking a location's records in order with a cursor ({@link #receiveCursor}, {@link #sendCursor}). Cursors of
 * different locations may be used concurrently; one cursor is used by one thread.
 */
public final class MessageMatching {
    private final TraceDefinitions defs;
    private final int[] locationOfRank;
    private final List<LocationData> locations;
    private final KeyedQueues[] sendQueues;
    private final KeyedQueues[] recvQueues;
    private long unmatchedSends;
    private long unmatchedReceives;
    private long matched;

    MessageMatching(TraceDefinitions defs, int[] locationOfRank, List<LocationData> locations) {
        this.defs = defs;
        this.locationOfRank = locationOfRank;
        this.locations = locations;
        this.sendQueues = new KeyedQueues[locations.size()];
        this.recvQueues = new KeyedQueues[locations.size()];
    }

    /** Builds the envelope queues of one location; locations may be indexed concurrently. */
    void index(LocationData loc) {
        KeyedQueues sq = new KeyedQueues();
        SendTable s = loc.sends();
        List<Communicator> comms = defs.communicators();
        for (int i = 0; i < s.size; i++) {
            if (s.shipped(i)) {
                sq.add(s.comm[i], comms.get(s.comm[i]).members()[s.peer[i]], s.tag[i], i);
            }
        }
        KeyedQueues rq = new KeyedQueues();
        RecvTable r = loc.receives();
        for (int i = 0; i < r.size; i++) {
            if (r.inMpi(i)) {
                rq.add(r.comm[i], comms.get(r.comm[i]).members()[r.peer[i]], r.tag[i], i);
            }
        }
        sq.trim();
        rq.trim();
        sendQueues[loc.location()] = sq;
        recvQueues[loc.location()] = rq;
    }

    /** Counts the records left without partner, once every location is indexed. */
    void countUnmatched() {
        for (LocationData loc : locations) {
            int me = loc.rank();
            recvQueues[loc.location()].forEach((comm, src, tag, queue) -> {
                int partner = src < locationOfRank.length ? locationOfRank[src] : -1;
                int sends = 0;
                if (partner >= 0 && sendQueues[partner] != null) {
                    int slot = sendQueues[partner].find(comm, me, tag);
                    sends = slot < 0 ? 0 : sendQueues[partner].queue(slot).size();
                }
                matched += Math.min(sends, queue.size());
                unmatchedReceives += Math.max(0, queue.size() - sends);
            });
            sendQueues[loc.location()].forEach((comm, dst, tag, queue) -> {
                int partner = dst < locationOfRank.length ? locationOfRank[dst] : -1;
                int recvs = 0;
                if (partner >= 0 && recvQueues[partner] != null) {
                    int slot = recvQueues[partner].find(comm, me, tag);
                    recvs = slot < 0 ? 0 : recvQueues[partner].queue(slot).size();
                }
                unmatchedSends += Math.max(0, queue.size() - recvs);
            });
        }
    }

    public long matchedMessages() {
        return matched;
    }

    /** Shipped sends no receive matched (Scalasca warns "unreceived send operations"). */
    public long unmatchedSends() {
        return unmatchedSends;
    }

    /** Receives with no matching send; they are skipped by the patterns. */
    public long unmatchedReceives() {
        return unmatchedReceives;
    }

    /** Walks the receives of a location in order, yielding each one's send. */
    public ReceiveCursor receiveCursor(int location) {
        return new ReceiveCursor(location);
    }

    /** Walks the sends of a location in order, yielding each one's receive. */
    public SendCursor sendCursor(int location) {
        return new SendCursor(location);
    }

    /** Partner lookup shared by both cursors. */
    public abstract class Cursor {
        final int location;
        final int rank;
        final KeyedQueues own;
        final int[] taken;
        int partnerLocation = -1;

        Cursor(int location, KeyedQueues own) {
            this.location = location;
            this.rank = locations.get(location).rank();
            this.own = own;
            this.taken = new int[own.queueCount()];
        }

        /** Location of the partner found by the last call to {@code partner}, -1 when none. */
        public int partnerLocation() {
            return partnerLocation;
        }

        int lookup(int comm, int peerLocal, int tag, KeyedQueues[] partners) {
            partnerLocation = -1;
            int peer = defs.communicators().get(comm).members()[peerLocal];
            int slot = own.find(comm, peer, tag);
            int ordinal = taken[slot]++;
            int loc = peer < locationOfRank.length ? locationOfRank[peer] : -1;
            if (loc < 0 || partners[loc] == null) {
                return -1;
            }
            int ps = partners[loc].find(comm, rank, tag);
            if (ps < 0) {
                return -1;
            }
            IntArrayList q = partners[loc].queue(ps);
            if (ordinal >= q.size()) {
                return -1;
            }
            partnerLocation = loc;
            return q.getInt(ordinal);
        }
    }

    /** Must be asked about receives in increasing index order. */
    public final class ReceiveCursor extends Cursor {
        private final RecvTable recvs;

        ReceiveCursor(int location) {
            super(location, recvQueues[location]);
            this.recvs = locations.get(location).receives();
        }

        /** Index of the send (in {@link #partnerLocation}'s table) matched by receive {@code i}, -1 when none. */
        public int partner(int i) {
            if (!recvs.inMpi(i)) {
                partnerLocation = -1;
                return -1;
            }
            return lookup(recvs.comm[i], recvs.peer[i], recvs.tag[i], sendQueues);
        }
    }

    /** Must be asked about sends in increasing index order. */
    public final class SendCursor extends Cursor {
        private final SendTable sends;

        SendCursor(int location) {
            super(location, sendQueues[location]);
            this.sends = locations.get(location).sends();
        }

        /** Index of the receive (in {@link #partnerLocation}'s table) matching send {@code i}, -1 when none. */
        public int partner(int i) {
            if (!sends.shipped(i)) {
                partnerLocation = -1;
                return -1;
            }
            return lookup(sends.comm[i], sends.peer[i], sends.tag[i], recvQueues);
        }
    }
}
