package dev.straggler.patterns;

import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.replay.TraceBuilder;
import dev.straggler.trace.CollectiveOp;
import dev.straggler.trace.EventKind;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.Random;

import static dev.straggler.replay.TraceBuilder.WORLD;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The analysis must give bit-identical results for any thread count. */
public class DeterminismTest {

    /** Ring exchanges (Irecv/Isend/Waitall and Send/Recv) and collectives with random imbalance, seeded. */
    public static TraceBuilder randomTrace(int ranks, int iterations, long seed) {
        return randomTrace(ranks, iterations, seed, false);
    }

    /** As {@link #randomTrace(int, int, long)}, optionally ending with MPI_Finalize (a critical path to follow). */
    static TraceBuilder randomTrace(int ranks, int iterations, long seed, boolean finalize) {
        Random rnd = new Random(seed);
        TraceBuilder b = new TraceBuilder(ranks);
        long[] now = new long[ranks];
        for (int r = 0; r < ranks; r++) {
            b.rank(r).enter(0, "main");
            now[r] = 1;
        }
        long req = 1;
        for (int it = 0; it < iterations; it++) {
            for (int r = 0; r < ranks; r++) {
                long t = now[r];
                long work = 100 + rnd.nextInt(1000);
                b.rank(r).compute(it % 2 == 0 ? "solve" : "update", t, t + work);
                t += work + 1;
                int right = (r + 1) % ranks;
                int left = (r + ranks - 1) % ranks;
                long rq = req++;
                long sq = req++;
                b.rank(r).callIrecv(t, t + 2, rq);
                b.rank(r).callIsend(t + 3, t + 5, right, it % 3, 64 + it, sq);
                long w = t + 6 + rnd.nextInt(300);
                b.rank(r).enter(t + 6, "MPI_Waitall")
                        .irecv(w, WORLD, left, it % 3, 64 + it, rq)
                        .request(w + 1, EventKind.MPI_ISEND_COMPLETE, sq).leave(w + 2);
                t = w + 3;
                if (r % 2 == 0) {
                    b.rank(r).callSend(it % 4 == 0 ? "MPI_Ssend" : "MPI_Send", t, t + rnd.nextInt(200) + 1, left, 9, 8);
                } else {
                    b.rank(r).callRecv(t, t + rnd.nextInt(400) + 1, right, 9, 8);
                }
                now[r] = t + 500;
            }
            // odd ranks received from even right neighbours: make the sends exist for odd counts too
            for (int r = 0; r < ranks; r++) {
                long t = now[r];
                CollectiveOp op = it % 3 == 0 ? CollectiveOp.BARRIER : it % 3 == 1 ? CollectiveOp.ALLREDUCE : CollectiveOp.BCAST;
                String call = op == CollectiveOp.BARRIER ? "MPI_Barrier" : op == CollectiveOp.ALLREDUCE ? "MPI_Allreduce" : "MPI_Bcast";
                long sent = op == CollectiveOp.BARRIER ? 0 : op == CollectiveOp.BCAST ? (r == 0 ? 32 : 0) : 8;
                long recv = op == CollectiveOp.BARRIER ? 0 : op == CollectiveOp.BCAST ? (r == 0 ? 0 : 32) : 8;
                long begin = t + rnd.nextInt(500);
                b.rank(r).callCollective(call, begin, begin + 50 + rnd.nextInt(100), op, WORLD,
                        op == CollectiveOp.BCAST ? 0 : -1, sent, recv);
                now[r] = begin + 200;
            }
        }
        for (int r = 0; r < ranks; r++) {
            long t = now[r] + 10;
            if (finalize) {
                long enter = t + rnd.nextInt(300);
                b.rank(r).enter(enter, "MPI_Finalize").leave(enter + 400);
                t = enter + 401;
            }
            b.rank(r).leave(t);
        }
        return b;
    }

    static void assertSameCube(SeverityCube a, SeverityCube b) {
        assertEquals(a.callPaths(), b.callPaths());
        for (int m = 0; m < a.metrics().size(); m++) {
            for (int c = 0; c < a.callPaths().size(); c++) {
                double[] ra = a.rowOrNull(m, c);
                double[] rb = b.rowOrNull(m, c);
                if (ra == null || rb == null) {
                    assertTrue(ra == null && rb == null || sum(ra) == 0 && sum(rb) == 0);
                } else {
                    assertArrayEquals(ra, rb, 0.0, a.metrics().get(m).uniqueName() + " @" + c);
                }
            }
        }
    }

    private static double sum(double[] r) {
        double s = 0;
        if (r != null) {
            for (double v : r) {
                s += Math.abs(v);
            }
        }
        return s;
    }

    @Test
    void resultsAreIdenticalForOneTwoAndFourThreads() throws IOException {
        TraceBuilder b = randomTrace(8, 30, 42);
        AnalysisResult one = Analysis.run(b.build(), AnalysisOptions.defaults().withThreads(1));
        AnalysisResult two = Analysis.run(b.build(), AnalysisOptions.defaults().withThreads(2));
        AnalysisResult four = Analysis.run(b.build(), AnalysisOptions.defaults().withThreads(4).withPipelined(true));
        assertTrue(one.total("mpi_latesender") > 0 && one.total("mpi_wait_nxn") > 0 && one.total("mpi_barrier_wait") > 0);
        assertSameCube(one.cube(), two.cube());
        assertSameCube(one.cube(), four.cube());
        assertEquals(one.mostSevere(), two.mostSevere());
        assertEquals(one.mostSevere(), four.mostSevere());
        assertEquals(one.violations(), four.violations());
        assertEquals(one.instanceCounts(), four.instanceCounts());
    }

    @Test
    void rootCausesAreIdenticalForAnyThreadCount() throws IOException {
        // many ranks and iterations: locations block and are released often, in an order that varies run to run
        TraceBuilder b = randomTrace(24, 60, 7, true);
        AnalysisResult one = Analysis.run(b.build(), AnalysisOptions.defaults().withThreads(1).withRootCauses(true));
        assertTrue(one.total("delay_latesender") > 0 && one.total("delay_n2n") > 0 && one.total("critical_path") > 0
                && one.total("mpi_wait_indirect_latesender") > 0);
        assertTrue(one.causes().size() >= 3, "instances explained: " + one.causes().size());
        for (int threads : new int[] {2, 3, 8}) {
            for (int run = 0; run < 3; run++) {
                AnalysisResult r = Analysis.run(b.build(),
                        AnalysisOptions.defaults().withThreads(threads).withRootCauses(true));
                assertEquals(one.warnings(), r.warnings(), threads + " threads");
                assertSameCube(one.cube(), r.cube());
                assertEquals(one.causes(), r.causes(), threads + " threads: the delays behind the instances");
            }
        }
    }
}
