package dev.straggler.testdata;

import dev.straggler.trace.MemoryTrace;
import dev.straggler.trace.TraceSource;
import dev.straggler.trace.Traces;
import dev.straggler.trace.store.StoreOptions;
import dev.straggler.trace.store.StoreWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the CLI does: stream a scenario into the Arrow store; it reads back exactly as generated in memory. */
class StoreStreamingTest {

    @Test
    void scenarioStreamedIntoTheStoreReadsBackEventForEvent(@TempDir Path dir) throws Exception {
        Scenario s = Scenarios.byName("gyro-like");
        ScenarioParams params = new ScenarioParams(20, 9, Map.of("steps", "3", "group", "8", "noise", "0.05"));
        MemoryTrace memory = new MemoryTrace("memory");
        GeneratedTrace inMemory = s.generate(params, memory);
        Path store = dir.resolve("gyro.store");
        GeneratedTrace streamed;
        try (StoreWriter w = StoreWriter.create(store, StoreOptions.defaults().withBatchSize(64))) {
            streamed = s.generate(params, w);
        }
        assertEquals(inMemory.expected(), streamed.expected());
        assertEquals(inMemory.events(), streamed.events());
        try (TraceSource read = Traces.open(store)) {
            assertEquals(memory.definitions(), read.definitions());
            for (int loc = 0; loc < 20; loc++) {
                assertTrue(memory.readLocation(loc).sameEvents(read.readLocation(loc)), "location " + loc);
            }
            assertEquals(inMemory.events(), read.eventCount());
        }
    }
}
