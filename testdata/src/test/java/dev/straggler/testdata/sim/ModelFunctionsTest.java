package dev.straggler.testdata.sim;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The simulator's model functions, against hand-computed values. */
class ModelFunctionsTest {

    @Test
    void atsDistributionsGiveTheirDocumentedValues() {
        assertEquals(7, new Distribution(Distribution.Kind.SAME, 7, 9, 0).ticks(3, 4));
        var cyclic = new Distribution(Distribution.Kind.CYCLIC2, 1, 5, 0);
        assertEquals(1, cyclic.ticks(0, 4));
        assertEquals(5, cyclic.ticks(3, 4));
        var block = new Distribution(Distribution.Kind.BLOCK2, 1, 5, 0);
        assertEquals(1, block.ticks(1, 5));
        assertEquals(5, block.ticks(2, 5));
        var linear = new Distribution(Distribution.Kind.LINEAR, 10, 40, 0);
        assertEquals(10, linear.ticks(0, 4));
        assertEquals(20, linear.ticks(1, 4));
        assertEquals(40, linear.ticks(3, 4));
        var peak = new Distribution(Distribution.Kind.PEAK, 1, 9, 2);
        assertEquals(9, peak.ticks(2, 4));
        assertEquals(1, peak.ticks(3, 4));
        assertThrows(IllegalArgumentException.class, () -> Distribution.Kind.parse("cyclic3"));
    }

    @Test
    void clockSkewShiftsAndStretchesOnlyTheSkewedRanks() {
        ClockSkew s = ClockSkew.of(0, 5, 0).with(2, 7, 0.5);
        assertEquals(15, s.observe(0, 10));
        assertEquals(10, s.observe(1, 10));
        assertEquals(22, s.observe(2, 10));
        assertEquals(10, s.observe(9, 10));
        assertThrows(IllegalArgumentException.class, () -> ClockSkew.of(0, 0, -1));
    }

    @Test
    void noiseIsAReproducibleFunctionOfItsArguments() {
        long a = Noise.jitter(1_000_000, 0.1, 42, 3, 1, 17);
        assertEquals(a, Noise.jitter(1_000_000, 0.1, 42, 3, 1, 17));
        assertNotEquals(a, Noise.jitter(1_000_000, 0.1, 42, 4, 1, 17));
        assertTrue(a >= 900_000 && a < 1_100_000, "within the amplitude: " + a);
        assertEquals(1_000_000, Noise.jitter(1_000_000, 0, 42, 3, 1, 17));
    }

    @Test
    void networkCostsFollowTheModel() {
        NetworkModel net = new NetworkModel(1000, 1e9, 100, 10, 3);
        assertEquals(1050, net.transfer(50));
        assertTrue(net.rendezvous(MpiCall.SEND, 101));
        assertTrue(net.rendezvous(MpiCall.SSEND, 1));
        assertEquals(3 * 1000, net.collectiveCost(MpiCall.BARRIER, 0, 5));
        assertEquals(2 * 2 * 1008, net.collectiveCost(MpiCall.ALLREDUCE, 8, 4));
        assertEquals(10, net.collectiveCost(MpiCall.BARRIER, 0, 1), "never below the call overhead");
        assertEquals(6, net.exitDelay(2));
    }
}
