package dev.straggler.patterns.rootcause;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Scalasca 2.6's {@code fixed_priority_map<id, double, 128>} (scout's {@code fixed_map.hh}), by its definition: a
 * sorted array of at most 128 entries; a new key beyond that waits in an overflow slot and, at the next access,
 * replaces the first smallest entry (in key order) if and only if its value is strictly larger.
 */
class BoundedTimeMapTest {

    /** Keys 0..127 with value key + 1 (so key 0 holds the smallest value, 1.0). */
    private static BoundedTimeMap full() {
        BoundedTimeMap m = new BoundedTimeMap();
        for (int k = 0; k < BoundedTimeMap.CAPACITY; k++) {
            m.add(k, k + 1);
        }
        return m;
    }

    private static double get(BoundedTimeMap m, int id) {
        for (int i = 0; i < m.size(); i++) {
            if (m.id(i) == id) {
                return m.seconds(i);
            }
        }
        return Double.NaN;
    }

    @Test
    void upToCapacityEveryCallPathIsKeptAndSummed() {
        BoundedTimeMap m = full();
        m.add(5, 0.5);
        assertEquals(BoundedTimeMap.CAPACITY, m.size());
        assertEquals(6.5, get(m, 5));
    }

    @Test
    void aNewCallPathLargerThanTheSmallestReplacesIt() {
        BoundedTimeMap m = full();
        m.add(1000, 1.5);
        assertEquals(BoundedTimeMap.CAPACITY, m.size());
        assertEquals(Double.NaN, get(m, 0));
        assertEquals(1.5, get(m, 1000));
        // still sorted by id: the newcomer is the last
        assertEquals(1000, m.id(BoundedTimeMap.CAPACITY - 1));
    }

    @Test
    void aNewCallPathNotLargerThanTheSmallestIsDropped() {
        BoundedTimeMap m = full();
        m.add(1000, 1.0);
        assertEquals(Double.NaN, get(m, 1000));
        assertEquals(1.0, get(m, 0));
    }

    @Test
    void ofEqualSmallestEntriesTheFirstByIdGoes() {
        BoundedTimeMap m = new BoundedTimeMap();
        for (int k = 0; k < BoundedTimeMap.CAPACITY; k++) {
            m.add(k, k < 3 ? 1.0 : 9.0);
        }
        m.add(500, 2.0);
        assertEquals(Double.NaN, get(m, 0));
        assertEquals(1.0, get(m, 1));
        assertEquals(1.0, get(m, 2));
    }

    @Test
    void anEvictedCallPathComingBackStartsFromZero() {
        BoundedTimeMap m = full();
        m.add(1000, 1.5);   // evicts key 0 (1.0)
        m.add(0, 3.0);      // comes back: 3.0, not 4.0, and evicts the then smallest, key 1000 (1.5)
        assertEquals(3.0, get(m, 0));
        assertEquals(Double.NaN, get(m, 1000));
        assertEquals(2.0, get(m, 1));
    }

    @Test
    void setOfAMissingCallPathOnAFullMapCompetesLikeAnAddition() {
        BoundedTimeMap m = full();
        m.set(1000, 0.5);
        assertEquals(Double.NaN, get(m, 1000));
        m.set(1001, 7.0);
        assertEquals(7.0, get(m, 1001));
        assertEquals(Double.NaN, get(m, 0));
    }
}
