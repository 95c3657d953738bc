package dev.straggler.trace;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import it.unimi.dsi.fastutil.objects.Object2ObjectOpenHashMap;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The checks of {@link TraceValidator} that need more than one location: what the wait-state analysis relies on.
 * <ul>
 *   <li>Point-to-point: per (communicator, source, destination, tag) the k-th send meets the k-th receive, as the
 *       analysis matches them; every send must be received and every receive sent, with equal lengths. Leftovers
 *       that differ only in the tag are reported as a tag mismatch.</li>
 *   <li>Collectives: per communicator, every member joins the same number of operations, and the k-th operation
 *       is the same operation with the same root on every member.</li>
 *   <li>Clock condition (warnings, counted by kind): a receive completing before its send started; a member leaving
 *       an N×N operation or barrier before the last member entered.</li>
 * </ul>
 * Records are gathered while the validator reads each location (one instance per location, filled by one thread),
 * then {@link #check} runs once.
 */
final class CommunicationCheck {
    /** Operations after which no member may leave before every member has entered. */
    private static final Set<CollectiveOp> ALL_TO_ALL = EnumSet.of(CollectiveOp.BARRIER, CollectiveOp.ALLREDUCE,
            CollectiveOp.ALLGATHER, CollectiveOp.ALLGATHERV, CollectiveOp.ALLTOALL, CollectiveOp.ALLTOALLV,
            CollectiveOp.ALLTOALLW, CollectiveOp.REDUCE_SCATTER, CollectiveOp.REDUCE_SCATTER_BLOCK);

    /** Point-to-point and collective records of one location. */
    static final class Records {
        final int location;
        final int rank;
        final IntArrayList sendComm = new IntArrayList();
        final IntArrayList sendPeer = new IntArrayList();
        final IntArrayList sendTag = new IntArrayList();
        final LongArrayList sendBytes = new LongArrayList();
        final LongArrayList sendTime = new LongArrayList();
        final LongArrayList sendIndex = new LongArrayList();
        final IntArrayList recvComm = new IntArrayList();
        final IntArrayList recvPeer = new IntArrayList();
        final IntArrayList recvTag = new IntArrayList();
        final LongArrayList recvBytes = new LongArrayList();
        final LongArrayList recvTime = new LongArrayList();
        final LongArrayList recvIndex = new LongArrayList();
        final IntArrayList collComm = new IntArrayList();
        final IntArrayList collOp = new IntArrayList();
        final IntArrayList collRoot = new IntArrayList();
        final LongArrayList collBegin = new LongArrayList();
        final LongArrayList collEnd = new LongArrayList();
        final LongArrayList collIndex = new LongArrayList();

        Records(int location, int rank) {
            this.location = location;
            this.rank = rank;
        }

        /** A send or isend; {@code peerGlobal} is the destination's global rank. */
        void send(int comm, int peerGlobal, int tag, long bytes, long time, long index) {
            sendComm.add(comm);
            sendPeer.add(peerGlobal);
            sendTag.add(tag);
            sendBytes.add(bytes);
            sendTime.add(time);
            sendIndex.add(index);
        }

        /** A recv or irecv completion; {@code peerGlobal} is the source's global rank. */
        void receive(int comm, int peerGlobal, int tag, long bytes, long time, long index) {
            recvComm.add(comm);
            recvPeer.add(peerGlobal);
            recvTag.add(tag);
            recvBytes.add(bytes);
            recvTime.add(time);
            recvIndex.add(index);
        }

        void collective(int comm, int op, int root, long begin, long end, long index) {
            collComm.add(comm);
            collOp.add(op);
            collRoot.add(root);
            collBegin.add(begin);
            collEnd.add(end);
            collIndex.add(index);
        }
    }

    /** A finding not tied to one location's scan. */
    record Finding(int location, int rank, long eventIndex, long time, String message, boolean warning) {
    }

    /** Findings listed per kind; counts are exact. */
    static final class Result {
        final List<Finding> listed = new ArrayList<>();
        long errors;
        long warnings;
        long p2pViolations;
        long collectiveViolations;
    }

    private record Envelope(int comm, int source, int dest, int tag) {
    }

    private record Pair(int comm, int source, int dest) {
    }

    /** A record: location slot in the records array and row within it. */
    private static long ref(int slot, int row) {
        return ((long) slot << 32) | (row & 0xffffffffL);
    }

    private CommunicationCheck() {
    }

    static Result check(TraceDefinitions defs, Records[] all, int maxPerKind) {
        Result res = new Result();
        matchMessages(defs, all, maxPerKind, res);
        matchCollectives(defs, all, maxPerKind, res);
        return res;
    }

    private static void add(Result res, int max, int[] listedOfKind, int kind, Finding f) {
        if (f.warning()) {
            res.warnings++;
        } else {
            res.errors++;
        }
        if (listedOfKind[kind]++ < max) {
            res.listed.add(f);
        }
    }

    private static void matchMessages(TraceDefinitions defs, Records[] all, int max, Result res) {
        Clock clock = defs.clock();
        Map<Envelope, LongArrayList> sends = new Object2ObjectOpenHashMap<>();
        Map<Envelope, LongArrayList> recvs = new Object2ObjectOpenHashMap<>();
        for (int s = 0; s < all.length; s++) {
            Records r = all[s];
            if (r == null) {
                continue;
            }
            for (int i = 0; i < r.sendComm.size(); i++) {
                sends.computeIfAbsent(new Envelope(r.sendComm.getInt(i), r.rank, r.sendPeer.getInt(i),
                        r.sendTag.getInt(i)), k -> new LongArrayList()).add(ref(s, i));
            }
            for (int i = 0; i < r.recvComm.size(); i++) {
                recvs.computeIfAbsent(new Envelope(r.recvComm.getInt(i), r.recvPeer.getInt(i), r.rank,
                        r.recvTag.getInt(i)), k -> new LongArrayList()).add(ref(s, i));
            }
        }
        int[] listed = new int[5];
        java.util.Comparator<Pair> order = java.util.Comparator.comparingInt(Pair::comm)
                .thenComparingInt(Pair::source).thenComparingInt(Pair::dest);
        Map<Pair, List<Long>> leftoverSends = new TreeMap<>(order);
        Map<Pair, List<Long>> leftoverRecvs = new TreeMap<>(order);
        for (var e : sends.entrySet()) {
            LongArrayList ss = e.getValue();
            LongArrayList rs = recvs.getOrDefault(e.getKey(), new LongArrayList());
            int n = Math.min(ss.size(), rs.size());
            for (int k = 0; k < n; k++) {
                Records sr = all[(int) (ss.getLong(k) >>> 32)];
                int si = (int) ss.getLong(k);
                Records rr = all[(int) (rs.getLong(k) >>> 32)];
                int ri = (int) rs.getLong(k);
                long sb = sr.sendBytes.getLong(si);
                long rb = rr.recvBytes.getLong(ri);
                if (sb != rb) {
                    add(res, max, listed, 0, new Finding(rr.location, rr.rank, rr.recvIndex.getLong(ri),
                            rr.recvTime.getLong(ri), "receive of " + rb + " bytes matches a send of " + sb
                            + " bytes (rank " + sr.rank + ", location " + sr.location + ", event "
                            + sr.sendIndex.getLong(si) + ", tag " + e.getKey().tag() + ")", false));
                }
                if (rr.recvTime.getLong(ri) < sr.sendTime.getLong(si)) {
                    res.p2pViolations++;
                    add(res, max, listed, 1, new Finding(rr.location, rr.rank, rr.recvIndex.getLong(ri),
                            rr.recvTime.getLong(ri), "clock condition: the receive completes "
                            + clock.duration(sr.sendTime.getLong(si) - rr.recvTime.getLong(ri)) + " before its send "
                            + "(rank " + sr.rank + ", event " + sr.sendIndex.getLong(si) + " at "
                            + clock.describe(sr.sendTime.getLong(si)) + ") started", true));
                }
            }
            Pair p = new Pair(e.getKey().comm(), e.getKey().source(), e.getKey().dest());
            for (int k = n; k < ss.size(); k++) {
                leftoverSends.computeIfAbsent(p, x -> new ArrayList<>()).add(ss.getLong(k));
            }
        }
        for (var e : recvs.entrySet()) {
            LongArrayList rs = e.getValue();
            LongArrayList ss = sends.get(e.getKey());
            int n = ss == null ? 0 : Math.min(ss.size(), rs.size());
            Pair p = new Pair(e.getKey().comm(), e.getKey().source(), e.getKey().dest());
            for (int k = n; k < rs.size(); k++) {
                leftoverRecvs.computeIfAbsent(p, x -> new ArrayList<>()).add(rs.getLong(k));
            }
        }
        for (var e : leftoverSends.entrySet()) {
            List<Long> otherTags = leftoverRecvs.getOrDefault(e.getKey(), List.of());
            for (long ref : e.getValue()) {
                Records r = all[(int) (ref >>> 32)];
                int i = (int) ref;
                String hint = otherTags.isEmpty() ? "" : "; rank " + e.getKey().dest() + " has unmatched receives "
                        + "from rank " + r.rank + " on this communicator with tag "
                        + all[(int) (otherTags.get(0) >>> 32)].recvTag.getInt((int) (long) otherTags.get(0))
                        + " (tag mismatch?)";
                add(res, max, listed, 2, new Finding(r.location, r.rank, r.sendIndex.getLong(i), r.sendTime.getLong(i),
                        "send to rank " + r.sendPeer.getInt(i) + " (communicator " + r.sendComm.getInt(i) + ", tag "
                                + r.sendTag.getInt(i) + ", " + r.sendBytes.getLong(i) + " bytes) is never received"
                                + hint, false));
            }
        }
        for (var e : leftoverRecvs.entrySet()) {
            List<Long> otherTags = leftoverSends.getOrDefault(e.getKey(), List.of());
            for (long ref : e.getValue()) {
                Records r = all[(int) (ref >>> 32)];
                int i = (int) ref;
                String hint = otherTags.isEmpty() ? "" : "; rank " + e.getKey().source() + " has unmatched sends to "
                        + "rank " + r.rank + " on this communicator with tag "
                        + all[(int) (otherTags.get(0) >>> 32)].sendTag.getInt((int) (long) otherTags.get(0))
                        + " (tag mismatch?)";
                add(res, max, listed, 3, new Finding(r.location, r.rank, r.recvIndex.getLong(i), r.recvTime.getLong(i),
                        "receive from rank " + r.recvPeer.getInt(i) + " (communicator " + r.recvComm.getInt(i)
                                + ", tag " + r.recvTag.getInt(i) + ") has no matching send" + hint, false));
            }
        }
    }

    private static void matchCollectives(TraceDefinitions defs, Records[] all, int max, Result res) {
        Clock clock = defs.clock();
        int comms = defs.communicators().size();
        // per communicator, per member (communicator rank): the records of that member, in stream order
        List<List<LongArrayList>> byComm = new ArrayList<>(comms);
        for (int c = 0; c < comms; c++) {
            List<LongArrayList> m = new ArrayList<>();
            for (int j = 0; j < defs.communicator(c).size(); j++) {
                m.add(new LongArrayList());
            }
            byComm.add(m);
        }
        for (int s = 0; s < all.length; s++) {
            Records r = all[s];
            if (r == null) {
                continue;
            }
            for (int i = 0; i < r.collComm.size(); i++) {
                int c = r.collComm.getInt(i);
                int member = defs.communicator(c).localRank(r.rank);
                if (member >= 0) {
                    byComm.get(c).get(member).add(ref(s, i));
                }
            }
        }
        int[] listed = new int[4];
        for (int c = 0; c < comms; c++) {
            Communicator comm = defs.communicator(c);
            List<LongArrayList> members = byComm.get(c);
            int fewest = Integer.MAX_VALUE;
            int most = 0;
            int fewestMember = 0;
            int mostMember = 0;
            for (int j = 0; j < members.size(); j++) {
                int n = members.get(j).size();
                if (n < fewest) {
                    fewest = n;
                    fewestMember = j;
                }
                if (n > most) {
                    most = n;
                    mostMember = j;
                }
            }
            if (members.isEmpty() || most == 0) {
                continue;
            }
            if (fewest < most) {
                long first = members.get(mostMember).getLong(fewest);
                Records r = all[(int) (first >>> 32)];
                int i = (int) first;
                add(res, max, listed, 0, new Finding(r.location, r.rank, r.collIndex.getLong(i), r.collEnd.getLong(i),
                        "collective #" + (fewest + 1) + " on communicator " + c + " (" + comm.name() + ", size "
                                + comm.size() + ") is incomplete: rank " + comm.globalRank(fewestMember) + " joins "
                                + fewest + " collective operation(s) on it, rank " + r.rank + " " + most, false));
            }
            for (int k = 0; k < fewest; k++) {
                long first = members.get(0).getLong(k);
                Records r0 = all[(int) (first >>> 32)];
                int i0 = (int) first;
                int op = r0.collOp.getInt(i0);
                int root = r0.collRoot.getInt(i0);
                long lastBegin = Long.MIN_VALUE;
                long firstEnd = Long.MAX_VALUE;
                for (int j = 0; j < members.size(); j++) {
                    long ref = members.get(j).getLong(k);
                    Records r = all[(int) (ref >>> 32)];
                    int i = (int) ref;
                    lastBegin = Math.max(lastBegin, r.collBegin.getLong(i));
                    firstEnd = Math.min(firstEnd, r.collEnd.getLong(i));
                    if (r.collOp.getInt(i) != op || r.collRoot.getInt(i) != root) {
                        add(res, max, listed, 1, new Finding(r.location, r.rank, r.collIndex.getLong(i),
                                r.collEnd.getLong(i), "collective #" + (k + 1) + " on communicator " + c + " ("
                                + comm.name() + ") is " + opName(r.collOp.getInt(i), r.collRoot.getInt(i))
                                + " here but " + opName(op, root) + " on rank " + r0.rank, false));
                    }
                }
                if (CollectiveOp.isValidCode(op) && ALL_TO_ALL.contains(CollectiveOp.of(op)) && firstEnd < lastBegin
                        && comm.size() > 1) {
                    res.collectiveViolations++;
                    add(res, max, listed, 2, new Finding(r0.location, r0.rank, r0.collIndex.getLong(i0),
                            r0.collEnd.getLong(i0), "clock condition: in collective #" + (k + 1) + " ("
                            + opName(op, root) + ") on communicator " + c + " a member leaves at "
                            + clock.describe(firstEnd) + ", " + clock.duration(lastBegin - firstEnd)
                            + " before the last member enters at " + clock.describe(lastBegin), true));
                }
            }
        }
    }

    private static String opName(int op, int root) {
        String name = CollectiveOp.isValidCode(op) ? CollectiveOp.of(op).name() : "operation " + op;
        return root >= 0 ? name + " (root " + root + ")" : name;
    }
}
