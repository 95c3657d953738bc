package dev.straggler.testdata.sim;

import dev.straggler.testdata.Scenario;
import dev.straggler.testdata.ScenarioParams;
import dev.straggler.testdata.scenario.Catalogue;
import dev.straggler.testdata.scenario.Params;
import dev.straggler.trace.MemoryTrace;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The what-if replay against the simulator itself: replaying the trace of a run at full bandwidth on a slower
 * network must give, tick for tick, the run the simulator produces at that bandwidth (an independent code path: the
 * simulator matches messages as they arrive, the replay takes the trace's matching).
 */
class WhatIfReplayTest {

    static Scenario scenario(String name) {
        return Catalogue.ALL.stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }

    static Params params(Scenario s, ScenarioParams sp) {
        return Params.resolve(s.name(), s.parameters(), sp);
    }

    static MemoryTrace simulate(Scenario s, ScenarioParams sp) throws Exception {
        MemoryTrace t = new MemoryTrace(s.name());
        s.generate(sp, t);
        return t;
    }

    static long[] rankEnds(MemoryTrace t) {
        int n = t.definitions().rankCount();
        long[] end = new long[n];
        for (int r = 0; r < n; r++) {
            var b = t.readLocation(t.definitions().masterLocationByRank()[r]);
            end[r] = b.time[b.size - 1];
        }
        return end;
    }

    /** Every point-to-point protocol, every collective kind and the application-like families. */
    @ParameterizedTest
    @ValueSource(strings = {"late-sender", "late-receiver", "late-sender-nonblocking", "late-receiver-nonblocking",
            "waitall-late-senders", "graph500-like", "imbalance-at-barrier", "imbalance-at-alltoall", "imbalance-at-allreduce",
            "imbalance-at-allgather", "late-broadcast", "late-scatter", "early-reduce", "early-gather", "early-scan",
            "nxn-completion", "alltoallv-excluded", "bt-like", "gyro-like", "sweep3d-like", "late-sender-chain"})
    void replayAtLowerBandwidthEqualsTheSimulatorsRunAtThatBandwidth(String name) throws Exception {
        Scenario s = scenario(name);
        int ranks = Math.max(s.minRanks(), switch (name) {
            case "gyro-like" -> 32;
            case "bt-like" -> 16;
            default -> 8;
        });
        ScenarioParams full = ScenarioParams.of(ranks);
        NetworkModel net = params(s, full).network();
        WhatIfReplay replay = WhatIfReplay.load(simulate(s, full));
        assertEquals(0, replay.unmatchedSends());
        assertEquals(0, replay.unmatchedReceives());
        for (double f : new double[] {1.0, 0.5, 0.2, 0.05}) {
            double bw = net.bandwidth() * f;
            ScenarioParams slow = full.with("bandwidth", String.format(Locale.ROOT, "%.17g", bw));
            long[] expected = rankEnds(simulate(s, slow));
            NetworkModel throttled = new NetworkModel(net.latency(), bw, net.eagerThreshold(), net.overhead(),
                    net.exitStagger());
            WhatIfReplay.Outcome o = replay.run(throttled);
            assertArrayEquals(expected, o.rankEndTicks(), name + " at " + f + " of the bandwidth");
            long last = 0;
            for (long e : expected) {
                last = Math.max(last, e);
            }
            assertEquals(last / 1e9, o.seconds(), 1e-12);
        }
    }

    @Test
    void exitStaggerAndLatencyAreReplayedToo() throws Exception {
        Scenario s = scenario("imbalance-at-allreduce");
        ScenarioParams sp = ScenarioParams.of(6).with("stagger", "3e-6").with("latency", "5e-6");
        NetworkModel net = params(s, sp).network();
        WhatIfReplay replay = WhatIfReplay.load(simulate(s, sp));
        assertArrayEquals(rankEnds(simulate(s, sp)), replay.run(net).rankEndTicks());
    }

    /**
     * Closed form. Two ranks exchange a b-byte message per step with MPI_Sendrecv, c ticks of work before each:
     * eager, a step lasts c + latency + b/bw (the message leaves at the call's enter and arrives a transfer later),
     * so the run is MPI_Init (one latency step), n such steps, then MPI_Finalize (one latency step).
     */
    @Test
    void symmetricExchangeFollowsTheClosedForm() throws Exception {
        long c = 40_000;
        long bytes = 8_000;
        int steps = 25;
        ProgramBuilder pb = new ProgramBuilder("exchange.c");
        Program p = pb.program("main", 1, pb.loop(steps, pb.compute(c),
                pb.sendrecv(Program.WORLD, x -> 1 - x.rank(), 0, x -> bytes, x -> 1 - x.rank(), 0)));
        NetworkModel full = new NetworkModel(1_000, 1e9, 16_384, 100, 0);
        MemoryTrace t = new MemoryTrace("exchange");
        new Simulator(p, 2, dev.straggler.testdata.sim.SimOptions.of(full, 1,
                dev.straggler.trace.Experiment.of("exchange", 2))).run(t);
        WhatIfReplay replay = WhatIfReplay.load(t);
        for (double bw : new double[] {1e9, 4e8, 1e8}) {
            long step = c + 1_000 + (long) Math.ceil(bytes * 1e9 / bw);
            long expected = 1_000 + steps * step + 1_000;
            WhatIfReplay.Outcome o = replay.run(new NetworkModel(1_000, bw, 16_384, 100, 0));
            assertEquals(expected / 1e9, o.seconds(), 1e-12, "bandwidth " + bw);
        }
    }

    @Test
    void halvingTheBandwidthNeverShortensARun() throws Exception {
        Scenario s = scenario("sweep3d-like");
        ScenarioParams sp = ScenarioParams.of(16);
        NetworkModel net = params(s, sp).network();
        WhatIfReplay replay = WhatIfReplay.load(simulate(s, sp));
        double previous = 0;
        for (double f = 1; f > 0.01; f /= 2) {
            double t = replay.run(new NetworkModel(net.latency(), net.bandwidth() * f, net.eagerThreshold(),
                    net.overhead(), net.exitStagger())).seconds();
            assertTrue(t >= previous, "at " + f + ": " + t + " < " + previous);
            previous = t;
        }
    }

    @Test
    void aMessageWhoseSendIsMissingIsReportedNotInvented() throws Exception {
        Scenario s = scenario("late-sender");
        MemoryTrace t = simulate(s, ScenarioParams.of(2));
        // drop rank 0's send records: rank 1's receives have no partner
        var defs = t.definitions();
        var b = t.readLocation(defs.masterLocationByRank()[0]);
        var kept = new dev.straggler.trace.EventBatch(b.size);
        for (int i = 0; i < b.size; i++) {
            if (b.kind[i] != dev.straggler.trace.EventKind.MPI_SEND_CODE) {
                kept.add(b.time[i], b.kind[i], b.ref[i], b.comm[i], b.tag[i], b.bytes[i], b.aux[i]);
            }
        }
        MemoryTrace cut = new MemoryTrace(defs, java.util.List.of(kept, t.readLocation(defs.masterLocationByRank()[1])), "cut");
        WhatIfReplay replay = WhatIfReplay.load(cut);
        assertTrue(replay.unmatchedReceives() > 0);
        assertEquals(0, replay.unmatchedSends());
        assertTrue(replay.run(NetworkModel.defaults()).seconds() > 0);
    }

    @Test
    void collectivesThatDisagreeAreAFormatErrorNamingTheLocation() throws Exception {
        Scenario s = scenario("early-reduce");
        MemoryTrace t = simulate(s, ScenarioParams.of(4));
        var defs = t.definitions();
        java.util.List<dev.straggler.trace.EventBatch> streams = new java.util.ArrayList<>();
        for (int l = 0; l < defs.locations().size(); l++) {
            var b = t.readLocation(l);
            if (l == 2) {
                for (int i = 0; i < b.size; i++) {
                    if (b.kind[i] == dev.straggler.trace.EventKind.MPI_COLLECTIVE_END_CODE
                            && b.ref[i] == dev.straggler.trace.CollectiveOp.REDUCE.code()) {
                        b.tag[i] = (b.tag[i] + 1) % 4;
                    }
                }
            }
            streams.add(b);
        }
        var e = assertThrows(dev.straggler.trace.TraceFormatException.class,
                () -> WhatIfReplay.load(new MemoryTrace(defs, streams, "bad-root")));
        assertTrue(e.getMessage().startsWith("bad-root: location "), e.getMessage());
        assertTrue(e.getMessage().contains("root"), e.getMessage());
    }

    /**
     * What the calibration of the network fits: on the simulator's default network (1 GB/s, so a byte takes exactly
     * 1 ns and nothing is rounded) the fastest recorded time of each message size is the model's transfer time, and
     * that of each N×N collective its cost, steps × latency + bytes / bandwidth, since in every size some receiver
     * or member was already waiting.
     */
    @Test
    void fastestRecordedTimesAreTheModelsCosts() throws Exception {
        Scenario s = scenario("bt-like");
        ScenarioParams sp = ScenarioParams.of(9);
        NetworkModel net = params(s, sp).network();
        WhatIfReplay.RecordedTimes t = WhatIfReplay.load(simulate(s, sp)).recordedTimes();
        assertTrue(t.pointToPoint().size() >= 2 && t.messages() > 0, t.toString());
        for (WhatIfReplay.RecordedTime m : t.pointToPoint()) {
            assertEquals(1, m.latencySteps());
            assertEquals(net.transfer(m.bytes()) / 1e9, m.seconds(), 1e-15, m.toString());
        }
        assertTrue(!t.collectives().isEmpty(), t.toString());
        for (WhatIfReplay.RecordedTime c : t.collectives()) {
            long cost = Math.max(net.overhead(), c.latencySteps() * net.latency() + net.bytesTime(c.bytes()));
            assertEquals(cost / 1e9, c.seconds(), 1e-15, c.toString());
        }
    }
}
