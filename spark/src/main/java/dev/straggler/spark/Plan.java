package dev.straggler.spark;

import dev.straggler.patterns.waitstate.CollectiveChunk;
import dev.straggler.trace.TraceDefinitions;
import it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap;

import java.io.Serializable;
import java.util.List;

/**
 * What every task needs to know about the whole trace, broadcast once: where the trace is, each rank's master
 * location, the members of every communicator, the collective instances the driver formed, and each location's map
 * to the unified call tree. Sized by locations and communicators, never by events.
 */
final class Plan implements Serializable {
    final String trace;
    final boolean lenient;
    final int locations;
    final int[] locationOfRank;
    final int[][] members;
    /** Complete collective instances per communicator (0 where its collectives are skipped). */
    final int[] instances;
    final int[] instancesPerChunk;
    /** Per location: local call path → unified call path; null until the trees are merged. */
    final List<int[]> localToGlobal;
    /** Records per block of the message matching ({@link Blocks#SIZE}; smaller in tests, to cross block edges). */
    final int blockSize;
    /** Whether the root-cause stage runs (the chunks then also give each member's collective roles). */
    final boolean rootCauses;
    /**
     * Whether some process has CPU threads besides its master (OpenMP or POSIX threads): the root-cause stage then
     * holds each process's threads in one task, as they meet at forks and barriers, and a process's threads form a
     * team as {@link dev.straggler.replay.Replay#teams} forms them on one machine (with or without OpenMP).
     */
    final boolean teams;
    private transient Int2IntOpenHashMap[] memberIndex;

    Plan(String trace, boolean lenient, TraceDefinitions defs, int[] instances, List<int[]> localToGlobal,
         int blockSize, boolean rootCauses, boolean teams) {
        this.blockSize = blockSize;
        this.teams = teams;
        this.rootCauses = rootCauses;
        this.trace = trace;
        this.lenient = lenient;
        this.locations = defs.locations().size();
        this.locationOfRank = defs.masterLocationByRank();
        this.members = new int[defs.communicators().size()][];
        this.instancesPerChunk = new int[members.length];
        for (int c = 0; c < members.length; c++) {
            members[c] = defs.communicator(c).members();
            instancesPerChunk[c] = CollectiveChunk.instancesPerChunk(members[c].length);
        }
        this.instances = instances;
        this.localToGlobal = localToGlobal;
    }

    /** True when location {@code l} of rank {@code rank} is that rank's master location (the one MPI matching uses). */
    boolean master(int rank, int l) {
        return rank >= 0 && rank < locationOfRank.length && locationOfRank[rank] == l;
    }

    /** The global rank of communicator rank {@code peer} in communicator {@code comm}. */
    int globalRank(int comm, int peer) {
        return members[comm][peer];
    }

    /** The communicator rank of global rank {@code rank} in {@code comm}, -1 when not a member. */
    int memberIndex(int comm, int rank) {
        if (memberIndex == null) {
            memberIndex = new Int2IntOpenHashMap[members.length];
        }
        Int2IntOpenHashMap m = memberIndex[comm];
        if (m == null) {
            m = new Int2IntOpenHashMap(members[comm].length);
            m.defaultReturnValue(-1);
            for (int j = 0; j < members[comm].length; j++) {
                m.putIfAbsent(members[comm][j], j);
            }
            memberIndex[comm] = m;
        }
        return m.get(rank);
    }
}
