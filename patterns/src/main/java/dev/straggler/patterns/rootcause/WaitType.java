package dev.straggler.patterns.rootcause;

/**
 * The wait-state types whose delay costs Scalasca accounts separately (Delay.MPI.pattern): each wait state's
 * long-term cost is kept per type, so that the long-term delay of, say, Late Sender states is found wherever the
 * propagation chain leads. Constants are indices into per-type arrays.
 */
final class WaitType {
    static final int LATE_SENDER = 0;
    static final int LATE_RECEIVER = 1;
    static final int BARRIER = 2;
    static final int N_TO_N = 3;
    static final int ONE_TO_N = 4;
    static final int N_TO_ONE = 5;
    /** Waiting at OpenMP barriers (Delay.OMP.pattern, DELAY_OMPBARRIER_LONGTERM). */
    static final int OMP_BARRIER = 6;
    /** Worker threads idle while the master runs serially (DELAY_OMPIDLE_LONGTERM). */
    static final int OMP_IDLE = 7;
    static final int COUNT = 8;

    private WaitType() {
    }

    static RootCauseMetric shortTerm(int type) {
        return switch (type) {
            case LATE_SENDER -> RootCauseMetric.DELAY_LATESENDER;
            case LATE_RECEIVER -> RootCauseMetric.DELAY_LATERECEIVER;
            case BARRIER -> RootCauseMetric.DELAY_BARRIER;
            case N_TO_N -> RootCauseMetric.DELAY_N2N;
            case ONE_TO_N -> RootCauseMetric.DELAY_12N;
            case OMP_BARRIER -> RootCauseMetric.DELAY_OMPBARRIER;
            case OMP_IDLE -> RootCauseMetric.DELAY_OMPIDLE;
            default -> RootCauseMetric.DELAY_N21;
        };
    }

    static RootCauseMetric longTerm(int type) {
        return switch (type) {
            case LATE_SENDER -> RootCauseMetric.DELAY_LATESENDER_LONGTERM;
            case LATE_RECEIVER -> RootCauseMetric.DELAY_LATERECEIVER_LONGTERM;
            case BARRIER -> RootCauseMetric.DELAY_BARRIER_LONGTERM;
            case N_TO_N -> RootCauseMetric.DELAY_N2N_LONGTERM;
            case ONE_TO_N -> RootCauseMetric.DELAY_12N_LONGTERM;
            case OMP_BARRIER -> RootCauseMetric.DELAY_OMPBARRIER_LONGTERM;
            case OMP_IDLE -> RootCauseMetric.DELAY_OMPIDLE_LONGTERM;
            default -> RootCauseMetric.DELAY_N21_LONGTERM;
        };
    }
}
