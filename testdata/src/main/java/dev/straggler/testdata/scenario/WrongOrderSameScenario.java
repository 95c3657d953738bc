package dev.straggler.testdata.scenario;

import dev.straggler.testdata.ParamSpec;
import dev.straggler.testdata.sim.Ctx;
import dev.straggler.testdata.sim.MpiCall;
import dev.straggler.testdata.sim.NetworkModel;
import dev.straggler.testdata.sim.Node;
import dev.straggler.testdata.sim.ProgramBuilder;

import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Late Sender / Wrong Order from the same source: even ranks send two eager messages to the next rank, tag 1,
 * then {@code base} of work, then tag 2; the receiver takes tag 2 first. It waits for the second message, and the
 * first one, received next, was sent earlier: the wait is Wrong Order (same source). With an odd communicator
 * size the last rank sits out. Messages must be eager (a rendezvous first send would deadlock, as in MPI).
 */
final class WrongOrderSameScenario extends AtsScenario {
    private static final int FIRST = 1;
    private static final int SECOND = 2;

    WrongOrderSameScenario() {
        super("wrong-order-same", "pairs: sender sends tag 1, works, sends tag 2; receiver takes tag 2 first: Late Sender, Wrong Order (same source) ≈ base",
                List.of(new ParamSpec("base", "0.01", "sender's work between its two messages, s"),
                        new ParamSpec("bytes", "4", "message size, bytes (must be eager)")), Map.of());
    }

    @Override
    protected void check(Params p) {
        super.check(p);
        if (p.integer("bytes") > p.integer("eager")) {
            throw p.bad("bytes", "must not exceed eager=" + p.integer("eager") + ": a rendezvous first message would deadlock");
        }
    }

    @Override
    protected Node repetition(ProgramBuilder b, Params p, int slot) {
        long base = p.duration("base");
        long bytes = p.integer("bytes");
        Predicate<Ctx> isSender = c -> c.commRank(slot) % 2 == 0 && c.commRank(slot) + 1 < c.commSize(slot);
        Predicate<Ctx> isReceiver = c -> c.commRank(slot) % 2 == 1;
        return b.seq(
                b.when(isSender, b.seq(
                        b.send(slot, c -> c.commRank(slot) + 1, FIRST, c -> bytes),
                        b.call("do_work", 30, b.compute(base)),
                        b.send(slot, c -> c.commRank(slot) + 1, SECOND, c -> bytes))),
                b.when(isReceiver, b.seq(
                        b.recv(slot, c -> c.commRank(slot) - 1, SECOND),
                        b.recv(slot, c -> c.commRank(slot) - 1, FIRST))));
    }

    @Override
    protected void expectGroup(Params p, ExpectedBuilder e, int[] m, long[] clock) {
        NetworkModel net = p.network();
        long o = net.overhead();
        long base = p.duration("base");
        long bytes = p.integer("bytes");
        List<String> recvPath = path("MPI_Recv");
        List<String> sendPath = path("MPI_Send");
        for (int rep = 0; rep < reps(p); rep++) {
            for (int me = 0; me + 1 < m.length; me += 2) {
                int g = m[me];
                int h = m[me + 1];
                long t1 = clock[g];
                long t2 = t1 + o + base;
                long p1 = clock[h];
                long[] second = MessageModel.blocking(net, MpiCall.SEND, bytes, t2, p1);
                e.receives(h).receive(recvPath, g, e.obs(g, t2),
                        ScalascaRules.lateSender(e.obs(g, t2), e.obs(h, p1), e.obs(h, second[1])));
                long p2 = second[1];
                long[] first = MessageModel.blocking(net, MpiCall.SEND, bytes, t1, p2);
                e.receives(h).receive(recvPath, g, e.obs(g, t1),
                        ScalascaRules.lateSender(e.obs(g, t1), e.obs(h, p2), e.obs(h, first[1])));
                e.add(Metrics.LATE_RECEIVER, sendPath, g,
                        ScalascaRules.lateReceiver(e.obs(g, t1), e.obs(g, first[0]), e.obs(h, p2)));
                e.add(Metrics.LATE_RECEIVER, sendPath, g,
                        ScalascaRules.lateReceiver(e.obs(g, t2), e.obs(g, second[0]), e.obs(h, p1)));
                clock[g] = second[0];
                clock[h] = first[1];
            }
        }
    }
}
