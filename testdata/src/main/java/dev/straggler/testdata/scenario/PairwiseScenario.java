package dev.straggler.testdata.scenario;

import dev.straggler.testdata.ParamSpec;
import dev.straggler.testdata.sim.Ctx;
import dev.straggler.testdata.sim.MpiCall;
import dev.straggler.testdata.sim.NetworkModel;
import dev.straggler.testdata.sim.Node;
import dev.straggler.testdata.sim.ProgramBuilder;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * ATS {@code late_sender} / {@code late_receiver} (reference §7): {@code do_work} with {@code df_cyclic2}, then
 * {@code mpi_commpattern_sendrecv}: even ranks send to the next rank, odd ranks receive (with an odd communicator
 * size the last rank only works). In the late-sender variant the senders work {@code base + extra} and the
 * receivers {@code base}; in the late-receiver variant the other way round.
 *
 * <p>Blocking variants use MPI_Ssend ({@code mode=ssend}, ATS's choice) or MPI_Send ({@code mode=send}: eager or
 * rendezvous by {@code bytes} versus {@code eager}) and MPI_Recv; non-blocking variants use MPI_Isend + MPI_Wait
 * and MPI_Irecv + MPI_Wait. Closed form per pair and repetition (both start at the same time when the previous
 * repetition synchronised them): Late Sender at the receive ≈ {@code extra}, Late Receiver at a synchronous or
 * rendezvous send ≈ {@code extra}, none for an eager send; exactly, the network model's terms included, as
 * {@link #expectGroup} derives them.
 */
final class PairwiseScenario extends AtsScenario {
    private static final int TAG = 42;

    private final boolean senderLate;
    private final boolean nonBlocking;

    PairwiseScenario(String name, String description, boolean senderLate, boolean nonBlocking, String mode,
                     Map<String, String> commonDefaults) {
        super(name, description, params(nonBlocking, mode), commonDefaults);
        this.senderLate = senderLate;
        this.nonBlocking = nonBlocking;
    }

    private static List<ParamSpec> params(boolean nonBlocking, String mode) {
        List<ParamSpec> l = new ArrayList<>(List.of(
                new ParamSpec("base", "0.01", "work of every rank per repetition, s"),
                new ParamSpec("extra", "0.05", "additional work of the late side, s"),
                new ParamSpec("bytes", "4", "message size, bytes")));
        if (!nonBlocking) {
            l.add(new ParamSpec("mode", mode, "send call: ssend (synchronous) or send (eager/rendezvous by size)"));
        }
        return l;
    }

    private MpiCall sendCall(Params p) {
        if (nonBlocking) {
            return MpiCall.ISEND;
        }
        return p.choice("mode", "ssend", "send").equals("ssend") ? MpiCall.SSEND : MpiCall.SEND;
    }

    /** Work of local rank {@code me}: the ATS df_cyclic2 with the late side's extra work. */
    private long work(Params p, int me) {
        long base = p.duration("base");
        long extra = p.duration("extra");
        boolean sender = me % 2 == 0;
        return base + (sender == senderLate ? extra : 0);
    }

    @Override
    protected Node repetition(ProgramBuilder b, Params p, int slot) {
        long bytes = p.integer("bytes");
        long senderWork = work(p, 0);
        long receiverWork = work(p, 1);
        Predicate<Ctx> isSender = c -> c.commRank(slot) % 2 == 0 && c.commRank(slot) + 1 < c.commSize(slot);
        Predicate<Ctx> isReceiver = c -> c.commRank(slot) % 2 == 1;
        Node send;
        Node recv;
        if (nonBlocking) {
            b.requestSlots(1);
            send = b.seq(b.isend(slot, c -> c.commRank(slot) + 1, c -> TAG, c -> bytes, c -> 0), b.await(c -> 0));
            recv = b.seq(b.irecv(slot, c -> c.commRank(slot) - 1, c -> TAG, c -> 0), b.await(c -> 0));
        } else {
            send = sendCall(p) == MpiCall.SSEND
                    ? b.ssend(slot, c -> c.commRank(slot) + 1, TAG, c -> bytes)
                    : b.send(slot, c -> c.commRank(slot) + 1, TAG, c -> bytes);
            recv = b.recv(slot, c -> c.commRank(slot) - 1, TAG);
        }
        return b.seq(
                b.call("do_work", 30, b.compute(c -> c.commRank(slot) % 2 == 0 ? senderWork : receiverWork)),
                b.call("mpi_commpattern_sendrecv", 60, b.when(isSender, send), b.when(isReceiver, recv)));
    }

    @Override
    protected void expectGroup(Params p, ExpectedBuilder e, int[] m, long[] clock) {
        NetworkModel net = p.network();
        long o = net.overhead();
        long bytes = p.integer("bytes");
        MpiCall call = sendCall(p);
        String sendRegion = nonBlocking ? "MPI_Wait" : call.regionName();
        String recvRegion = nonBlocking ? "MPI_Wait" : "MPI_Recv";
        List<String> sendPath = path("mpi_commpattern_sendrecv", sendRegion);
        List<String> recvPath = path("mpi_commpattern_sendrecv", recvRegion);
        int size = m.length;
        for (int rep = 0; rep < reps(p); rep++) {
            for (int me = 0; me < size; me += 2) {
                int g = m[me];
                if (me + 1 >= size) {
                    clock[g] += work(p, me);
                    continue;
                }
                int h = m[me + 1];
                long t = clock[g] + work(p, me);
                long r = clock[h] + work(p, me + 1);
                if (!nonBlocking) {
                    long[] l = MessageModel.blocking(net, call, bytes, t, r);
                    e.receives(h).receive(recvPath, g, e.obs(g, t),
                            ScalascaRules.lateSender(e.obs(g, t), e.obs(h, r), e.obs(h, l[1])));
                    e.add(Metrics.LATE_RECEIVER, sendPath, g,
                            ScalascaRules.lateReceiver(e.obs(g, t), e.obs(g, l[0]), e.obs(h, r)));
                    clock[g] = l[0];
                    clock[h] = l[1];
                } else {
                    // Isend/Irecv each take the overhead; the Waits follow at once
                    long[] c = MessageModel.requests(net, call, bytes, t, r);
                    long ws = t + o;
                    long wr = r + o;
                    long sendLeave = Math.max(ws + o, c[0]);
                    long recvLeave = Math.max(wr + o, c[1]);
                    e.receives(h).receive(recvPath, g, e.obs(g, t),
                            ScalascaRules.lateSender(e.obs(g, t), e.obs(h, wr), e.obs(h, recvLeave)));
                    e.add(Metrics.LATE_RECEIVER, sendPath, g,
                            ScalascaRules.lateReceiver(e.obs(g, ws), e.obs(g, sendLeave), e.obs(h, r)));
                    clock[g] = sendLeave;
                    clock[h] = recvLeave;
                }
            }
        }
    }
}
