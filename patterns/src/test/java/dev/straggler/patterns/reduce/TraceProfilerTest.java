package dev.straggler.patterns.reduce;

import dev.straggler.trace.EventBatch;
import dev.straggler.trace.EventKind;
import dev.straggler.trace.Experiment;
import dev.straggler.trace.Location;
import dev.straggler.trace.MemoryTrace;
import dev.straggler.trace.Paradigm;
import dev.straggler.trace.RegionRole;
import dev.straggler.trace.TraceDefinitions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The per-location pass on hand-written streams whose figures follow from the timestamps. */
class TraceProfilerTest {

    private static MemoryTrace trace(TraceDefinitions.Builder d, EventBatch... streams) {
        for (int i = 0; i < streams.length; i++) {
            d.location(Location.masterThread(i, i));
        }
        return new MemoryTrace(d.build(), List.of(streams), "hand");
    }

    @Test
    void recursionCountsInclusiveTimeOnceAndExclusiveTimePerCall() throws IOException {
        TraceDefinitions.Builder d = TraceDefinitions.builder();
        int f = d.addRegion("f", "", 0, 0, Paradigm.USER, RegionRole.FUNCTION);
        int g = d.addRegion("g", "", 0, 0, Paradigm.USER, RegionRole.FUNCTION);
        EventBatch b = new EventBatch();
        b.enter(0, f);
        b.enter(10, f);
        b.enter(20, g);
        b.leave(30, g);
        b.leave(40, f);
        b.leave(100, f);
        RegionStatistics s = RegionStatistics.of(TraceProfiler.profile(trace(d, b)));
        assertEquals(2, s.visits(f));
        assertEquals(90e-9, s.time(f), 1e-18);
        assertEquals(100e-9, s.inclusiveTime(f), 1e-18);
        assertEquals(10e-9, s.inclusiveTime(g), 1e-18);
        assertEquals(2, s.subroutineCalls(f));
        assertEquals(3, s.profile().nodeCount());
    }

    @Test
    void programBeginOpensTheProgramRegionAsRoot() throws IOException {
        TraceDefinitions.Builder d = TraceDefinitions.builder().experiment(Experiment.of("app.x", 1));
        int prog = d.addRegion("app.x", "", 0, 0, Paradigm.MEASUREMENT_SYSTEM, RegionRole.ARTIFICIAL);
        int main = d.addRegion("main", "", 0, 0, Paradigm.USER, RegionRole.FUNCTION);
        EventBatch b = new EventBatch();
        b.add(0, EventKind.PROGRAM_BEGIN_CODE, 0, 0, 0, 0, 0);
        b.enter(5, main);
        b.leave(95, main);
        b.add(100, EventKind.PROGRAM_END_CODE, 0, 0, 0, 0, 0);
        CallTreeProfile p = TraceProfiler.profile(trace(d, b));
        assertEquals(prog, p.programRegion());
        assertEquals(prog, p.region(0));
        assertEquals(0, p.parent(1));
        RegionStatistics s = RegionStatistics.of(p);
        assertEquals(ScoreType.SCOREP, s.type(prog));
        assertEquals(10e-9, s.time(prog), 1e-18);
        assertEquals(0, p.outsideEvents(0));
    }

    @Test
    void recordBytesAreTheOtf2EncodingWithSharedTimestamps() throws IOException {
        TraceDefinitions.Builder d = TraceDefinitions.builder();
        for (int i = 0; i < 300; i++) {
            d.addRegion("r" + i, "", 0, 0, Paradigm.USER, RegionRole.FUNCTION);
        }
        EventBatch b = new EventBatch();
        b.enter(1, 299);   // type + compressed 299 (1 + 2 bytes) + timestamp: 13
        b.enter(1, 5);     // same time, no timestamp: 1 + 2 = 3
        b.leave(2, 5);     // 3 + 9
        b.leave(2, 299);   // 4, sharing the timestamp, which is charged here: the shallower event
        RegionStatistics s = RegionStatistics.of(TraceProfiler.profile(trace(d, b)));
        assertEquals(4 + 9 + 4 + 9, s.bytes(299, 0));
        assertEquals(3 + 3, s.bytes(5, 0));
        assertEquals(4, s.events(299, 0) + s.events(5, 0));
        assertEquals(RecordSizes.FILE_FRAMING + 4 + 9 + 4 + 9 + 3 + 3, s.totals(null).bytes());
    }

    @Test
    void malformedNestingIsSkippedCountedAndNamed() throws IOException {
        TraceDefinitions.Builder d = TraceDefinitions.builder();
        int f = d.addRegion("f", "", 0, 0, Paradigm.USER, RegionRole.FUNCTION);
        int g = d.addRegion("g", "", 0, 0, Paradigm.USER, RegionRole.FUNCTION);
        EventBatch b = new EventBatch();
        b.leave(1, g);      // closes nothing
        b.enter(2, f);
        b.enter(3, g);
        b.leave(4, f);      // leaves g open inside f
        b.enter(5, f);      // still open at the end
        CallTreeProfile p = TraceProfiler.profile(trace(d, b));
        assertEquals(3, p.anomalyCount());
        assertTrue(p.anomalies().get(0).startsWith("location 0 (rank 0), event 0 (LEAVE)"), p.anomalies().toString());
        assertTrue(p.anomalies().get(1).contains("event 3"), p.anomalies().toString());
        RegionStatistics s = RegionStatistics.of(p);
        assertEquals(2, s.visits(f));
        assertEquals(1, s.visits(g));
        assertEquals(5, s.totals(null).events());
    }
}
