package dev.straggler.patterns.timeline;

import dev.straggler.patterns.scalasca.RealTraces;
import dev.straggler.trace.EventBatch;
import dev.straggler.trace.EventKind;
import dev.straggler.trace.TraceSource;
import dev.straggler.trace.Traces;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The normalized time profile of pipit's ping-pong OTF2 trace (2 ranks, Score-P 7.1) in 62 equal bins between the
 * first and last event, as pipit's test suite asserts it (tests/trace.py {@code test_time_profile}, values generated
 * with Vampir's Function Summary chart; restated in ../shared/traces/README.md). Each value must round to its eight
 * printed decimals (and lie within a relative 1e-6 where those digits are that fine); every region not listed for a bin must be 0 there. "main" is Score-P's
 * {@code int main(int, char**)}; the program region (ping-pong.otf2) must not appear: pipit keeps PROGRAM_BEGIN/END as
 * instant events, so the time before main's Enter and after its Leave belongs to no region.
 */
class TimeProfilePipitTest {
    private static final String MAIN = "int main(int, char**)";

    private static Optional<Path> archive() {
        return RealTraces.tracesDir().map(d -> d.resolve("pipit-ping-pong").resolve("traces.otf2"))
                .filter(Files::isRegularFile);
    }

    private static TimeProfile profile() throws IOException {
        Optional<Path> a = archive();
        Assumptions.assumeTrue(a.isPresent(), "shared traces absent (../shared/traces/pipit-ping-pong)");
        try (TraceSource s = Traces.open(a.get(), false)) {
            return TimeProfile.of(s, 62);
        }
    }

    /** Asserts bin {@code bin} holds exactly these normalized values (pipit's printed digits) and 0 elsewhere. */
    private static void assertBin(TimeProfile p, int bin, Map<String, String> expected) {
        for (Map.Entry<String, String> e : expected.entrySet()) {
            int r = p.column(e.getKey());
            assertTrue(r >= 0, "no region " + e.getKey());
            double got = p.normalized(bin, r);
            BigDecimal want = new BigDecimal(e.getValue());
            // relative 1e-6, but never finer than half the last printed decimal: 0.00046047 carries only five
            // significant digits, so its own rounding is up to 1e-5 relative
            double halfUlp = 0.5 * Math.pow(10, -want.scale());
            assertEquals(want.doubleValue(), got, Math.max(1e-6 * want.doubleValue(), halfUlp),
                    "bin " + bin + " " + e.getKey());
            assertEquals(want, BigDecimal.valueOf(got).setScale(want.scale(), RoundingMode.HALF_EVEN),
                    "bin " + bin + " " + e.getKey() + " to the printed digits");
        }
        for (int r = 0; r < p.regionCount(); r++) {
            if (!expected.containsKey(p.regionNames().get(r))) {
                assertEquals(0.0, p.normalized(bin, r), "bin " + bin + " " + p.regionNames().get(r) + " must be 0");
            }
        }
        assertEquals(expected.size(), p.shares(bin).size(), "bin " + bin + " regions with a share");
    }

    @Test
    void binsSpanTheFirstToTheLastEventOfBothRanks() throws IOException {
        TimeProfile p = profile();
        // otf2-print: the first event is rank 1's PROGRAM_BEGIN at 7397466976977800 (the global offset), the last rank
        // 1's PROGRAM_END at 7397467395188508 (offset + trace length 418210708 ticks of a 2095197216 Hz timer). The
        // bins span these instants, not main's Enter (…977040830) and Leave (…395130552): pipit takes the minimum
        // and maximum over all events.
        assertEquals(7397466976977800L, p.startTick());
        assertEquals(7397466976977800L + 418210708L, p.endTick());
        assertEquals(62, p.bins());
        assertEquals(418210708.0 / 2095197216.0 / 62, p.binWidth(), 1e-15);
        assertEquals(2, p.locations().size());
    }

    @Test
    void firstBinIsMpiInitAndTheStartOfMain() throws IOException {
        assertBin(profile(), 0, Map.of(MAIN, "0.00299437", "MPI_Init", "0.93999815"));
    }

    @Test
    void binsOneToFiftyNineAreAllMpiInit() throws IOException {
        TimeProfile p = profile();
        for (int b = 1; b <= 59; b++) {
            assertBin(p, b, Map.of("MPI_Init", "1.00000000"));
        }
    }

    @Test
    void binSixtyHoldsTheEndOfInitAndTheFirstMessages() throws IOException {
        assertBin(profile(), 60, Map.of(MAIN, "0.39464799", "MPI_Init", "0.14843661", "MPI_Send", "0.24594134",
                "MPI_Recv", "0.21017099", "MPI_Comm_size", "0.00046047", "MPI_Comm_rank", "0.00034261"));
    }

    @Test
    void lastBinHoldsTheRestOfThePingPongAndFinalize() throws IOException {
        assertBin(profile(), 61, Map.of(MAIN, "0.43560727", "MPI_Send", "0.29640222", "MPI_Recv", "0.24300865",
                "MPI_Finalize", "0.01614835"));
    }

    @Test
    void theProgramRegionIsNoColumn() throws IOException {
        TimeProfile p = profile();
        assertEquals(-1, p.column("ping-pong.otf2"));
        assertEquals(7, p.regionCount(), String.valueOf(p.regionNames()));
    }

    /**
     * Invariant, checked against an independent count: per location and bin, the exclusive times add up to the part
     * of the bin the location spends inside its outermost regions (read here from the raw ENTER/LEAVE depth), never
     * more than the bin width, and no value is negative.
     */
    @Test
    void exclusiveTimesAddUpToTheTimeInsideSomeRegion() throws IOException {
        Optional<Path> a = archive();
        Assumptions.assumeTrue(a.isPresent(), "shared traces absent (../shared/traces/pipit-ping-pong)");
        try (TraceSource s = Traces.open(a.get(), false)) {
            TimeProfile p = TimeProfile.of(s, 62);
            double tps = s.definitions().clock().ticksPerSecond();
            long span = p.endTick() - p.startTick();
            for (TimeProfile.LocationProfile lp : p.locations()) {
                double[] inside = new double[p.bins()];
                EventBatch b = s.readLocation(lp.location());
                int depth = 0;
                long outerEnter = 0;
                for (int i = 0; i < b.size; i++) {
                    if (b.kind[i] == EventKind.ENTER_CODE && depth++ == 0) {
                        outerEnter = b.time[i] - p.startTick();
                    } else if (b.kind[i] == EventKind.LEAVE_CODE && --depth == 0) {
                        long leave = b.time[i] - p.startTick();
                        for (int k = 0; k < p.bins(); k++) {
                            double lo = (double) span * k / p.bins();
                            double hi = (double) span * (k + 1) / p.bins();
                            inside[k] += Math.max(0, Math.min(hi, leave) - Math.max(lo, outerEnter)) / tps;
                        }
                    }
                }
                for (int k = 0; k < p.bins(); k++) {
                    assertEquals(inside[k], lp.busy(k), 1e-12, "location " + lp.location() + " bin " + k);
                    assertTrue(lp.busy(k) <= p.binWidth() * (1 + 1e-12));
                    for (double v : lp.seconds()) {
                        assertTrue(v >= 0, "negative exclusive time " + v);
                    }
                }
            }
        }
    }
}
