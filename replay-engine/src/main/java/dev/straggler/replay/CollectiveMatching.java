package dev.straggler.replay;

import dev.straggler.trace.Communicator;
import dev.straggler.trace.TraceDefinitions;
import it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap;
import it.unimi.dsi.fastutil.ints.IntArrayList;

import java.util.List;

/**
 * Collective instances: per communicator, the k-th collective each member location performs on it forms
 * instance k (MPI requires members to call collectives on a communicator in the same order). Members are in
 * communicator-rank order, resolved to global ranks and then to the ranks' master locations.
 *
 * <p>Holds one int per collective record. Read-only once built; safe to share.
 */
public final class CollectiveMatching {
    private final TraceDefinitions defs;
    private final int[] locationOfRank;
    private final Int2ObjectOpenHashMap<IntArrayList>[] byComm;
    private final int[] instances;
    private final int[][] memberLocations;
    private long unmatchedRecords;
    private long incompleteCommunicators;

    @SuppressWarnings({"unchecked", "rawtypes"})
    CollectiveMatching(TraceDefinitions defs, int[] locationOfRank, int locationCount) {
        this.defs = defs;
        this.locationOfRank = locationOfRank;
        this.byComm = new Int2ObjectOpenHashMap[locationCount];
        this.instances = new int[defs.communicators().size()];
        this.memberLocations = new int[defs.communicators().size()][];
    }

    /** Groups one location's collective records by communicator; locations may be indexed concurrently. */
    void index(LocationData loc) {
        Int2ObjectOpenHashMap<IntArrayList> m = new Int2ObjectOpenHashMap<>();
        CollectiveTable t = loc.collectives();
        for (int i = 0; i < t.size(); i++) {
            m.computeIfAbsent(t.comm(i), k -> new IntArrayList()).add(i);
        }
        m.values().forEach(IntArrayList::trim);
        byComm[loc.location()] = m;
    }

    /** Forms the instances once every location is indexed. */
    void build() {
        List<Communicator> comms = defs.communicators();
        for (int c = 0; c < comms.size(); c++) {
            int[] members = comms.get(c).members();
            int[] locs = new int[members.length];
            int min = Integer.MAX_VALUE;
            int max = 0;
            boolean complete = true;
            for (int j = 0; j < members.length; j++) {
                int rank = members[j];
                locs[j] = rank >= 0 && rank < locationOfRank.length ? locationOfRank[rank] : -1;
                int n = 0;
                if (locs[j] < 0) {
                    complete = false;
                } else {
                    IntArrayList l = byComm[locs[j]].get(c);
                    n = l == null ? 0 : l.size();
                }
                min = Math.min(min, n);
                max = Math.max(max, n);
            }
            if (members.length == 0 || max == 0) {
                continue;
            }
            if (!complete) {
                incompleteCommunicators++;
                for (int j = 0; j < members.length; j++) {
                    if (locs[j] >= 0 && byComm[locs[j]].get(c) != null) {
                        unmatchedRecords += byComm[locs[j]].get(c).size();
                    }
                }
                continue;
            }
            memberLocations[c] = locs;
            instances[c] = min;
            for (int j = 0; j < members.length; j++) {
                IntArrayList l = byComm[locs[j]].get(c);
                unmatchedRecords += (l == null ? 0 : l.size()) - min;
            }
        }
    }

    /** Number of complete instances on a communicator. */
    public int instances(int comm) {
        return instances[comm];
    }

    /** Location of the member with the given communicator rank. */
    public int memberLocation(int comm, int member) {
        return memberLocations[comm][member];
    }

    public int size(int comm) {
        return defs.communicator(comm).size();
    }

    /** Index, in the member's {@link CollectiveTable}, of its record of instance {@code k}. */
    public int record(int comm, int k, int member) {
        return byComm[memberLocations[comm][member]].get(comm).getInt(k);
    }


    /** Collective records that belong to no complete instance (a member called fewer collectives, or is absent). */
    public long unmatchedRecords() {
        return unmatchedRecords;
    }

    /** Communicators with a member rank that has no location in the trace. */
    public long incompleteCommunicators() {
        return incompleteCommunicators;
    }
}
