package dev.straggler.patterns.scaling;

import org.junit.jupiter.api.Test;

import java.io.StringReader;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BandwidthDemandTest {
    static final String TABLE = """
            # p, available bandwidth %, completion time (s)
            p,bandwidth,time
            4, 100%, 10
            4, 50%, 12
            4, 25%, 16
            8 100 6
            8 50 8.8
            """;

    @Test
    void incrementsDemandAndConstantWorkedOutByHand() throws Exception {
        List<BandwidthDemand.Measurement> rows = BandwidthDemand.parse(new StringReader(TABLE), "table");
        assertEquals(5, rows.size());
        BandwidthDemand.Result r = BandwidthDemand.analyse(rows, new int[]{16});
        // p=4: 50 % -> +2 s, tau = 2 / (100/50 - 1) = 2; 25 % -> +6 s, tau = 6 / 3 = 2; D = 100 * 2 / 10 = 20 %.
        BandwidthDemand.Increment half = r.increments().get(1);
        assertEquals(50, half.bandwidthPercent());
        assertEquals(2, half.increment(), 1e-12);
        assertEquals(0.2, half.relativeIncrement(), 1e-12);
        assertEquals(2, half.bandwidthBoundTime(), 1e-12);
        assertEquals(20, r.demandByTasks().get(4), 1e-12);
        // p=8: +2.8 s at 50 %: tau = 2.8, D = 100 * 2.8 / 6 = 46.67 %.
        assertEquals(280.0 / 6, r.demandByTasks().get(8), 1e-12);
        // DC(4) = 20 / 6 pairs, DC(8) = 46.67 / 28 pairs; DC is their mean, 2.5 % per pair.
        assertEquals(20.0 / 6, r.constantByTasks().get(4), 1e-12);
        assertEquals(2.5, r.demandConstant(), 1e-12);
        // 16 processes: 120 pairs.
        assertEquals(300, r.predictions().get(0).demandPercent(), 1e-9);
    }

    @Test
    void aMalformedRowNamesItsLine() {
        dev.straggler.trace.TraceFormatException e = assertThrows(dev.straggler.trace.TraceFormatException.class,
                () -> BandwidthDemand.parse(new StringReader("4 100 10\n4 50\n"), "throttle.csv"));
        assertTrue(e.getMessage().startsWith("throttle.csv:2:"), e.getMessage());
    }

    @Test
    void aMissingFullBandwidthRunIsNoted() {
        BandwidthDemand.Result r = BandwidthDemand.analyse(List.of(
                new BandwidthDemand.Measurement(4, 80, 10), new BandwidthDemand.Measurement(4, 40, 12)), new int[0]);
        assertTrue(r.notes().get(0).contains("no run at 100 %"));
        // tau = 2 / (80/40 - 1) = 2; D = 80 * 2 / 10 = 16 % of the full bandwidth.
        assertEquals(16, r.demandByTasks().get(4), 1e-12);
    }
}
