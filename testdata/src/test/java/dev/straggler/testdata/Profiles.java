package dev.straggler.testdata;

import dev.straggler.trace.EventBatch;
import dev.straggler.trace.EventKind;
import dev.straggler.trace.TraceSource;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Test helper: exclusive time and visits per call path, straight from ENTER/LEAVE timestamps. */
final class Profiles {
    final Map<String, Long> exclusive = new HashMap<>();
    final Map<String, Long> visits = new HashMap<>();
    final int ranks;

    Profiles(TraceSource t) throws IOException {
        ranks = t.definitions().locations().size();
        for (int loc = 0; loc < ranks; loc++) {
            EventBatch b = t.readLocation(loc);
            ArrayDeque<String> path = new ArrayDeque<>();
            ArrayDeque<long[]> open = new ArrayDeque<>();
            for (int i = 0; i < b.size; i++) {
                if (b.kind[i] == EventKind.ENTER_CODE) {
                    path.addLast(t.definitions().region(b.ref[i]).name());
                    open.addLast(new long[] {b.time[i], 0});
                    visits.merge(String.join("/", path), 1L, Long::sum);
                } else if (b.kind[i] == EventKind.LEAVE_CODE) {
                    long[] o = open.pollLast();
                    long dur = b.time[i] - o[0];
                    exclusive.merge(String.join("/", path), dur - o[1], Long::sum);
                    path.pollLast();
                    if (!open.isEmpty()) {
                        open.peekLast()[1] += dur;
                    }
                }
            }
        }
    }

    /** Mean over ranks of the exclusive time at a call path, seconds. */
    double meanExclusive(List<String> callpath) {
        return exclusive.getOrDefault(String.join("/", callpath), 0L) / 1e9 / ranks;
    }
}
