package dev.straggler.spark;

import dev.straggler.replay.CollectiveTable;
import dev.straggler.replay.LocationData;
import dev.straggler.replay.RecvTable;
import dev.straggler.replay.SendTable;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.objects.Object2ObjectLinkedOpenHashMap;
import scala.Tuple2;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.IntPredicate;

/**
 * The communication records as the Spark stages move them: column blocks of up to {@value #SIZE} records of one
 * envelope, never one object per message. A location's shipped sends of an envelope (communicator, source rank,
 * destination rank, tag) are numbered 0, 1, 2, … in stream order, and so are the receives of the mirrored envelope;
 * MPI's non-overtaking rule makes send k match receive k. Block b holds ordinals {@code [b·SIZE, (b+1)·SIZE)}, so
 * the keyed join on (envelope, b) pairs each send block with the receive block of the same ordinals, and the i-th
 * send of one matches the i-th receive of the other.
 */
final class Blocks {
    static final int SIZE = 1024;

    private Blocks() {
    }

    /** Join key: an envelope and a block of ordinals. */
    record Key(int comm, int src, int dst, int tag, int block) implements Serializable {
    }

    /** Shipped sends of one location: row in its send table, Enter of the send call, record time, bytes. */
    record SendBlock(int location, boolean master, int[] row, long[] enter, long[] time, long[] bytes)
            implements Serializable {
    }

    /** Receives in MPI of one location: row in its receive table, request Enter. */
    record ReceiveBlock(int location, boolean master, int[] row, long[] requestEnter) implements Serializable {
    }

    /** Partner fields for one location, to be filled into its {@link ArrayPartners}. */
    interface Partners extends Serializable {
        void into(ArrayPartners p);
    }

    /**
     * For the receiving location: its rows and their sends' Enter, time, bytes and sender rank, and where the sends
     * are (location and send row, which the root-cause stage addresses).
     */
    record ReceiverPartners(int[] row, long[] enter, long[] time, long[] bytes, int rank, int from, int[] sendRow)
            implements Partners {
        @Override
        public void into(ArrayPartners p) {
            for (int i = 0; i < row.length; i++) {
                p.receive(row[i], enter[i], time[i], bytes[i], rank, from, sendRow[i]);
            }
        }
    }

    /** For the sending location: its rows and their receives' request Enter and receiver rank, location and row. */
    record SenderPartners(int[] row, long[] requestEnter, int rank, int to, int[] recvRow) implements Partners {
        @Override
        public void into(ArrayPartners p) {
            for (int i = 0; i < row.length; i++) {
                p.send(row[i], requestEnter[i], rank, to, recvRow[i]);
            }
        }
    }

    /** Matches a send block with the receive block of the same key: the first min(sizes) ordinals pair up. */
    static int matched(SendBlock s, ReceiveBlock r) {
        return Math.min(s.row().length, r.row().length);
    }

    /**
     * What a matched pair of blocks tells each side: the receiver learns its sends when the sender is its rank's
     * master location, the sender its receives when the receiver is (the single-machine queues' rule).
     */
    static Iterator<Tuple2<Integer, Partners>> partners(Key k, SendBlock s, ReceiveBlock r) {
        List<Tuple2<Integer, Partners>> out = new ArrayList<>(2);
        if (s.master()) {
            out.add(new Tuple2<>(r.location(), receiverSide(k, s, r)));
        }
        if (r.master()) {
            out.add(new Tuple2<>(s.location(), senderSide(k, s, r)));
        }
        return out.iterator();
    }

    static ReceiverPartners receiverSide(Key k, SendBlock s, ReceiveBlock r) {
        int m = matched(s, r);
        return new ReceiverPartners(Arrays.copyOf(r.row(), m), Arrays.copyOf(s.enter(), m),
                Arrays.copyOf(s.time(), m), Arrays.copyOf(s.bytes(), m), k.src(), s.location(),
                Arrays.copyOf(s.row(), m));
    }

    static SenderPartners senderSide(Key k, SendBlock s, ReceiveBlock r) {
        int m = matched(s, r);
        return new SenderPartners(Arrays.copyOf(s.row(), m), Arrays.copyOf(r.requestEnter(), m), k.dst(),
                r.location(), Arrays.copyOf(r.row(), m));
    }

    /** A location's shipped sends, by envelope and block. */
    static Iterator<Tuple2<Key, SendBlock>> sends(LocationData d, Plan plan) {
        SendTable s = d.sends();
        boolean master = plan.master(d.rank(), d.location());
        List<Tuple2<Key, SendBlock>> out = new ArrayList<>();
        for (Tuple2<Key, int[]> b : byEnvelope(s.size(), s::shipped,
                i -> new Key(s.comm(i), d.rank(), plan.globalRank(s.comm(i), s.peer(i)), s.tag(i), 0), plan.blockSize)) {
            int[] row = b._2();
            long[] enter = new long[row.length];
            long[] time = new long[row.length];
            long[] bytes = new long[row.length];
            for (int i = 0; i < row.length; i++) {
                enter[i] = s.enter(row[i]);
                time[i] = s.time(row[i]);
                bytes[i] = s.bytes(row[i]);
            }
            out.add(new Tuple2<>(b._1(), new SendBlock(d.location(), master, row, enter, time, bytes)));
        }
        return out.iterator();
    }

