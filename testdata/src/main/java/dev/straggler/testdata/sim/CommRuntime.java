package dev.straggler.testdata.sim;

import java.util.ArrayDeque;

/** A communicator during simulation: its members and its collective operations in progress. */
final class CommRuntime {
    final int id;
    final String name;
    final int[] members;
    final int parent;
    private final ArrayDeque<CollectiveInstance> open = new ArrayDeque<>();
    private final ArrayDeque<CollectiveInstance> pool = new ArrayDeque<>();
    private long base;

    CommRuntime(int id, String name, int[] members, int parent) {
        this.id = id;
        this.name = name;
        this.members = members;
        this.parent = parent;
    }

    /** The instance of the {@code seq}-th collective call on this communicator (MPI orders them per communicator). */
    CollectiveInstance instance(long seq) {
        long index = seq - base;
        while (open.size() <= index) {
            CollectiveInstance ci = pool.isEmpty() ? new CollectiveInstance(members.length) : pool.pop();
            ci.reset();
            open.addLast(ci);
        }
        if (index == 0) {
            return open.peekFirst();
        }
        int i = 0;
        for (CollectiveInstance ci : open) {
            if (i++ == index) {
                return ci;
            }
        }
        throw new IllegalStateException("unreachable");
    }

    /** Drops completed instances from the front so that their arrays are reused. */
    void retire() {
        while (!open.isEmpty() && open.peekFirst().doneCount == members.length) {
            pool.push(open.pollFirst());
            base++;
        }
    }

    boolean idle() {
        return open.isEmpty();
    }
}
