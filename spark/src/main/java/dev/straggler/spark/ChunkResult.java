package dev.straggler.spark;

import dev.straggler.patterns.rootcause.CollectiveRoles;
import dev.straggler.patterns.waitstate.CollectiveChunk;
import dev.straggler.patterns.waitstate.CollectiveOutcomes;
import dev.straggler.patterns.waitstate.InstanceCollector;
import scala.Tuple2;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;

/**
 * One (communicator, chunk) group of the collective stage once evaluated: the chunk's most severe occurrences (for
 * the driver) and every member's outcomes (grouped back by location).
 */
final class ChunkResult implements Serializable {
    /** What of a chunk goes to the driver. */
    record Found(int comm, int chunk, InstanceCollector occurrences) implements Serializable {
    }

    /** One member's roles in the root-cause stage for its records of a chunk: role k belongs to row {@code row[k]}. */
    record RoleBlock(int[] row, CollectiveRoles roles) implements Serializable {
        /** Copies the roles into the location's own. */
        void into(CollectiveRoles target) {
            for (int k = 0; k < row.length; k++) {
                roles.copyTo(k, target, row[k]);
            }
        }
    }

    private final Found found;
    private final int[] location;
    private final Blocks.OutcomeBlock[] outcomes;
    /** Per member, null unless the root causes are asked for. */
    private final RoleBlock[] roles;

    private ChunkResult(Found found, int[] location, Blocks.OutcomeBlock[] outcomes, RoleBlock[] roles) {
        this.found = found;
        this.location = location;
        this.outcomes = outcomes;
        this.roles = roles;
    }

    /** Each member's roles for the root-cause stage, keyed by its location (none unless asked for). */
    Iterator<Tuple2<Integer, RoleBlock>> roles() {
        List<Tuple2<Integer, RoleBlock>> out = new ArrayList<>();
        for (int j = 0; roles != null && j < location.length; j++) {
            out.add(new Tuple2<>(location[j], roles[j]));
        }
        return out.iterator();
    }

    Found found() {
        return found;
    }

    /** Each member's outcomes, keyed by its location. */
    Iterator<Tuple2<Integer, Blocks.OutcomeBlock>> outcomes() {
        List<Tuple2<Integer, Blocks.OutcomeBlock>> out = new ArrayList<>(location.length);
        for (int j = 0; j < location.length; j++) {
            out.add(new Tuple2<>(location[j], outcomes[j]));
        }
        return out.iterator();
    }

    /** Evaluates the instances of a chunk from its members' blocks (one per communicator rank, any order). */
    static ChunkResult evaluate(Blocks.ChunkKey key, Iterable<Blocks.MemberBlock> blocks, Plan plan, int top) {
        List<Blocks.MemberBlock> members = new ArrayList<>();
        blocks.forEach(members::add);
        members.sort(Comparator.comparingInt(Blocks.MemberBlock::j));
        int size = plan.members[key.comm()].length;
        if (members.size() != size) {
            throw new IllegalStateException("collective chunk " + key.chunk() + " of communicator " + key.comm()
                    + " has " + members.size() + " member blocks, not its " + size + " members");
        }
        int instances = members.get(0).row().length;
        int count = instances * size;
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
        for (int j = 0; j < size; j++) {
            Blocks.MemberBlock b = members.get(j);
            for (int k = 0; k < instances; k++) {
                int x = k * size + j;
                loc[x] = b.location();
                rec[x] = b.row()[k];
                begin[x] = b.begin()[k];
                end[x] = b.end()[k];
                sent[x] = b.sent()[k];
                received[x] = b.received()[k];
                op[x] = b.op()[k];
                root[x] = b.root()[k];
                path[x] = b.path()[k];
                rank[x] = b.rank();
                thread[x] = b.thread();
            }
        }
        CollectiveChunk.Members m = new CollectiveChunk.Members(size, instances, begin, end, sent, received, op,
                root, loc, rec, path, rank, thread);
        // member j's outcome of instance k is element k of j's block (instances that are not evaluated keep the defaults)
        long[][] wait = new long[size][instances];
        long[][] completion = new long[size][instances];
        byte[][] violation = new byte[size][instances];
        byte[][] flags = new byte[size][instances];
        int[][] reference = new int[size][instances];
        for (int[] r : reference) {
            java.util.Arrays.fill(r, -1);
        }
        InstanceCollector found = CollectiveChunk.evaluate(m, top, (k, j, w, c, v, f, ref) -> {
            wait[j][k] = w;
            completion[j][k] = c;
            violation[j][k] = v;
            flags[j][k] = f;
            reference[j][k] = ref;
        });
        int[] location = new int[size];
        Blocks.OutcomeBlock[] outcomes = new Blocks.OutcomeBlock[size];
        for (int j = 0; j < size; j++) {
            Blocks.MemberBlock b = members.get(j);
            location[j] = b.location();
            outcomes[j] = new Blocks.OutcomeBlock(b.row(), wait[j], completion[j], violation[j], flags[j],
                    reference[j]);
        }
        RoleBlock[] roles = plan.rootCauses ? roles(key, members, plan, instances, op, root, wait, completion,
                flags, reference) : null;
        return new ChunkResult(new Found(key.comm(), key.chunk(), found), location, outcomes, roles);
    }

    /** Every member's roles in the chunk's instances, as the single-machine stage decides them per instance. */
    private static RoleBlock[] roles(Blocks.ChunkKey key, List<Blocks.MemberBlock> members, Plan plan, int instances,
                                     byte[] op, int[] root, long[][] wait, long[][] completion, byte[][] flags,
                                     int[][] reference) {
        int size = members.size();
        int[] global = plan.members[key.comm()];
        int world = plan.locationOfRank.length;
        CollectiveRoles[] byMember = new CollectiveRoles[size];
        for (int j = 0; j < size; j++) {
            byMember[j] = new CollectiveRoles(instances);
        }
        boolean[] participates = new boolean[size];
        boolean[] sync = new boolean[size];
        long[] w = new long[size];
        long[] c = new long[size];
        int first = key.chunk() * plan.instancesPerChunk[key.comm()];
        for (int k = 0; k < instances; k++) {
            for (int j = 0; j < size; j++) {
                participates[j] = CollectiveOutcomes.participates(flags[j][k]);
                sync[j] = CollectiveOutcomes.syncPoint(flags[j][k]);
                w[j] = wait[j][k];
                c[j] = completion[j][k];
            }
            int x = k * size;
            int row = k;
            CollectiveRoles.ofInstance(first + k, global, world, op[x], root[x], reference[0][k], participates, sync,
                    w, c, new CollectiveRoles.Target() {
                        @Override
                        public CollectiveRoles role(int j) {
                            return byMember[j];
                        }

                        @Override
                        public int row(int j) {
                            return row;
                        }
                    });
        }
        RoleBlock[] out = new RoleBlock[size];
        for (int j = 0; j < size; j++) {
            out[j] = new RoleBlock(members.get(j).row(), byMember[j]);
        }
        return out;
    }
}
