package dev.straggler.spark;

import org.apache.spark.SparkConf;
import org.apache.spark.memory.UnifiedMemoryManager;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Spark's own refusal of a small heap (made here by Spark's memory manager with its test setting for the system
 * memory, 100 MiB, so no Spark is started) names spark-submit's --driver-memory; under straggler the heap is
 * STRAGGLER_HEAP, and the advice says so in one line.
 */
class HeapAdviceTest {
    private static Exception sparksRefusal() {
        SparkConf conf = new SparkConf().set("spark.testing.memory", Long.toString(100L << 20));
        Exception e = assertThrows(IllegalArgumentException.class, () -> UnifiedMemoryManager.apply(conf, 1));
        assertTrue(e.getMessage().contains("--driver-memory"), e.getMessage());
        return e;
    }

    @Test
    void sparksDriverMemoryAdviceBecomesStragglerHeap() {
        IOException advice = SparkEngine.heapAdvice(sparksRefusal(), false);
        assertEquals("Spark needs a heap of at least 450 MiB, and this one has 100 MiB: set STRAGGLER_HEAP (e.g. "
                + "STRAGGLER_HEAP=16g), the launcher's -Xmx", advice.getMessage());
    }

    @Test
    void underSparkSubmitSparksOwnAdviceStands() {
        assertNull(SparkEngine.heapAdvice(sparksRefusal(), true));
    }

    @Test
    void otherFailuresAreLeftAlone() {
        assertNull(SparkEngine.heapAdvice(new IllegalArgumentException("Could not parse Master URL: 'x'"), false));
    }
}
