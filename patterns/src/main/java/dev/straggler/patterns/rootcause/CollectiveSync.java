package dev.straggler.patterns.rootcause;

import dev.straggler.patterns.waitstate.CollectiveOutcomes;
import dev.straggler.replay.CollectiveMatching;
import dev.straggler.replay.Replay;
import dev.straggler.trace.CollectiveOp;

import java.util.Arrays;

/**
 * One MPI collective instance as the root-cause stage sees it: its delay kind, the members that take part, the
 * synchronisation points among them with their waiting and completion times, and the reference rank the others
 * waited for — all as the collective wait-state patterns found them ({@link CollectiveOutcomes}) — plus the ranks
 * each synchronisation point synchronised with ({@code SynchpointHandler::cb_pre_coll_*}). Reused from instance to
 * instance by one thread.
 */
final class CollectiveSync {
    /** The delay and critical-path kind of an operation; NONE for operations without root-cause semantics. */
    enum Kind { NONE, BARRIER, ONE_TO_N, N_TO_N, N_TO_ONE }

    Kind kind;
    int size;
    /** Communicator rank the others waited for: the latest rank, or the root of a 1-to-N operation. */
    int reference;
    int root;
    boolean[] participates = new boolean[0];
    boolean[] sync = new boolean[0];
    long[] wait = new long[0];
    long[] completion = new long[0];

    static Kind kindOf(CollectiveOp op) {
        if (op == null) {
            return Kind.NONE;
        }
        return switch (op) {
            case BARRIER -> Kind.BARRIER;
            case BCAST, SCATTER, SCATTERV -> Kind.ONE_TO_N;
            case ALLGATHER, ALLGATHERV, ALLTOALL, ALLREDUCE, REDUCE_SCATTER, REDUCE_SCATTER_BLOCK -> Kind.N_TO_N;
            case GATHER, GATHERV, REDUCE -> Kind.N_TO_ONE;
            // Scan has no delay or critical-path rules; Alltoallv/w and Score-P 8's handle operations are ignored
            default -> Kind.NONE;
        };
    }

    /**
     * Loads instance {@code k} of {@code comm}; false when it has no root-cause semantics or nobody
     * synchronises in it (then it changes nothing in the replay).
     */
    boolean load(Replay replay, CollectiveOutcomes out, int comm, int k) {
        CollectiveMatching cm = replay.collectives();
        int n = cm.size(comm);
        int l0 = cm.memberLocation(comm, 0);
        int r0 = cm.record(comm, k, 0);
        var t0 = replay.location(l0).collectives();
        ensure(n);
        for (int j = 0; j < n; j++) {
            int l = cm.memberLocation(comm, j);
            int r = cm.record(comm, k, j);
            participates[j] = out.participates(l, r);
            sync[j] = out.syncPoint(l, r);
            wait[j] = out.waitTime(l, r);
            completion[j] = out.completion(l, r);
        }
        return define(n, t0.op(r0), t0.root(r0), out.reference(l0, r0));
    }

    /**
     * Loads an instance whose members' outcomes are already in {@link #participates}, {@link #sync}, {@link #wait}
     * and {@link #completion} (sized by {@link #ensure}): operation code, root and reference of member 0. Same
     * answer as {@link #load}; used where an instance's members are gathered in one place (a distributed engine).
     */
    boolean define(int n, byte opCode, int rootRank, int referenceRank) {
        kind = kindOf(CollectiveOp.isValidCode(opCode) ? CollectiveOp.of(opCode) : null);
        size = n;
        root = rootRank;
        reference = referenceRank;
        if (kind == Kind.NONE) {
            return false;
        }
        boolean anySync = false;
        for (int j = 0; j < n; j++) {
            anySync |= sync[j];
        }
        return anySync && reference >= 0;
    }

    /** Makes room for {@code n} members. */
    void ensure(int n) {
        if (participates.length < n) {
            participates = new boolean[n];
            sync = new boolean[n];
            wait = new long[n];
            completion = new long[n];
        }
    }

    /**
     * Writes the part every member plays in instance {@code k} into its location's roles; {@code loaded} is what
     * {@link #load} or {@link #define} answered, {@code members} the communicator's global ranks, {@code world} the
     * number of ranks.
     */
    void roles(boolean loaded, int k, int[] members, int world, MemberRoles target) {
        int participants = 0;
        for (int j = 0; j < size; j++) {
            if (participates[j]) {
                participants++;
            }
        }
        // the ranks a barrier's or an all-to-all's members synchronised with are the same for every member: one
        // array for all of them (the synchronisation points keep it; one per member was 6 bytes per mark on
        // 1.2·10^8 events, whose Allreduce of 64 ranks gave each member a copy of the 64)
        int[] shared = null;
        for (int j = 0; j < size; j++) {
            boolean registers = loaded && sync[j];
            int[] ranks = null;
            boolean all = false;
            if (registers && shared != null) {
                ranks = shared;
            } else if (registers) {
                int[] partners = syncPartners(j);
                if (partners == null) {
                    all = members.length == world;
                    ranks = all ? null : sortedCopy(members);
                } else {
                    ranks = new int[partners.length];
                    for (int x = 0; x < partners.length; x++) {
                        ranks[x] = members[partners[x]];
                    }
                    Arrays.sort(ranks);
                }
                if (kind == Kind.BARRIER || kind == Kind.N_TO_N) {
                    shared = ranks;
                }
            }
            target.role(j, k, participants, participates[j], loaded ? kind.ordinal() : -1, reference, registers,
                    wait[j], completion[j], ranks, all);
        }
    }

    /** Receives each member's role in an instance ({@link #roles}). */
    interface MemberRoles {
        void role(int j, int instance, int participants, boolean participates, int kind, int reference,
                  boolean syncPoint, long wait, long completion, int[] ranks, boolean allRanks);
    }

    private static int[] sortedCopy(int[] a) {
        int[] r = a.clone();
        Arrays.sort(r);
        return r;
    }

    /**
     * The communicator ranks a synchronising member synchronised with ({@code SynchpointHandler::cb_pre_coll_*});
     * null for "all members".
     */
    int[] syncPartners(int j) {
        switch (kind) {
            case BARRIER:
                return null;
            case ONE_TO_N: {
                if (j != reference) {
                    return new int[] {reference};
                }
                // the root synchronised with every member that waited for it
                int n = 0;
                int[] r = new int[size];
                for (int k = 0; k < size; k++) {
                    if (k != reference && sync[k]) {
                        r[n++] = k;
                    }
                }
                return Arrays.copyOf(r, n);
            }
            case N_TO_N: {
                int n = 0;
                int[] r = new int[size];
                for (int k = 0; k < size; k++) {
                    if (sync[k]) {
                        r[n++] = k;
                    }
                }
                return Arrays.copyOf(r, n);
            }
            case N_TO_ONE:
                // the root synchronised with the latest sender and vice versa
                return new int[] {j == reference ? root : reference};
            default:
                return new int[0];
        }
    }
}