    /** A location's receives in MPI, by envelope and block. */
    static Iterator<Tuple2<Key, ReceiveBlock>> receives(LocationData d, Plan plan) {
        RecvTable r = d.receives();
        boolean master = plan.master(d.rank(), d.location());
        List<Tuple2<Key, ReceiveBlock>> out = new ArrayList<>();
        for (Tuple2<Key, int[]> b : byEnvelope(r.size(), r::inMpi,
                i -> new Key(r.comm(i), plan.globalRank(r.comm(i), r.peer(i)), d.rank(), r.tag(i), 0), plan.blockSize)) {
            int[] row = b._2();
            long[] req = new long[row.length];
            for (int i = 0; i < row.length; i++) {
                req[i] = r.reqEnter(row[i]);
            }
            out.add(new Tuple2<>(b._1(), new ReceiveBlock(d.location(), master, row, req)));
        }
        return out.iterator();
    }

    /**
     * The rows {@code included} of a table grouped by envelope, each envelope's rows in stream order cut into blocks
     * of {@code blockSize}: block b holds the envelope's ordinals {@code [b·blockSize, (b+1)·blockSize)} and is keyed
     * by the envelope with block number b.
     */
    private static List<Tuple2<Key, int[]>> byEnvelope(int size, IntPredicate included, IntFunction<Key> envelope,
                                                       int blockSize) {
        Object2ObjectLinkedOpenHashMap<Key, IntArrayList> rows = new Object2ObjectLinkedOpenHashMap<>();
        for (int i = 0; i < size; i++) {
            if (included.test(i)) {
                rows.computeIfAbsent(envelope.apply(i), x -> new IntArrayList()).add(i);
            }
        }
        List<Tuple2<Key, int[]>> out = new ArrayList<>();
        rows.forEach((k, all) -> {
            for (int from = 0, b = 0; from < all.size(); from += blockSize, b++) {
                int[] block = all.subList(from, Math.min(all.size(), from + blockSize)).toIntArray();
                out.add(new Tuple2<>(new Key(k.comm(), k.src(), k.dst(), k.tag(), b), block));
            }
        });
        return out;
    }

    /** Key of a collective chunk: communicator and chunk number. */
    record ChunkKey(int comm, int chunk) implements Serializable {
    }

    /**
     * One member's records of one chunk of collective instances (the chunk's instances in order): communicator
     * rank j, its location, rank and thread, and per record its row, Begin, End, bytes, operation, root and
     * unified call path.
     */
    record MemberBlock(int j, int location, int rank, int thread, int[] row, long[] begin, long[] end, long[] sent,
                       long[] received, byte[] op, int[] root, int[] path) implements Serializable {
    }

    /**
     * A master location's collective records that belong to a complete instance of a communicator with two or more
     * members, as one block per (communicator, chunk); its k-th record on a communicator is its part of instance k.
     */
    static Iterator<Tuple2<ChunkKey, MemberBlock>> members(LocationData d, Plan plan) {
        List<Tuple2<ChunkKey, MemberBlock>> out = new ArrayList<>();
        if (!plan.master(d.rank(), d.location())) {
            return out.iterator();
        }
        CollectiveTable t = d.collectives();
        int comms = plan.members.length;
        IntArrayList[] byComm = new IntArrayList[comms];
        for (int i = 0; i < t.size(); i++) {
            int c = t.comm(i);
            if (byComm[c] == null) {
                byComm[c] = new IntArrayList();
            }
            byComm[c].add(i);
        }
        int[] global = plan.localToGlobal.get(d.location());
        for (int c = 0; c < comms; c++) {
            if (byComm[c] == null || plan.instances[c] == 0 || plan.members[c].length < 2) {
                continue;
            }
            int j = plan.memberIndex(c, d.rank());
            int per = plan.instancesPerChunk[c];
            int count = Math.min(plan.instances[c], byComm[c].size());
            for (int from = 0; from < count; from += per) {
                int n = Math.min(per, count - from);
                int[] row = new int[n];
                long[] begin = new long[n];
                long[] end = new long[n];
                long[] sent = new long[n];
                long[] received = new long[n];
                byte[] op = new byte[n];
                int[] root = new int[n];
                int[] path = new int[n];
                for (int k = 0; k < n; k++) {
                    int i = byComm[c].getInt(from + k);
                    row[k] = i;
                    begin[k] = t.begin(i);
                    end[k] = t.end(i);
                    sent[k] = t.sent(i);
                    received[k] = t.received(i);
                    op[k] = t.op(i);
                    root[k] = t.root(i);
                    path[k] = global[t.callPath(i)];
                }
                out.add(new Tuple2<>(new ChunkKey(c, from / per), new MemberBlock(j, d.location(), d.rank(),
                        d.thread(), row, begin, end, sent, received, op, root, path)));
            }
        }
        return out.iterator();
    }

    /** The collective outcomes of one location's records of one chunk. */
    record OutcomeBlock(int[] row, long[] waitTime, long[] completion, byte[] violation, byte[] flags, int[] reference)
            implements Serializable {
    }
}
