package dev.straggler.testdata.sim;

import java.util.Arrays;

/** One collective operation on one communicator: who has arrived when, and who has completed. */
final class CollectiveInstance {
    MpiCall call;
    int root;
    final long[] begin;
    final long[] bytes;
    final long[] bytes2;
    final int[] color;
    final int[] key;
    final boolean[] arrived;
    final boolean[] done;
    int arrivedCount;
    int doneCount;
    long maxBegin;
    /** Scan: ranks below this have completed; {@link #prefixMax} is the latest begin among them. */
    int scanNext;
    long prefixMax;

    CollectiveInstance(int size) {
        begin = new long[size];
        bytes = new long[size];
        bytes2 = new long[size];
        color = new int[size];
        key = new int[size];
        arrived = new boolean[size];
        done = new boolean[size];
    }

    void reset() {
        call = null;
        root = -1;
        Arrays.fill(arrived, false);
        Arrays.fill(done, false);
        arrivedCount = 0;
        doneCount = 0;
        maxBegin = Long.MIN_VALUE;
        scanNext = 0;
        prefixMax = Long.MIN_VALUE;
    }
}
