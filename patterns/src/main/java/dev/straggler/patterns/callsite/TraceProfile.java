package dev.straggler.patterns.callsite;

import java.util.List;

/**
 * Everything {@code straggler callsites} computes from a trace.
 *
 * @param notes what was skipped or could not be matched (unmatched LEAVE events, calls outside MPI_Init..Finalize,
 *              collectives whose counts differ between ranks), for the user
 */
public record TraceProfile(CallsiteStatistics callsites, CommProfile communication, PhaseBreakdown phases,
                           List<String> notes) {
    public TraceProfile {
        notes = List.copyOf(notes);
    }
}
