package dev.straggler.patterns.reduce;

/** How trace bytes are counted. */
public enum SizeModel {
    /**
     * The exact OTF2 size of every record of the trace as Straggler writes it ({@link RecordSizes}); needs a trace,
     * since a profile does not know the records.
     */
    RECORDS,
    /** {@code scorep-score}'s estimate from visits ({@link ScoreEstimator}); works on profiles and traces alike. */
    SCOREP
}
