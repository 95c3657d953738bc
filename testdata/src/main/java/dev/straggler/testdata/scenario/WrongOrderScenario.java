package dev.straggler.testdata.scenario;

import dev.straggler.testdata.ParamSpec;
import dev.straggler.testdata.sim.MpiCall;
import dev.straggler.testdata.sim.NetworkModel;
import dev.straggler.testdata.sim.Node;
import dev.straggler.testdata.sim.ProgramBuilder;

import java.util.List;
import java.util.Map;

/**
 * ATS {@code wrong_order} / {@code right_order} (reference §7): rank 0 starts a token ring; every other rank
 * receives the token from its predecessor, works {@code base}, passes it on and sends a result to rank 0. Rank 0
 * receives the results in order 1, 2, … (right order: Late Sender at each receive, no wrong order) or in order
 * p−1, …, 1 (wrong order: it waits for the last result first; the messages it receives afterwards were sent
 * earlier, so that wait is Late Sender / Wrong Order from different sources).
 *
 * <p>Closed form: the token reaches rank k after k transfers and k−1 works; the timeline of every message is
 * computed with {@link MessageModel} and fed to {@link ReceiveLog}, which applies Scalasca's wrong-order buffer.
 */
final class WrongOrderScenario extends AtsScenario {
    private static final int TOKEN = 1;
    private static final int RESULT = 2;

    private final boolean wrong;

    WrongOrderScenario(String name, String description, boolean wrong) {
        super(name, description, List.of(
                new ParamSpec("base", "0.01", "work of each ring member after it received the token, s"),
                new ParamSpec("bytes", "4", "message size, bytes")), Map.of());
        this.wrong = wrong;
    }

    /** The source of rank 0's i-th result receive. */
    private int source(int i, int size) {
        return wrong ? size - 1 - i : i + 1;
    }

    @Override
    protected Node repetition(ProgramBuilder b, Params p, int slot) {
        long base = p.duration("base");
        long bytes = p.integer("bytes");
        Node root = b.seq(
                b.when(c -> c.commSize(slot) > 1, b.send(slot, c -> 1, TOKEN, c -> bytes)),
                b.loop(c -> c.commSize(slot) - 1,
                        b.recv(slot, c -> source(c.iteration(1), c.commSize(slot)), RESULT)));
        Node worker = b.seq(
                b.recv(slot, c -> c.commRank(slot) - 1, TOKEN),
                b.call("do_work", 30, b.compute(base)),
                b.when(c -> c.commRank(slot) < c.commSize(slot) - 1, b.send(slot, c -> c.commRank(slot) + 1, TOKEN, c -> bytes)),
                b.send(slot, c -> 0, RESULT, c -> bytes));
        return b.when(c -> c.commRank(slot) == 0, root, worker);
    }

    @Override
    protected void expectGroup(Params p, ExpectedBuilder e, int[] m, long[] clock) {
        NetworkModel net = p.network();
        long base = p.duration("base");
        long bytes = p.integer("bytes");
        int size = m.length;
        if (size < 2) {
            return;
        }
        List<String> recvPath = path("MPI_Recv");
        List<String> sendPath = path("MPI_Send");
        long[] resultSend = new long[size];
        for (int rep = 0; rep < reps(p); rep++) {
            // the token chain: rank k-1 sends at tokenSend, rank k has posted its receive at its start
            long tokenSend = clock[m[0]];
            long rootFirstRecv = 0;
            for (int k = 1; k < size; k++) {
                int from = m[k - 1];
                int to = m[k];
                long posted = clock[to];
                long[] l = MessageModel.blocking(net, MpiCall.SEND, bytes, tokenSend, posted);
                e.receives(to).receive(recvPath, from, e.obs(from, tokenSend),
                        ScalascaRules.lateSender(e.obs(from, tokenSend), e.obs(to, posted), e.obs(to, l[1])));
                e.add(Metrics.LATE_RECEIVER, sendPath, from,
                        ScalascaRules.lateReceiver(e.obs(from, tokenSend), e.obs(from, l[0]), e.obs(to, posted)));
                if (k == 1) {
                    rootFirstRecv = l[0];
                } else {
                    resultSend[k - 1] = l[0];
                }
                tokenSend = l[1] + base;
            }
            resultSend[size - 1] = tokenSend;
            // rank 0 receives the results in its order
            long q = rootFirstRecv;
            for (int i = 0; i < size - 1; i++) {
                int k = source(i, size);
                int from = m[k];
                long t = resultSend[k];
                long[] l = MessageModel.blocking(net, MpiCall.SEND, bytes, t, q);
                e.receives(m[0]).receive(recvPath, from, e.obs(from, t),
                        ScalascaRules.lateSender(e.obs(from, t), e.obs(m[0], q), e.obs(m[0], l[1])));
                e.add(Metrics.LATE_RECEIVER, sendPath, from,
                        ScalascaRules.lateReceiver(e.obs(from, t), e.obs(from, l[0]), e.obs(m[0], q)));
                clock[from] = l[0];
                q = l[1];
            }
            clock[m[0]] = q;
        }
    }
}
