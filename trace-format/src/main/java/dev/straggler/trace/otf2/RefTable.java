package dev.straggler.trace.otf2;

import it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap;

import java.util.Arrays;
import java.util.function.LongToIntFunction;

/**
 * Translates the references a location's events carry (local OTF2 ids) straight to Straggler's dense ids, composing
 * the location's mapping table (identity where it lists nothing) with the global-to-dense numbering. Small ids go
 * through an array, large sparse ones through a hash map; unknown ids give -1. Immutable; built once per reader.
 */
final class RefTable {
    private static final int MAX_ARRAY = 1 << 20;

    private final int[] table;
    private final Long2IntOpenHashMap large;

    private RefTable(int[] table, Long2IntOpenHashMap large) {
        this.table = table;
        this.large = large;
    }

    /**
     * @param map           the location's mapping table for this kind of reference, or null
     * @param globalIds     every global id that is defined
     * @param denseOfGlobal dense id of a defined global id
     */
    static RefTable of(IdMap map, long[] globalIds, LongToIntFunction denseOfGlobal) {
        long bound = map == null ? 0 : map.localBound();
        for (long g : globalIds) {
            bound = Math.max(bound, g + 1);
        }
        int size = (int) Math.min(bound, MAX_ARRAY);
        int[] t = new int[size];
        Arrays.fill(t, -1);
        Long2IntOpenHashMap large = new Long2IntOpenHashMap();
        large.defaultReturnValue(-1);
        // unlisted local ids map to themselves; listed ones (written second) override that
        for (long g : globalIds) {
            put(t, large, g, denseOfGlobal.applyAsInt(g));
        }
        if (map != null) {
            map.forEach((local, global) -> {
                put(t, large, local, denseOfGlobal.applyAsInt(global));
                return 0;
            });
        }
        return new RefTable(t, large.isEmpty() ? null : large);
    }

    private static void put(int[] t, Long2IntOpenHashMap large, long id, int dense) {
        if (id >= 0 && id < t.length) {
            t[(int) id] = dense;
        } else {
            large.put(id, dense);
        }
    }

    int get(long id) {
        if (id >= 0 && id < table.length) {
            return table[(int) id];
        }
        return large == null ? -1 : large.get(id);
    }
}
