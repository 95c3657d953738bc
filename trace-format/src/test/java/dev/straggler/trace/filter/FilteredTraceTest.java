package dev.straggler.trace.filter;

import dev.straggler.trace.EventKind;
import dev.straggler.trace.SampleTraces;
import dev.straggler.trace.TraceValidator;
import dev.straggler.trace.text.TextTraceReader;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FilteredTraceTest {
    @Test
    void filteredRegionLosesOnlyItsEnterAndLeave() throws Exception {
        var trace = TextTraceReader.read(SampleTraces.lateSenderText());
        ScorepFilter f = ScorepFilter.parse("SCOREP_REGION_NAMES_BEGIN EXCLUDE compute MPI_* SCOREP_REGION_NAMES_END", "f");
        FilteredTrace ft = new FilteredTrace(trace, f);
        assertEquals(1, ft.excludedRegions(), "MPI_* must not remove MPI regions");
        int computeId = trace.definitions().regionId("compute");
        for (int l = 0; l < 2; l++) {
            var orig = trace.readLocation(l);
            var filt = ft.readLocation(l);
            int computeEvents = 0;
            for (int i = 0; i < orig.size; i++) {
                if ((orig.kind[i] == EventKind.ENTER_CODE || orig.kind[i] == EventKind.LEAVE_CODE) && orig.ref[i] == computeId) {
                    computeEvents++;
                }
            }
            assertEquals(orig.size - computeEvents, filt.size);
            for (int i = 0; i < filt.size; i++) {
                assertTrue(filt.kind[i] > EventKind.LEAVE_CODE || filt.ref[i] != computeId);
            }
        }
        assertTrue(TraceValidator.validate(ft).ok(), "removing whole regions keeps the trace balanced");
    }
}
