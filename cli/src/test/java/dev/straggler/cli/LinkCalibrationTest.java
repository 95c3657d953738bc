package dev.straggler.cli;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * The Theil–Sen fit of the network model's line {@code seconds = latency + bytes / bandwidth} through the fastest
 * recorded time of each message size.
 */
class LinkCalibrationTest {
    static final double LATENCY = 1e-6;
    static final double BANDWIDTH = 2e9;

    /** Ten sizes of 1..10 KiB on the line of a 1 µs, 2 GB/s link. */
    static List<LinkCalibration.Point> line() {
        List<LinkCalibration.Point> p = new ArrayList<>();
        for (int k = 1; k <= 10; k++) {
            p.add(new LinkCalibration.Point(1024 * k, LATENCY + 1024 * k / BANDWIDTH));
        }
        return p;
    }

    /**
     * Two sizes whose receives were all posted late (50 µs above the line): 17 of the 45 pairwise slopes are off,
     * fewer than half on either side, so the median slope is one of the 28 exact ones, and 8 of the 10 intercepts
     * are exact. A least-squares line through the same points would be pulled by microseconds.
     */
    @Test
    void lateReceiversDoNotMoveTheLine() {
        List<LinkCalibration.Point> p = line();
        p.set(3, new LinkCalibration.Point(p.get(3).bytes(), p.get(3).seconds() + 50e-6));
        p.set(8, new LinkCalibration.Point(p.get(8).bytes(), p.get(8).seconds() + 50e-6));
        LinkCalibration.Fit f = LinkCalibration.fit(p, null, null);
        // exact up to floating-point rounding
        assertEquals(1 / BANDWIDTH, f.slope(), 1e-9 / BANDWIDTH);
        assertEquals(LATENCY, f.intercept(), 1e-15);
    }

    @Test
    void aGivenBandwidthFitsOnlyTheLatencyAndAGivenLatencyOnlyTheBandwidth() {
        assertEquals(LATENCY, LinkCalibration.fit(line(), 1 / BANDWIDTH, null).intercept(), 1e-15);
        assertEquals(1 / BANDWIDTH, LinkCalibration.fit(line(), null, LATENCY).slope(), 1e-9 / BANDWIDTH);
    }

    @Test
    void timesThatDoNotGrowWithTheSizeShowNoBandwidth() {
        List<LinkCalibration.Point> flat = List.of(new LinkCalibration.Point(8, 2e-6), new LinkCalibration.Point(64, 1e-6),
                new LinkCalibration.Point(4096, 1e-6));
        assertNotNull(LinkCalibration.fit(flat, null, null).failure());
        assertNotNull(LinkCalibration.fit(List.of(new LinkCalibration.Point(8, 2e-6)), null, null).failure());
    }

    /** The model has no negative latency: a line that would cross below the origin is taken through it. */
    @Test
    void aNegativeInterceptBecomesZeroLatency() {
        List<LinkCalibration.Point> p = List.of(new LinkCalibration.Point(1000, 0.5e-6),
                new LinkCalibration.Point(2000, 1.5e-6), new LinkCalibration.Point(3000, 2.5e-6));
        LinkCalibration.Fit f = LinkCalibration.fit(p, null, null);
        assertEquals(1e-9, f.slope(), 1e-18);
        assertEquals(0, f.intercept());
    }
}
