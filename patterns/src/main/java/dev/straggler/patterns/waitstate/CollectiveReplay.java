package dev.straggler.patterns.waitstate;

import dev.straggler.replay.Parallel;
import dev.straggler.replay.Replay;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;

/**
 * Evaluates every matched collective instance with its {@link CollectivePattern} and stores each member's
 * outcome next to its record, where the member location's analysis picks it up in stream order. Instances are
 * independent, so chunks of them ({@link CollectiveChunk}) run in parallel; each member record is written by exactly
 * one task.
 */
final class CollectiveReplay {
    private CollectiveReplay() {
    }

    /** Where an evaluated instance's member outcomes go. */
    interface MemberSink {
        void store(CollectiveInstance inst, int member);
    }

    /** Evaluates all instances; returns their most severe occurrences (merged in a fixed order). */
    static InstanceCollector run(Replay replay, CollectiveOutcomes out, ExecutorService pool, int topInstances) throws IOException {
        record Chunk(int comm, int from, int to) {
        }
        List<Chunk> chunks = new ArrayList<>();
        int comms = replay.definitions().communicators().size();
        for (int c = 0; c < comms; c++) {
            int n = replay.collectives().instances(c);
            if (n == 0 || replay.collectives().size(c) < 2) {
                continue; // collectives on self-like communicators do not synchronize
            }
            int step = CollectiveChunk.instancesPerChunk(replay.collectives().size(c));
            for (int k = 0; k < n; k += step) {
                chunks.add(new Chunk(c, k, Math.min(n, k + step)));
            }
        }
        InstanceCollector all = new InstanceCollector(topInstances);
        Parallel.forEachOrdered(pool, chunks.size(), Integer.MAX_VALUE, i -> {
            Chunk ch = chunks.get(i);
            InstanceCollector found = new InstanceCollector(topInstances);
            CollectiveInstance inst = new CollectiveInstance();
            for (int k = ch.from(); k < ch.to(); k++) {
                inst.load(replay, ch.comm(), k);
                evaluate(inst, found, out::store);
            }
            return found;
        }, (i, found) -> all.addAll(found));
        return all;
    }

    /** Evaluates a loaded instance: member outcomes to {@code sink}, its occurrences offered to {@code found}. */
    static void evaluate(CollectiveInstance inst, InstanceCollector found, MemberSink sink) {
        CollectivePattern p = CollectivePattern.forOp(inst.op);
        if (p == null || !inst.consistent) {
            return;
        }
        p.evaluate(inst);
        for (int j = 0; j < inst.size; j++) {
            sink.store(inst, j);
        }
        offer(inst, p.waitMetric(), inst.waitTime, found);
        if (p.completionMetric() >= 0) {
            offer(inst, p.completionMetric(), inst.completion, found);
        }
    }

    private static void offer(CollectiveInstance inst, int metric, long[] values, InstanceCollector found) {
        long total = 0;
        int worst = -1;
        int waiting = 0;
        long start = Long.MAX_VALUE;
        long end = Long.MIN_VALUE;
        for (int j = 0; j < inst.size; j++) {
            start = Math.min(start, inst.begin[j]);
            end = Math.max(end, inst.end[j]);
            if (values[j] > 0) {
                total += values[j];
                waiting++;
                if (worst < 0 || values[j] > values[worst]) {
                    worst = j;
                }
            }
        }
        if (worst < 0) {
            return;
        }
        int partner = inst.reference < 0 ? -1 : inst.rank[inst.reference];
        found.offer(metric, total, inst.path[worst], inst.rank[worst], inst.thread[worst], partner,
                waiting, start, end);
    }
}
