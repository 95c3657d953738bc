package dev.straggler.trace.otf2;

import java.util.Arrays;

/**
 * A local-to-global identifier map of one location (OTF2 MappingTable, reference §6.8). Identifiers the map does
 * not list map to themselves, as in {@code OTF2_IdMap_GetGlobalId}. Immutable.
 */
final class IdMap {
    private final long[] dense;
    private final long[] sparseLocal;
    private final long[] sparseGlobal;

    private IdMap(long[] dense, long[] sparseLocal, long[] sparseGlobal) {
        this.dense = dense;
        this.sparseLocal = sparseLocal;
        this.sparseGlobal = sparseGlobal;
    }

    /** Global ids indexed by local id. */
    static IdMap dense(long[] globals) {
        return new IdMap(globals, null, null);
    }

    /** Pairs (local, global), in any order. */
    static IdMap sparse(long[] locals, long[] globals) {
        long[][] pairs = new long[locals.length][];
        for (int i = 0; i < locals.length; i++) {
            pairs[i] = new long[] {locals[i], globals[i]};
        }
        Arrays.sort(pairs, (x, y) -> Long.compare(x[0], y[0]));
        long[] l = new long[pairs.length];
        long[] g = new long[pairs.length];
        for (int i = 0; i < pairs.length; i++) {
            l[i] = pairs[i][0];
            g[i] = pairs[i][1];
        }
        return new IdMap(null, l, g);
    }

    long map(long local) {
        if (dense != null) {
            return local >= 0 && local < dense.length ? dense[(int) local] : local;
        }
        int i = Arrays.binarySearch(sparseLocal, local);
        return i >= 0 ? sparseGlobal[i] : local;
    }

    /** One more than the largest local id the map lists (0 for an empty map). */
    long localBound() {
        if (dense != null) {
            return dense.length;
        }
        return sparseLocal.length == 0 ? 0 : sparseLocal[sparseLocal.length - 1] + 1;
    }

    /** Calls {@code f} for every listed (local, global) pair. */
    void forEach(java.util.function.LongBinaryOperator f) {
        if (dense != null) {
            for (int i = 0; i < dense.length; i++) {
                f.applyAsLong(i, dense[i]);
            }
        } else {
            for (int i = 0; i < sparseLocal.length; i++) {
                f.applyAsLong(sparseLocal[i], sparseGlobal[i]);
            }
        }
    }
}
