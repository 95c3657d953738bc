package dev.straggler.patterns.reduce;

import dev.straggler.trace.MemoryTrace;
import dev.straggler.trace.TraceSource;
import dev.straggler.trace.TraceValidator;
import dev.straggler.trace.Traces;
import dev.straggler.trace.filter.RegionFilter;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code npb-W.filter} applied to the fully instrumented BT trace, against a second run of the same program recorded
 * with that filter ({@code npb-bt.S.filtered-4}): the call counts of NPB BT do not depend on timing, so the
 * estimated visits and records of the filtered run are exact; bytes differ only where timestamps happen to
 * coincide, which depends on the run.
 */
class FilteredRunComparisonTest {

    @Test
    void wFilterEstimateOnTheFullTraceMatchesTheFilteredRun() throws Exception {
        Path full = RealTraces.folder("npb-bt.S-4");
        Path filtered = RealTraces.folder("npb-bt.S.filtered-4");
        RegionFilter filter = FilterFiles.read(RealTraces.dir().resolve("npb-W.filter"));
        ScorepScoreFile filteredScore = ScorepScoreFile.read(filtered.resolve("scorep_score.txt"));

        CallTreeProfile p;
        try (TraceSource src = Traces.open(full)) {
            p = TraceProfiler.profile(src);
        }
        // scorep-score's view: visits and max_buf of the run recorded with the filter
        ReductionPlan scorep = ReductionPlanner.evaluate(RegionStatistics.of(p, SizeModel.SCOREP), filter, "npb-W.filter");
        assertEquals(filteredScore.group("ALL").visits(), scorep.after().visits());
        assertEquals(filteredScore.group("ALL").maxBuf(), scorep.after().maxBytes());

        // the records of the filtered run
        ReductionPlan records = ReductionPlanner.evaluate(RegionStatistics.of(p, SizeModel.RECORDS), filter, "npb-W.filter");
        CallTreeProfile actual;
        long actualEvents;
        try (TraceSource src = Traces.open(filtered)) {
            actual = TraceProfiler.profile(src);
            actualEvents = src.eventCount();
        }
        RegionStatistics.Totals run = RegionStatistics.of(actual, SizeModel.RECORDS).totals(null);
        assertEquals(actualEvents, records.after().events());
        double bytesError = (records.after().bytes() - run.bytes()) / (double) run.bytes();
        assertTrue(Math.abs(bytesError) < 0.02, "bytes of the filtered run " + run.bytes() + ", estimated "
                + records.after().bytes());
        // Score-P's own event files of the filtered run (they also hold the communicator records the model skips)
        long onDisk = DeepCallTreeReductionTest.eventFileBytes(filtered.resolve("traces"));
        assertEquals(onDisk, records.after().bytes(), 0.01 * onDisk);

        // and the trace written with the filter has exactly the estimated events
        MemoryTrace reduced = new MemoryTrace("reduced");
        TraceReducer.Result r;
        try (TraceSource src = Traces.open(full)) {
            r = TraceReducer.write(src, filter, reduced, null);
        }
        assertEquals(records.after().events(), r.eventsAfter());
        assertEquals(records.after().bytes(), r.bytesAfter(), 0.005 * r.bytesAfter());
        assertTrue(TraceValidator.validate(reduced).ok());
    }
}
