package dev.straggler.trace;

import java.util.Arrays;
import java.util.Objects;

/**
 * An MPI communicator. Point-to-point peers and collective roots in events are ranks within it;
 * {@link #globalRank(int)} translates them to global ranks (reference §6.7: global rank =
 * {@code group.members[commRank]}).
 *
 * @param id      index in {@link TraceDefinitions#communicators()}
 * @param members global ranks in communicator-rank order; never modified after construction
 * @param parent  id of the parent communicator, -1 for none
 */
public record Communicator(int id, String name, int[] members, int parent) {

    public Communicator {
        Objects.requireNonNull(name, "name");
        members = members.clone();
        if (id < 0) {
            throw new IllegalArgumentException("communicator id must be >= 0: " + id);
        }
        for (int i = 0; i < members.length; i++) {
            if (members[i] < 0) {
                throw new IllegalArgumentException("communicator " + id + " (" + name + "): member " + i
                        + " is rank " + members[i] + "; ranks are never negative");
            }
        }
    }

    public int size() {
        return members.length;
    }

    /** @throws IndexOutOfBoundsException when {@code commRank} is not a rank of this communicator */
    public int globalRank(int commRank) {
        if (commRank < 0 || commRank >= members.length) {
            throw new IndexOutOfBoundsException(
                    "rank " + commRank + " is outside communicator " + id + " (" + name + ") of size " + members.length);
        }
        return members[commRank];
    }

    /** Rank within this communicator of a global rank, -1 when it is not a member. */
    public int localRank(int globalRank) {
        for (int i = 0; i < members.length; i++) {
            if (members[i] == globalRank) {
                return i;
            }
        }
        return -1;
    }

    /** A copy of the member list (the record's accessor exposes the internal array for speed; do not mutate it). */
    public int[] membersCopy() {
        return members.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Communicator c && c.id == id && c.parent == parent && c.name.equals(name)
                && Arrays.equals(c.members, members);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * id + name.hashCode()) + Arrays.hashCode(members);
    }

    @Override
    public String toString() {
        return "Communicator[id=" + id + ", name=" + name + ", size=" + members.length + ", parent=" + parent + "]";
    }

    /** The world communicator of {@code n} ranks, named as MPI names it. */
    public static Communicator world(int id, int n) {
        int[] m = new int[n];
        for (int i = 0; i < n; i++) {
            m[i] = i;
        }
        return new Communicator(id, "MPI_COMM_WORLD", m, -1);
    }
}
