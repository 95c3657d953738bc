package dev.straggler.testdata.scenario;

import dev.straggler.testdata.ParamSpec;
import dev.straggler.testdata.sim.MpiCall;
import dev.straggler.testdata.sim.NetworkModel;
import dev.straggler.testdata.sim.Node;
import dev.straggler.testdata.sim.ProgramBuilder;

import java.util.List;
import java.util.Map;

/**
 * Several late senders completed by one MPI_Waitall: rank 0 works {@code base}, posts MPI_Irecv from every other
 * rank and waits for all; rank k works {@code base + k × extra} and sends with MPI_Send. A barrier ends each
 * repetition. Scalasca counts only the largest wait of a multi-wait, once, at the MPI_Waitall: ≈ (p−1) × extra
 * minus the Irecv overheads; the senders wait at the barrier for rank 0.
 */
final class WaitallScenario extends AtsScenario {
    private static final int TAG = 3;

    WaitallScenario() {
        super("waitall-late-senders", "rank 0 Irecv from all + Waitall, rank k sends after base + k*extra: Late Sender at Waitall = max over senders",
                List.of(new ParamSpec("base", "0.01", "work of every rank, s"),
                        new ParamSpec("extra", "0.01", "additional work per rank number, s"),
                        new ParamSpec("bytes", "4", "message size, bytes")), Map.of());
    }

    @Override
    protected Node repetition(ProgramBuilder b, Params p, int slot) {
        long base = p.duration("base");
        long extra = p.duration("extra");
        long bytes = p.integer("bytes");
        b.requestSlots(p.ranks());
        Node root = b.seq(
                b.call("do_work", 30, b.compute(base)),
                b.loop(c -> c.commSize(slot) - 1, b.irecv(slot, c -> c.iteration(1) + 1, c -> TAG, c -> c.iteration(1))),
                b.waitall(c -> 0, c -> c.commSize(slot) - 1));
        Node sender = b.seq(
                b.call("do_work", 30, b.compute(c -> base + c.commRank(slot) * extra)),
                b.send(slot, c -> 0, TAG, c -> bytes));
        return b.seq(b.when(c -> c.commRank(slot) == 0, root, sender), b.barrier(slot));
    }

    @Override
    protected void expectGroup(Params p, ExpectedBuilder e, int[] m, long[] clock) {
        NetworkModel net = p.network();
        long o = net.overhead();
        long base = p.duration("base");
        long extra = p.duration("extra");
        long bytes = p.integer("bytes");
        int size = m.length;
        int r0 = m[0];
        List<String> waitallPath = path("MPI_Waitall");
        List<String> sendPath = path("MPI_Send");
        List<String> barrierPath = path("MPI_Barrier");
        for (int rep = 0; rep < reps(p); rep++) {
            long start0 = clock[r0] + base;
            long waitEnter = start0 + (size - 1) * o;
            long waitLeave = waitEnter + o;
            long[] send = new long[size];
            long[] sendLeave = new long[size];
            for (int k = 1; k < size; k++) {
                send[k] = clock[m[k]] + base + k * extra;
                long posted = start0 + (k - 1) * o;
                long[] c = MessageModel.requests(net, MpiCall.SEND, bytes, send[k], posted);
                sendLeave[k] = Math.max(send[k] + o, c[0]);
                waitLeave = Math.max(waitLeave, c[1]);
                e.add(Metrics.LATE_RECEIVER, sendPath, m[k],
                        ScalascaRules.lateReceiver(e.obs(m[k], send[k]), e.obs(m[k], sendLeave[k]), e.obs(r0, posted)));
            }
            int[] src = new int[size - 1];
            long[] ts = new long[size - 1];
            long[] idle = new long[size - 1];
            for (int k = 1; k < size; k++) {
                src[k - 1] = m[k];
                ts[k - 1] = e.obs(m[k], send[k]);
                idle[k - 1] = ScalascaRules.lateSender(ts[k - 1], e.obs(r0, waitEnter), e.obs(r0, waitLeave));
            }
            e.receives(r0).multiReceive(waitallPath, src, ts, idle);
            clock[r0] = waitLeave;
            for (int k = 1; k < size; k++) {
                clock[m[k]] = sendLeave[k];
            }
            ClosedForm.collective(p, e, MpiCall.BARRIER, m, clock, 0, -1, barrierPath);
        }
    }
}
