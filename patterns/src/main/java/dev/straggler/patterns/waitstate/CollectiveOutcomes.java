package dev.straggler.patterns.waitstate;

import dev.straggler.replay.Replay;

/**
 * What the collective patterns found for every member record of every collective instance, stored next to the
 * record (per location, per collective row): waiting and completion time (ticks), clock violation, whether the
 * member took part in the operation's synchronisation and was a synchronisation point, and the communicator rank
 * the others waited for (the latest rank, or the root of a 1-to-N operation; -1 when none). The location analyses
 * read the times; the root-cause stage reads the synchronisation points. Written once by {@link CollectiveReplay},
 * each record by exactly one task; read-only afterwards. A distributed engine holds the outcomes of one location only
 * ({@link #forLocation}), where that location's analysis runs.
 */
public final class CollectiveOutcomes {
    private static final byte PARTICIPATES = 1;
    private static final byte SYNC = 2;

    final long[][] wait;
    final long[][] completion;
    /** {@link ViolationKind} ordinal + 1, 0 for none. */
    final byte[][] violation;
    final byte[][] flags;
    final int[][] reference;
    /** Location of row 0 of the arrays: 0 for all locations, the location for {@link #forLocation}. */
    private final int first;

    CollectiveOutcomes(Replay replay) {
        this(0, replay.locations().size());
        for (int l = 0; l < wait.length; l++) {
            allocate(l, replay.location(l).collectives().size());
        }
    }

    private CollectiveOutcomes(int first, int n) {
        this.first = first;
        wait = new long[n][];
        completion = new long[n][];
        violation = new byte[n][];
        flags = new byte[n][];
        reference = new int[n][];
    }

    private void allocate(int l, int size) {
        wait[l] = new long[size];
        completion[l] = new long[size];
        violation[l] = new byte[size];
        flags[l] = new byte[size];
        reference[l] = new int[size];
        java.util.Arrays.fill(reference[l], -1);
    }

    /** Outcomes of one location with {@code records} collective records, all zero until {@link #set}. */
    public static CollectiveOutcomes forLocation(int location, int records) {
        CollectiveOutcomes o = new CollectiveOutcomes(location, 1);
        o.allocate(0, records);
        return o;
    }

    /** Stores the outcome of a record of a {@link #forLocation} instance, as {@link CollectiveChunk} gave it. */
    public void set(int row, long waitTime, long completionTime, byte violationKind, byte flagBits, int referenceRank) {
        wait[0][row] = waitTime;
        completion[0][row] = completionTime;
        violation[0][row] = violationKind;
        flags[0][row] = flagBits;
        reference[0][row] = referenceRank;
    }

    /** Whether the flag bits of an outcome ({@link CollectiveChunk.Sink}) say the member took part. */
    public static boolean participates(byte flagBits) {
        return (flagBits & PARTICIPATES) != 0;
    }

    /** Whether the flag bits of an outcome say the member was a synchronisation point. */
    public static boolean syncPoint(byte flagBits) {
        return (flagBits & SYNC) != 0;
    }

    static byte flagsOf(CollectiveInstance inst, int j) {
        return (byte) ((inst.participates[j] ? PARTICIPATES : 0) | (inst.sync[j] ? SYNC : 0));
    }

    long waitAt(int location, int row) {
        return wait[location - first][row];
    }

    long completionAt(int location, int row) {
        return completion[location - first][row];
    }

    byte violationAt(int location, int row) {
        return violation[location - first][row];
    }

    /** Stores member {@code j}'s outcome of an evaluated instance. */
    void store(CollectiveInstance inst, int j) {
        int l = inst.location[j];
        int r = inst.record[j];
        wait[l][r] = inst.waitTime[j];
        completion[l][r] = inst.completion[j];
        violation[l][r] = inst.violation[j];
        flags[l][r] = flagsOf(inst, j);
        reference[l][r] = inst.reference;
    }

    /** Waiting time of a member (ticks). */
    public long waitTime(int location, int row) {
        return wait[location - first][row];
    }

    /** Completion time of a synchronising member (ticks), also where the pattern has no completion metric. */
    public long completion(int location, int row) {
        return completion[location - first][row];
    }

    /** True when the member took part in the operation's synchronisation (Scalasca evaluated it). */
    public boolean participates(int location, int row) {
        return (flags[location - first][row] & PARTICIPATES) != 0;
    }

    /** True when the member is a synchronisation point of the operation. */
    public boolean syncPoint(int location, int row) {
        return (flags[location - first][row] & SYNC) != 0;
    }

    /** The communicator rank the members waited for (latest or root), -1 when none. */
    public int reference(int location, int row) {
        return reference[location - first][row];
    }
}
