package dev.straggler.replay;

import dev.straggler.trace.TraceDefinitions;

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
    private List<LocationData> locations;
    private final KeyedQueues[] sendQueues;
    private final KeyedQueues[] recvQueues;
    /** Global rank of each communicator rank, per communicator (indexed without list lookups on the hot path). */
    private final int[][] members;
    private long unmatchedSends;
    private long unmatchedReceives;
    private long matched;

    MessageMatching(TraceDefinitions defs, int[] locationOfRank, int locationCount) {
        this.defs = defs;
        this.locationOfRank = locationOfRank;
        this.sendQueues = new KeyedQueues[locationCount];
        this.recvQueues = new KeyedQueues[locationCount];
        this.members = new int[defs.communicators().size()][];
        for (int c = 0; c < members.length; c++) {
            members[c] = defs.communicator(c).members();
        }
    }

    /** Builds the envelope queues of one location; locations may be indexed concurrently. */
    void index(LocationData loc) {
        SendTable s = loc.sends();
        RecvTable r = loc.receives();
        sendQueues[loc.location()] = KeyedQueues.build(new KeyedQueues.Envelopes() {
            public int size() {
                return s.size();
            }

            public boolean included(int i) {
                return s.shipped(i);
            }

            public int comm(int i) {
                return s.comm(i);
            }

            public int peer(int i) {
                return members[s.comm(i)][s.peer(i)];
            }

            public int tag(int i) {
                return s.tag(i);
            }
        });
        recvQueues[loc.location()] = KeyedQueues.build(new KeyedQueues.Envelopes() {
            public int size() {
                return r.size();
            }

            public boolean included(int i) {
                return r.inMpi(i);
            }

            public int comm(int i) {
                return r.comm(i);
            }

            public int peer(int i) {
                return members[r.comm(i)][r.peer(i)];
            }

            public int tag(int i) {
                return r.tag(i);
            }
        });
    }

    void setLocations(List<LocationData> all) {
        this.locations = all;
    }

    /** Counts the records left without partner, once every location is indexed. */
    void countUnmatched() {
        for (LocationData loc : locations) {
            int me = loc.rank();
            recvQueues[loc.location()].forEach((comm, src, tag, queueSize) -> {
                int partner = src < locationOfRank.length ? locationOfRank[src] : -1;
                int sends = 0;
                if (partner >= 0 && sendQueues[partner] != null) {
                    int slot = sendQueues[partner].find(comm, me, tag);
                    sends = slot < 0 ? 0 : sendQueues[partner].size(slot);
                }
                matched += Math.min(sends, queueSize);
                unmatchedReceives += Math.max(0, queueSize - sends);
            });
            sendQueues[loc.location()].forEach((comm, dst, tag, queueSize) -> {
                int partner = dst < locationOfRank.length ? locationOfRank[dst] : -1;
                int recvs = 0;
                if (partner >= 0 && recvQueues[partner] != null) {
                    int slot = recvQueues[partner].find(comm, me, tag);
                    recvs = slot < 0 ? 0 : recvQueues[partner].size(slot);
                }
                unmatchedSends += Math.max(0, queueSize - recvs);
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

    /**
     * Frees the envelope queues (one int per record) for a caller that has taken every partner it needs: cursors
     * made afterwards fail. The counts of matched and unmatched records stay.
     */
    public void releaseQueues() {
        java.util.Arrays.fill(sendQueues, null);
        java.util.Arrays.fill(recvQueues, null);
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
        /** Per own queue: the partner's mirrored queue and its location, resolved on first use. */
        private final int[] partnerQueue;
        private final int[] partnerOf;
        int partnerLocation = -1;

        Cursor(int location, KeyedQueues own) {
            this.location = location;
            this.rank = locations.get(location).rank();
            this.own = own;
            this.taken = new int[own.queueCount()];
            this.partnerQueue = new int[own.queueCount()];
            this.partnerOf = new int[own.queueCount()];
            java.util.Arrays.fill(partnerOf, -2);
        }

        /** Location of the partner found by the last call to {@code partner}, -1 when none. */
        public int partnerLocation() {
            return partnerLocation;
        }

        int lookup(int comm, int peerLocal, int tag, KeyedQueues[] partners) {
            partnerLocation = -1;
            int peer = members[comm][peerLocal];
            int slot = own.find(comm, peer, tag);
            int ordinal = taken[slot]++;
            if (partnerOf[slot] == -2) {
                int loc = peer < locationOfRank.length ? locationOfRank[peer] : -1;
                int ps = loc < 0 || partners[loc] == null ? -1 : partners[loc].find(comm, rank, tag);
                partnerOf[slot] = ps < 0 ? -1 : loc;
                partnerQueue[slot] = ps;
            }
            int loc = partnerOf[slot];
            if (loc < 0 || ordinal >= partners[loc].size(partnerQueue[slot])) {
                return -1;
            }
            partnerLocation = loc;
            return partners[loc].get(partnerQueue[slot], ordinal);
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
            return lookup(recvs.comm(i), recvs.peer(i), recvs.tag(i), sendQueues);
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
            return lookup(sends.comm(i), sends.peer(i), sends.tag(i), recvQueues);
        }
    }
}
