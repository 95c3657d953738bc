package dev.straggler.trace.otf2;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Local-to-global id maps (OTF2_IdMap semantics) and their composition with dense numbering. */
class IdMapTest {

    @Test
    void unlistedIdsMapToThemselves() {
        IdMap dense = IdMap.dense(new long[] {7, 3});
        assertEquals(7, dense.map(0));
        assertEquals(3, dense.map(1));
        assertEquals(2, dense.map(2));
        IdMap sparse = IdMap.sparse(new long[] {9, 2}, new long[] {1, 5});
        assertEquals(5, sparse.map(2));
        assertEquals(1, sparse.map(9));
        assertEquals(4, sparse.map(4));
    }

    @Test
    void refTableComposesTheLocalMapWithTheDenseNumbering() {
        // globals 10, 20, 1 << 40 get dense ids 0, 1, 2; the location calls global 20 "0"
        long[] globals = {10, 20, 1L << 40};
        RefTable t = RefTable.of(IdMap.sparse(new long[] {0}, new long[] {20}), globals,
                g -> g == 10 ? 0 : g == 20 ? 1 : g == (1L << 40) ? 2 : -1);
        assertEquals(1, t.get(0));
        assertEquals(0, t.get(10));
        assertEquals(1, t.get(20), "an unlisted local id is the global id of the same value");
        assertEquals(2, t.get(1L << 40), "large ids go through the hash map");
        assertEquals(-1, t.get(5));
        assertEquals(-1, t.get(-1), "OTF2's undefined reference");
    }
}
