package dev.straggler.spark;

import dev.straggler.patterns.waitstate.CollectiveChunk;
import dev.straggler.patterns.waitstate.InstanceCollector;
import it.unimi.dsi.fastutil.bytes.ByteArrayList;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;

/**
 * One (communicator, chunk) group of the collective stage once evaluated: the chunk's most severe occurrences (for
 * the driver) and every member record's outcome (grouped back by location).
 */
final class ChunkResult implements Serializable {
    /** What of a chunk goes to the driver. */
    record Found(int comm, int chunk, InstanceCollector occurrences) implements Serializable {
    }

    private final Found found;
    private final int[] location;
    private final int[] record;
    private final long[] wait;
    private final long[] completion;
    private final byte[] violation;
    private final byte[] flags;
    private final int[] reference;

    private ChunkResult(Found found, int[] location, int[] record, long[] wait, long[] completion, byte[] violation,
                        byte[] flags, int[] reference) {
        this.found = found;
        this.location = location;
        this.record = record;
        this.wait = wait;
        this.completion = completion;
        this.violation = violation;
        this.flags = flags;
        this.reference = reference;
    }

    Found found() {
        return found;
    }

    /** Rows (loc, rec, wait, completion, violation, flags, reference) for the grouping by location. */
    Iterator<Row> outcomeRows() {
        List<Row> rows = new ArrayList<>(location.length);
        for (int i = 0; i < location.length; i++) {
            rows.add(RowFactory.create(location[i], record[i], wait[i], completion[i], violation[i], flags[i],
                    reference[i]));
        }
        return rows.iterator();
    }

    /**
     * Evaluates a group row (comm, chunk, members) whose members are structs (kin, j, loc, rec, begin, end, sent,
     * received, op, root, path, rank, thread), in any order.
     */
    static ChunkResult evaluate(Row group, Plan plan, int topInstances) {
        int comm = group.getInt(0);
        int chunk = group.getInt(1);
        List<Row> rows = new ArrayList<>(group.<Row>getList(2));
        rows.sort(Comparator.<Row>comparingInt(r -> r.getInt(0)).thenComparingInt(r -> r.getInt(1)));
        int size = plan.members[comm].length;
        int count = rows.size();
        if (count % size != 0) {
            throw new IllegalStateException("collective chunk " + chunk + " of communicator " + comm + " has "
                    + count + " member records, not a multiple of its " + size + " members");
        }
        long[] begin = new long[count];
        long[] end = new long[count];
        long[] sent = new long[count];
        long[] received = new long[count];
        byte[] op = new byte[count];
        int[] root = new int[count];
        int[] loc = new int[count];
        int[] rec = new int[count];
        int[] path = new int[count];
        int[] rank = new int[count];
        int[] thread = new int[count];
        for (int i = 0; i < count; i++) {
            Row r = rows.get(i);
            loc[i] = r.getInt(2);
            rec[i] = r.getInt(3);
            begin[i] = r.getLong(4);
            end[i] = r.getLong(5);
            sent[i] = r.getLong(6);
            received[i] = r.getLong(7);
            op[i] = r.getByte(8);
            root[i] = r.getInt(9);
            path[i] = r.getInt(10);
            rank[i] = r.getInt(11);
            thread[i] = r.getInt(12);
        }
        CollectiveChunk.Members m = new CollectiveChunk.Members(size, count / size, begin, end, sent, received, op,
                root, loc, rec, path, rank, thread);
        IntArrayList oLoc = new IntArrayList();
        IntArrayList oRec = new IntArrayList();
        LongArrayList oWait = new LongArrayList();
        LongArrayList oCompletion = new LongArrayList();
        ByteArrayList oViolation = new ByteArrayList();
        ByteArrayList oFlags = new ByteArrayList();
        IntArrayList oReference = new IntArrayList();
        InstanceCollector found = CollectiveChunk.evaluate(m, topInstances, (l, r, w, c, v, f, ref) -> {
            oLoc.add(l);
            oRec.add(r);
            oWait.add(w);
            oCompletion.add(c);
            oViolation.add(v);
            oFlags.add(f);
            oReference.add(ref);
        });
        return new ChunkResult(new Found(comm, chunk, found), oLoc.toIntArray(), oRec.toIntArray(),
                oWait.toLongArray(), oCompletion.toLongArray(), oViolation.toByteArray(), oFlags.toByteArray(),
                oReference.toIntArray());
    }
}
