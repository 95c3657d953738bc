package dev.straggler.trace.otf2;

import dev.straggler.trace.EventBatch;
import dev.straggler.trace.EventKind;
import dev.straggler.trace.Region;
import dev.straggler.trace.TraceFormatException;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.LongArrayList;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Hardware counters of an OTF2 trace (METRIC records, e.g. Score-P's PAPI_TOT_INS and PAPI_TOT_CYC), as exclusive
 * values per location and region: the difference of two consecutive readings of an accumulated counter is charged to
 * the region on top of the location's call stack between them (Score-P records the counters with every ENTER and
 * LEAVE, so that region is exact). Counters that are not accumulated (absolute or relative readings) have no
 * meaningful difference and are left out, as are readings outside any region.
 *
 * @param counters  counter names, in order of first definition
 * @param regions   the trace's regions, by model id (the ids of {@code exclusive})
 * @param exclusive {@code [location][region][counter]}: counts while the region was on top of the stack
 */
public record Otf2Counters(List<String> counters, List<Region> regions, long[][][] exclusive) {

    /** Counters of the archive, or empty when it defines none. */
    public static Optional<Otf2Counters> read(Path anchorOrDirectory) throws IOException {
        try (Otf2Archive archive = Otf2Archive.open(anchorOrDirectory)) {
            Otf2Definitions d = archive.otf2Definitions();
            if (d.metricMembers().isEmpty() || d.metricClasses().isEmpty()) {
                return Optional.empty();
            }
            List<String> names = new ArrayList<>();
            Map<Integer, Integer> memberIndex = new HashMap<>();
            for (Otf2Definitions.MetricMember m : d.metricMembers()) {
                if (m.accumulated() && (m.valueType() == TYPE_UINT64 || m.valueType() == TYPE_INT64)) {
                    String name = d.string(m.name());
                    int i = names.indexOf(name);
                    if (i < 0) {
                        names.add(name);
                        i = names.size() - 1;
                    }
                    memberIndex.put(m.id(), i);
                }
            }
            if (names.isEmpty()) {
                return Optional.empty();
            }
            // per class: the counter index of each of its values, -1 for one left out
            Map<Long, int[]> classes = new HashMap<>();
            for (Otf2Definitions.MetricClass c : d.metricClasses()) {
                int[] idx = new int[c.members().length];
                for (int i = 0; i < idx.length; i++) {
                    idx[i] = memberIndex.getOrDefault(c.members()[i], -1);
                }
                classes.put((long) c.id(), idx);
            }
            List<Region> regions = archive.definitions().regions();
            int locations = archive.definitions().locations().size();
            long[][][] exclusive = new long[locations][][];
            for (int l = 0; l < locations; l++) {
                exclusive[l] = location(archive, l, classes, names.size(), regions.size());
            }
            return Optional.of(new Otf2Counters(names, regions, exclusive));
        }
    }

    static final int TYPE_UINT64 = 4;
    static final int TYPE_INT64 = 8;

    private static long[][] location(Otf2Archive archive, int l, Map<Long, int[]> classes, int counters, int regions)
            throws IOException {
        IdMap map = archive.metricMap(l);
        long[][] out = new long[regions][];
        // METRIC records of the current batch: the batch index they precede, counter, value
        IntArrayList before = new IntArrayList();
        IntArrayList counter = new IntArrayList();
        LongArrayList value = new LongArrayList();
        EventDecoder.MetricSink sink = (at, time, ref, count, types, values) -> {
            int[] idx = classes.get(map == null ? ref : map.map(ref));
            if (idx == null) {
                return;
            }
            for (int i = 0; i < count && i < idx.length; i++) {
                if (idx[i] >= 0 && (types[i] == TYPE_UINT64 || types[i] == TYPE_INT64)) {
                    before.add(at);
                    counter.add(idx[i]);
                    value.add(values[i]);
                }
            }
        };
        long[] last = new long[counters];
        boolean[] seen = new boolean[counters];
        IntArrayList stack = new IntArrayList();
        try (Otf2LocationReader r = archive.counterReader(l, sink)) {
            EventBatch batch = new EventBatch(1 << 12);
            while (true) {
                before.clear();
                counter.clear();
                value.clear();
                boolean more = r.next(batch);
                int k = 0;
                for (int i = 0; i <= batch.size; i++) {
                    // the readings taken with event i cover the interval since the previous reading
                    while (k < before.size() && before.getInt(k) <= i) {
                        int c = counter.getInt(k);
                        long v = value.getLong(k);
                        if (seen[c] && !stack.isEmpty()) {
                            int top = stack.topInt();
                            if (out[top] == null) {
                                out[top] = new long[counters];
                            }
                            out[top][c] += v - last[c];
                        }
                        last[c] = v;
                        seen[c] = true;
                        k++;
                    }
                    if (i < batch.size) {
                        byte kind = batch.kind[i];
                        if (kind == EventKind.ENTER_CODE) {
                            stack.push(batch.ref[i]);
                        } else if (kind == EventKind.LEAVE_CODE && !stack.isEmpty()) {
                            stack.popInt();
                        }
                    }
                }
                if (!more && batch.size == 0) {
                    break;
                }
            }
        } catch (TraceFormatException e) {
            throw e;
        }
        return out;
    }

    /** A counter's total over the locations and the regions {@code include} accepts. */
    public long total(int counter, java.util.function.IntPredicate include) {
        long s = 0;
        for (long[][] loc : exclusive) {
            for (int r = 0; r < loc.length; r++) {
                if (loc[r] != null && include.test(r)) {
                    s += loc[r][counter];
                }
            }
        }
        return s;
    }
}
