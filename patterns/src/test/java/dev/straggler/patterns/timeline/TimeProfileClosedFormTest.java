package dev.straggler.patterns.timeline;

import dev.straggler.trace.MemoryTrace;
import dev.straggler.trace.text.TextTraceReader;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.StringReader;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Time profiles of small hand-written traces, every number derived by hand. Clock: 1 tick = 1 ms.
 *
 * <p>{@link #TRACE}: the first event is location 0's PROGRAM_BEGIN at 0, the last its PROGRAM_END at 40; 4 bins
 * of 10 ms: edges 0, 10, 20, 30, 40. Exclusive time (the region on top of the stack):
 * <pre>
 * location 0: main [0,5) [35,40); solve [5,25) [27,35); MPI_Send [25,27)
 *   bin 0: main 5, solve 5          bin 1: solve 10
 *   bin 2: solve 5 + 3, MPI_Send 2  bin 3: solve 5, main 5            (inside a region: 10, 10, 10, 10)
 * location 1 (starts at 2, ends at 30): main [2,4) [26,30); solve [4,14); MPI_Recv [14,26)
 *   bin 0: main 2, solve 6          bin 1: solve 4, MPI_Recv 6
 *   bin 2: MPI_Recv 6, main 4       bin 3: nothing                    (inside a region: 8, 10, 10, 0)
 * normalized = sum over both locations / (10 ms × 2):
 *   bin 0: main 7/20 = 0.35, solve 11/20 = 0.55
 *   bin 1: solve 14/20 = 0.7, MPI_Recv 6/20 = 0.3
 *   bin 2: main 4/20 = 0.2, solve 8/20 = 0.4, MPI_Send 2/20 = 0.1, MPI_Recv 6/20 = 0.3
 *   bin 3: main 5/20 = 0.25, solve 5/20 = 0.25
 * </pre>
 * solve on location 0 spans bins 0–2 from one Enter to the next nested Enter; the program region (PROGRAM_BEGIN/END)
 * owns nothing.
 */
class TimeProfileClosedFormTest {
    static final String TRACE = """
            straggler-text 1
            clock resolution=1000 offset=0 length=40
            region 0 main paradigm=USER role=FUNCTION
            region 1 solve paradigm=USER role=FUNCTION
            region 2 MPI_Send paradigm=MPI role=POINT2POINT file=MPI
            region 3 MPI_Recv paradigm=MPI role=POINT2POINT file=MPI
            region 4 unused paradigm=USER role=FUNCTION
            location 0 rank=0 thread=0
            location 1 rank=1 thread=0
            comm 0 MPI_COMM_WORLD members=0,1
            0 0 PROGRAM_BEGIN
            0 0 ENTER main
            0 5 ENTER solve
            0 25 ENTER MPI_Send
            0 26 MPI_SEND to=1 comm=0 tag=1 bytes=8
            0 27 LEAVE MPI_Send
            0 35 LEAVE solve
            0 40 LEAVE main
            0 40 PROGRAM_END
            1 2 PROGRAM_BEGIN
            1 2 ENTER main
            1 4 ENTER solve
            1 14 LEAVE solve
            1 14 ENTER MPI_Recv
            1 26 MPI_RECV from=0 comm=0 tag=1 bytes=8
            1 26 LEAVE MPI_Recv
            1 30 LEAVE main
            1 30 PROGRAM_END
            """;

    private static final double MS = 1e-3;
    private static final double EPS = 1e-15;

    static MemoryTrace trace() throws IOException {
        return TextTraceReader.read(new StringReader(TRACE), "closed-form");
    }

    private static void assertExclusive(TimeProfile p, int location, double[][] msByBinAndRegion) {
        TimeProfile.LocationProfile lp = p.locations().get(location);
        for (int k = 0; k < p.bins(); k++) {
            for (int r = 0; r < p.regionCount(); r++) {
                assertEquals(msByBinAndRegion[k][r] * MS, lp.exclusive(k, r), EPS,
                        "location " + location + " bin " + k + " " + p.regionNames().get(r));
            }
        }
    }

    @Test
    void nestedRegionsCrossingBinEdgesSplitTheirExclusiveTimeExactly() throws IOException {
        TimeProfile p = TimeProfile.of(trace(), 4);
        assertEquals(List.of("main", "solve", "MPI_Send", "MPI_Recv"), p.regionNames());
        assertEquals(0L, p.startTick());
        assertEquals(40L, p.endTick());
        assertEquals(0.010, p.binWidth(), EPS);
        //                         main solve Send Recv
        assertExclusive(p, 0, new double[][]{{5, 5, 0, 0}, {0, 10, 0, 0}, {0, 8, 2, 0}, {5, 5, 0, 0}});
        assertExclusive(p, 1, new double[][]{{2, 6, 0, 0}, {0, 4, 0, 6}, {4, 0, 0, 6}, {0, 0, 0, 0}});
    }

    @Test
    void normalizedProfileDividesByBinWidthTimesLocations() throws IOException {
        TimeProfile p = TimeProfile.of(trace(), 4);
        double[][] expected = {{0.35, 0.55, 0, 0}, {0, 0.7, 0, 0.3}, {0.2, 0.4, 0.1, 0.3}, {0.25, 0.25, 0, 0}};
        for (int k = 0; k < 4; k++) {
            for (int r = 0; r < 4; r++) {
                assertEquals(expected[k][r], p.normalized(k, r), 1e-12, "bin " + k + " " + p.regionNames().get(r));
            }
        }
    }

    @Test
    void sharesListTheRegionsOfABinLargestFirst() throws IOException {
        TimeProfile p = TimeProfile.of(trace(), 4);
        List<TimeProfile.Share> bin2 = p.shares(2);
        assertEquals(List.of("solve", "MPI_Recv", "main", "MPI_Send"),
                bin2.stream().map(TimeProfile.Share::name).toList());
        assertEquals(0.008, bin2.get(0).seconds(), EPS);
        assertEquals(0.4, bin2.get(0).normalized(), 1e-12);
        assertEquals(List.of("main", "solve"), p.shares(3).stream().map(TimeProfile.Share::name).sorted().toList());
    }

    /**
     * 3 bins over 40 ms put the edges between ticks, at 40/3 and 80/3 ms: MPI_Send [25,27) on location 0 gives
     * 80/3 − 25 = 5/3 ms to bin 1 and 27 − 80/3 = 1/3 ms to bin 2; MPI_Recv [14,26) on location 1 lies in bin 1.
     */
    @Test
    void edgesBetweenTicksSplitARegionProportionally() throws IOException {
        TimeProfile p = TimeProfile.of(trace(), 3);
        int send = p.column("MPI_Send");
        TimeProfile.LocationProfile l0 = p.locations().get(0);
        assertEquals(5.0 / 3 * MS, l0.exclusive(1, send), 1e-15);
        assertEquals(1.0 / 3 * MS, l0.exclusive(2, send), 1e-15);
        assertEquals(12 * MS, p.locations().get(1).exclusive(1, p.column("MPI_Recv")), 1e-15);
        assertEquals(40.0 / 3 * MS, p.binWidth(), 1e-15);
    }

    /**
     * Location 1 alone, in the bins of the whole trace (0–40 ms): its exclusive times as above, normalized by one
     * location: bin 0 main 2/10 = 0.2, solve 6/10 = 0.6; bin 3 has no region. Only its regions are columns.
     */
    @Test
    void aLocationSubsetKeepsTheWholeTracesBinsAndNormalizesByItsOwnSize() throws IOException {
        TimeProfile p = TimeProfile.of(trace(), 4, new int[]{1});
        assertEquals(0L, p.startTick());
        assertEquals(40L, p.endTick());
        assertEquals(List.of("main", "solve", "MPI_Recv"), p.regionNames());
        assertEquals(1, p.locations().size());
        assertEquals(1, p.locations().get(0).location());
        assertEquals(0.2, p.normalized(0, p.column("main")), 1e-12);
        assertEquals(0.6, p.normalized(0, p.column("solve")), 1e-12);
        assertEquals(0.6, p.normalized(1, p.column("MPI_Recv")), 1e-12);
        assertTrue(p.shares(3).isEmpty());
    }

    @Test
    void profilesOfDisjointSubsetsAddUpToTheWholeProfile() throws IOException {
        TimeProfile all = TimeProfile.of(trace(), 4);
        TimeProfile a = TimeProfile.of(trace(), 4, new int[]{0});
        TimeProfile b = TimeProfile.of(trace(), 4, new int[]{1});
        for (int k = 0; k < 4; k++) {
            for (int r = 0; r < all.regionCount(); r++) {
                String name = all.regionNames().get(r);
                double parts = (a.column(name) < 0 ? 0 : a.exclusive(k, a.column(name)))
                        + (b.column(name) < 0 ? 0 : b.exclusive(k, b.column(name)));
                assertEquals(all.exclusive(k, r), parts, EPS, "bin " + k + " " + name);
            }
        }
    }

    /** Per location and bin: exclusive times sum to the time inside some region (hand-derived above), ≤ width. */
    @Test
    void exclusiveTimesSumToTheTimeInsideSomeRegion() throws IOException {
        TimeProfile p = TimeProfile.of(trace(), 4);
        double[][] insideMs = {{10, 10, 10, 10}, {8, 10, 10, 0}};
        for (int l = 0; l < 2; l++) {
            TimeProfile.LocationProfile lp = p.locations().get(l);
            for (int k = 0; k < 4; k++) {
                assertEquals(insideMs[l][k] * MS, lp.busy(k), EPS, "location " + l + " bin " + k);
                assertTrue(lp.busy(k) <= p.binWidth());
            }
            for (double v : lp.seconds()) {
                assertTrue(v >= 0);
            }
        }
    }

    /**
     * An explicit span 10–30 ms in 2 bins leaves out what lies outside: location 0 bin 0 (10–20) solve 10 ms, bin 1
     * (20–30) solve 5 + 3 ms, MPI_Send 2 ms.
     */
    @Test
    void anExplicitSpanClipsTheTimeOutsideIt() throws IOException {
        MemoryTrace t = trace();
        TimeProfile p = TimeProfile.of(t, 2, new int[]{0}, new TimeProfile.EventSpan(10, 30));
        TimeProfile.LocationProfile l0 = p.locations().get(0);
        assertEquals(10 * MS, l0.exclusive(0, p.column("solve")), EPS);
        assertEquals(8 * MS, l0.exclusive(1, p.column("solve")), EPS);
        assertEquals(2 * MS, l0.exclusive(1, p.column("MPI_Send")), EPS);
        assertEquals(0, l0.exclusive(0, p.column("main")), EPS);
        assertEquals(0.010, l0.busy(0), EPS);
        assertEquals(0.010, l0.busy(1), EPS);
    }

    /**
     * Timestamps beyond 2^53 (as casita's CUDA trace has, near 9.6e15) are not representable as doubles tick by tick:
     * a region of 3 ticks from 9600000000000001 to 9600000000000004 must still count 3 ticks = 3 µs (1 µs ticks).
     */
    @Test
    void timestampsBeyondTwoToTheFiftyThirdKeepTickPrecision() throws IOException {
        String text = """
                straggler-text 1
                clock resolution=1000000 offset=9600000000000000 length=10
                region 0 main paradigm=USER role=FUNCTION
                region 1 kernel paradigm=USER role=FUNCTION
                location 0 rank=0 thread=0
                0 9600000000000000 ENTER main
                0 9600000000000001 ENTER kernel
                0 9600000000000004 LEAVE kernel
                0 9600000000000010 LEAVE main
                """;
        TimeProfile p = TimeProfile.of(TextTraceReader.read(new StringReader(text), "big"), 1);
        assertEquals(3e-6, p.locations().get(0).exclusive(0, p.column("kernel")), 1e-18);
        assertEquals(7e-6, p.locations().get(0).exclusive(0, p.column("main")), 1e-18);
        assertEquals(0.0, p.start(), 0);
        assertEquals(10e-6, p.end(), 1e-18);
    }

    /** A region still open at the end of its location is closed at the location's last event (1 ms late: 20 ms). */
    @Test
    void aRegionLeftOpenEndsAtItsLocationsLastEvent() throws IOException {
        String text = """
                straggler-text 1
                clock resolution=1000 offset=0 length=40
                region 0 main paradigm=USER role=FUNCTION
                location 0 rank=0 thread=0
                location 1 rank=1 thread=0
                0 0 ENTER main
                0 20 PROGRAM_END
                1 0 ENTER main
                1 40 LEAVE main
                """;
        TimeProfile p = TimeProfile.of(TextTraceReader.read(new StringReader(text), "open"), 2);
        assertEquals(0.020, p.locations().get(0).busy(0), EPS);
        assertEquals(0.0, p.locations().get(0).busy(1), EPS);
    }

    @Test
    void twoComputationsOfTheSameProfileAreEqual() throws IOException {
        assertEquals(TimeProfile.of(trace(), 4), TimeProfile.of(trace(), 4));
        assertEquals(TimeProfile.of(trace(), 4).hashCode(), TimeProfile.of(trace(), 4).hashCode());
        assertTrue(!TimeProfile.of(trace(), 4).equals(TimeProfile.of(trace(), 3)));
    }

    @Test
    void invalidRequestsAreRefusedInOneLine() throws IOException {
        MemoryTrace t = trace();
        assertThrows(IllegalArgumentException.class, () -> TimeProfile.of(t, 0));
        assertThrows(IllegalArgumentException.class, () -> TimeProfile.of(t, 4, new int[]{2}));
        assertThrows(IllegalArgumentException.class, () -> TimeProfile.of(t, 4, new int[]{1, 1}));
    }
}
