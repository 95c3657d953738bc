package dev.straggler.spark;

import it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap;
import scala.Tuple2;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * What other locations sent each location of a partition (partner blocks, collective outcomes, facts, roles), grouped
 * by location. The location records themselves stay where they are kept and are met partition by partition
 * ({@code zipPartitions}); a Spark {@code cogroup} would insert every location's records into a map whose size it
 * estimates by walking all it holds, again and again as it grows, which cost more than the analysis of the
 * partition on large traces.
 */
final class Sides {
    private static final List<Object> NONE = List.of();
    private final Int2ObjectOpenHashMap<List<Object>> byLocation = new Int2ObjectOpenHashMap<>();

    Sides(Iterator<Tuple2<Integer, Object>> sent) {
        while (sent.hasNext()) {
            Tuple2<Integer, Object> t = sent.next();
            byLocation.computeIfAbsent((int) t._1(), k -> new ArrayList<>()).add(t._2());
        }
    }

    /** What was sent to {@code location}, in no particular order (every use books it by row). */
    List<Object> of(int location) {
        return byLocation.getOrDefault(location, NONE);
    }
}
