package dev.straggler.patterns.rootcause;

import java.io.Serializable;
import java.util.Arrays;

/**
 * The part each collective record of one location plays in the root-cause stage, which only its instance as a whole
 * decides (reference §1.6, {@code SynchpointHandler::cb_pre_coll_*} and the collective delay handlers): whether the
 * record is a synchronisation point and with which ranks, and for the backward replay its instance, how many members
 * take part in it, its delay kind and the communicator rank the others waited for. One engine writes these with all
 * members of an instance at hand ({@link CollectiveSync#roles}); the location's own stages read them.
 */
public final class CollectiveRoles implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Instance number on the record's communicator, -1 when the record belongs to no complete instance. */
    final int[] instance;
    /** Members of the instance that take part in it. */
    final int[] participants;
    final boolean[] participates;
    /** {@link CollectiveSync.Kind} ordinal, -1 when the instance has no delay semantics or nobody synchronised. */
    final byte[] kind;
    final int[] reference;
    /** True when the record is a synchronisation point. */
    final boolean[] syncPoint;
    final long[] wait;
    final long[] completion;
    /** Sorted global ranks a synchronisation point synchronised with; null with {@link #allRanks} for all. */
    final int[][] ranks;
    final boolean[] allRanks;

    public CollectiveRoles(int rows) {
        instance = new int[rows];
        Arrays.fill(instance, -1);
        participants = new int[rows];
        participates = new boolean[rows];
        kind = new byte[rows];
        Arrays.fill(kind, (byte) -1);
        reference = new int[rows];
        Arrays.fill(reference, -1);
        syncPoint = new boolean[rows];
        wait = new long[rows];
        completion = new long[rows];
        ranks = new int[rows][];
        allRanks = new boolean[rows];
    }

    /** Sets the role of one record (see the fields). */
    public void set(int row, int instanceNumber, int participantCount, boolean takesPart, int delayKind,
                    int referenceRank, boolean isSyncPoint, long waitTicks, long completionTicks, int[] syncRanks,
                    boolean all) {
        instance[row] = instanceNumber;
        participants[row] = participantCount;
        participates[row] = takesPart;
        kind[row] = (byte) delayKind;
        reference[row] = referenceRank;
        syncPoint[row] = isSyncPoint;
        wait[row] = waitTicks;
        completion[row] = completionTicks;
        ranks[row] = syncRanks;
        allRanks[row] = all;
    }

    /** Copies the role of record {@code from} to record {@code to} of another location's (or chunk's) roles. */
    public void copyTo(int from, CollectiveRoles target, int to) {
        target.set(to, instance[from], participants[from], participates[from], kind[from], reference[from],
                syncPoint[from], wait[from], completion[from], ranks[from], allRanks[from]);
    }

    public int size() {
        return instance.length;
    }

    /** The ranks to register a synchronisation point with, as {@link SyncPoints} keeps them. */
    int[] registeredRanks(int row) {
        return allRanks[row] ? SyncPoints.ALL_RANKS : ranks[row];
    }

    /**
     * The roles of every record of instance {@code k} of a communicator, from its members' outcomes gathered in one
     * place: per member j (communicator rank) whether it takes part, is a synchronisation point, its waiting and
     * completion ticks; the operation code, root and reference as member 0 recorded them. {@code target} receives
     * member j's role.
     */
    public static void ofInstance(int k, int[] members, int world, byte opCode, int root, int reference,
                                  boolean[] participates, boolean[] syncPoint, long[] wait, long[] completion,
                                  Target target) {
        CollectiveSync s = new CollectiveSync();
        int n = members.length;
        s.ensure(n);
        System.arraycopy(participates, 0, s.participates, 0, n);
        System.arraycopy(syncPoint, 0, s.sync, 0, n);
        System.arraycopy(wait, 0, s.wait, 0, n);
        System.arraycopy(completion, 0, s.completion, 0, n);
        boolean loaded = s.define(n, opCode, root, reference);
        s.roles(loaded, k, members, world, (j, inst, parts, takes, kind, ref, sync, w, c, ranks, all) ->
                target.role(j).set(target.row(j), inst, parts, takes, kind, ref, sync, w, c, ranks, all));
    }

    /** Where {@link #ofInstance} writes member j's role: its location's roles and its record's row there. */
    public interface Target {
        CollectiveRoles role(int j);

        int row(int j);
    }
}
