package dev.straggler.patterns.pop;

import dev.straggler.patterns.OtherParadigms;
import dev.straggler.trace.Paradigm;
import dev.straggler.trace.Region;
import dev.straggler.trace.otf2.Otf2Counters;

/**
 * The hardware counters POP's computation-scaling split needs, from an OTF2 trace's METRIC records: PAPI_TOT_INS
 * (instructions) and PAPI_TOT_CYC (cycles), counted where the process computes, i.e. in the regions Scalasca's
 * {@code comp} covers (neither MPI, nor another parallel runtime, nor measurement overhead).
 */
public final class PopCounters {
    public static final String INSTRUCTIONS = "PAPI_TOT_INS";
    public static final String CYCLES = "PAPI_TOT_CYC";

    private PopCounters() {
    }

    /** The run with its useful instructions and cycles from the trace's counters (NaN for one it lacks). */
    public static PopMetrics apply(PopMetrics m, Otf2Counters c) {
        return m.withCounters(useful(c, INSTRUCTIONS), useful(c, CYCLES));
    }

    static double useful(Otf2Counters c, String counter) {
        int k = c.counters().indexOf(counter);
        if (k < 0) {
            return Double.NaN;
        }
        return c.total(k, r -> computation(c.regions().get(r)));
    }

    /** Whether a region's time is useful computation (Scalasca's {@code comp} mask). */
    static boolean computation(Region r) {
        boolean mpi = r.paradigm() == Paradigm.MPI || "MPI".equals(r.sourceFile()) || r.name().startsWith("MPI_");
        boolean overhead = r.paradigm() == Paradigm.MEASUREMENT_SYSTEM
                && (r.name().equals("TRACE BUFFER FLUSH") || r.name().equals("TRACING"));
        return !mpi && !overhead && !OtherParadigms.isOtherRuntime(r.paradigm())
                && dev.straggler.patterns.PthreadApi.of(r) == dev.straggler.patterns.PthreadApi.Category.NONE;
    }
}
