package dev.straggler.testdata;

import dev.straggler.trace.CollectiveOp;
import dev.straggler.trace.EventBatch;
import dev.straggler.trace.EventKind;
import dev.straggler.trace.TraceDefinitions;
import dev.straggler.trace.TraceSource;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Test oracle: Scalasca 2.6's wait states (reference §1.3–1.4) recomputed directly from a trace's timestamps, in the
 * plainest way possible (objects per event, no replay engine). It shares no code with the scenarios' closed forms,
 * so agreement between the two checks both. Supports what the ATS-like scenarios use: blocking and non-blocking
 * point-to-point with specific sources, MPI_Waitall of receives, all collectives, MPI_Init(_thread)/MPI_Finalize;
 * and what the hybrid scenarios use ({@link OpenMpOracle}): OpenMP thread management, barrier waits, lock
 * contention and idle threads (docs/openmp.md) of teams without nested regions. MPI calls are taken from each
 * rank's master thread.
 */
final class TraceWaitStates {

    /** An MPI call instance. */
    static final class Call {
        String region;
        String path;
        long enter;
        long leave;
    }

    record Send(int rank, int comm, int dest, int tag, long time, Call call, long request) {
    }

    static final class Recv {
        int rank;
        int comm;
        int source;
        int tag;
        Call call;      // the call holding the receive record (Recv, Sendrecv, Wait, Waitall)
        Call request;   // Recv/Sendrecv itself, or the Irecv
        long postOrder;
        long time;      // timestamp of the receive record
        Send matched;
    }

    record Coll(int rank, int comm, CollectiveOp op, int root, long sent, long received, long begin, long end, Call call) {
    }

    /** Severities in ticks by "metric|call/path|rank|thread". */
    final Map<String, Long> values = new TreeMap<>();
    /** Every receive, matched to its send. */
    final List<Recv> receives = new ArrayList<>();
    /** Every collective record. */
    final List<Coll> collectives = new ArrayList<>();
    /** Sends completed in a multi-wait: Late Receiver there is not recomputed by this oracle. */
    int unsupportedMultiWaitSends;

    private final TraceDefinitions defs;

    TraceWaitStates(TraceSource trace) throws IOException {
        this.defs = trace.definitions();
        int n = defs.rankCount();
        int[] master = defs.masterLocationByRank();
        List<Send> sends = new ArrayList<>();
        Map<Integer, Map<Long, Send>> isends = new HashMap<>();
        Map<Integer, Map<Long, Call>> sendCompletion = new HashMap<>();
        List<List<Recv>> recvsByRank = new ArrayList<>();
        List<Coll> colls = new ArrayList<>();
        long[] initEnter = new long[n];
        long[] initLeave = new long[n];
        long[] finEnter = new long[n];
        long[] finLeave = new long[n];
        String[] initPath = new String[n];
        for (int rank = 0; rank < n; rank++) {
            int loc = master[rank];
            EventBatch b = trace.readLocation(loc);
            ArrayDeque<String> stack = new ArrayDeque<>();
            ArrayDeque<Call> calls = new ArrayDeque<>();
            Map<Long, Call> irecvPosted = new HashMap<>();
            Map<Long, Long> irecvOrder = new HashMap<>();
            List<Recv> recvs = new ArrayList<>();
            recvsByRank.add(recvs);
            Map<Long, Send> myIsends = new HashMap<>();
            isends.put(rank, myIsends);
            Map<Long, Call> myCompletions = new HashMap<>();
            sendCompletion.put(rank, myCompletions);
            long collBegin = 0;
            boolean initSeen = false;
            boolean finSeen = false;
            for (int i = 0; i < b.size; i++) {
                long t = b.time[i];
                switch (b.kind[i]) {
                    case EventKind.ENTER_CODE -> {
                        String name = defs.region(b.ref[i]).name();
                        stack.addLast(name);
                        Call c = new Call();
                        c.region = name;
                        c.path = String.join("/", stack);
                        c.enter = t;
                        calls.addLast(c);
                    }
                    case EventKind.LEAVE_CODE -> {
                        Call c = calls.pollLast();
                        c.leave = t;
                        stack.pollLast();
                        if ((c.region.equals("MPI_Init") || c.region.equals("MPI_Init_thread")) && !initSeen) {
                            initSeen = true;
                            initEnter[rank] = c.enter;
                            initLeave[rank] = c.leave;
                            initPath[rank] = c.path;
                        }
                        if (c.region.equals("MPI_Finalize") && !finSeen) {
                            finSeen = true;
                            finEnter[rank] = c.enter;
                            finLeave[rank] = c.leave;
                        }
                    }
                    case EventKind.MPI_SEND_CODE -> sends.add(new Send(rank, b.comm[i], b.ref[i], b.tag[i], t, calls.peekLast(), -1));
                    case EventKind.MPI_ISEND_CODE -> {
                        Send s = new Send(rank, b.comm[i], b.ref[i], b.tag[i], t, calls.peekLast(), b.aux[i]);
                        sends.add(s);
                        myIsends.put(b.aux[i], s);
                    }
                    case EventKind.MPI_ISEND_COMPLETE_CODE -> myCompletions.put(b.aux[i], calls.peekLast());
                    case EventKind.MPI_IRECV_REQUEST_CODE -> {
                        irecvPosted.put(b.aux[i], calls.peekLast());
                        irecvOrder.put(b.aux[i], (long) i);
                    }
                    case EventKind.MPI_RECV_CODE, EventKind.MPI_IRECV_CODE -> {
                        Recv r = new Recv();
                        r.rank = rank;
                        r.comm = b.comm[i];
                        r.source = b.ref[i];
                        r.tag = b.tag[i];
                        r.call = calls.peekLast();
                        r.time = t;
                        if (b.kind[i] == EventKind.MPI_RECV_CODE) {
                            r.request = r.call;
                            r.postOrder = indexOfEnter(b, i);
                        } else {
                            r.request = irecvPosted.remove(b.aux[i]);
                            r.postOrder = irecvOrder.remove(b.aux[i]);
                        }
                        recvs.add(r);
                    }
                    case EventKind.MPI_COLLECTIVE_BEGIN_CODE -> collBegin = t;
                    case EventKind.MPI_COLLECTIVE_END_CODE -> colls.add(new Coll(rank, b.comm[i], CollectiveOp.of(b.ref[i]),
                            b.tag[i], b.bytes[i], b.aux[i], collBegin, t, calls.peekLast()));
                    default -> {
                    }
                }
            }
        }
        matchMessages(sends, recvsByRank);
        recvsByRank.forEach(receives::addAll);
        collectives.addAll(colls);
        lateSenderAndWrongOrder(recvsByRank);
        lateReceiver(sends, recvsByRank, sendCompletion);
        collectives(colls);
        initAndFinalize(initEnter, initLeave, finEnter, finLeave, initPath);
        new OpenMpOracle(trace).values.forEach((k, v) -> values.merge(k, v, Long::sum));
    }

    private static long indexOfEnter(EventBatch b, int i) {
        int j = i;
        while (j > 0 && b.kind[j] != EventKind.ENTER_CODE) {
            j--;
        }
        return j;
    }

    private void add(String metric, String path, int rank, long ticks) {
        if (ticks > 0) {
            values.merge(metric + "|" + path + "|" + rank + "|0", ticks, Long::sum);
        }
    }

    private int global(int comm, int local) {
        return defs.communicator(comm).globalRank(local);
    }

    /** FIFO per (communicator, source, destination, tag): sends in send order, receives in posting order. */
    private void matchMessages(List<Send> sends, List<List<Recv>> recvsByRank) {
        Map<String, ArrayDeque<Send>> channel = new HashMap<>();
        for (Send s : sends) {
            int dst = global(s.comm, s.dest);
            channel.computeIfAbsent(s.comm + ":" + s.rank + ":" + dst + ":" + s.tag, k -> new ArrayDeque<>()).addLast(s);
        }
        for (List<Recv> recvs : recvsByRank) {
            List<Recv> posted = new ArrayList<>(recvs);
            posted.sort((a, c) -> Long.compare(a.postOrder, c.postOrder));
            for (Recv r : posted) {
                int src = global(r.comm, r.source);
                ArrayDeque<Send> q = channel.get(r.comm + ":" + src + ":" + r.rank + ":" + r.tag);
                if (q == null || q.isEmpty()) {
                    throw new AssertionError("receive at rank " + r.rank + " from " + src + " tag " + r.tag + " has no send");
                }
                r.matched = q.pollFirst();
            }
        }
        for (var q : channel.values()) {
            if (!q.isEmpty()) {
                throw new AssertionError("unreceived message from rank " + q.peekFirst().rank());
            }
        }
    }

    private record Buffered(long sendTime, String path, int source, long idle) {
    }

    private void lateSenderAndWrongOrder(List<List<Recv>> recvsByRank) {
        for (List<Recv> recvs : recvsByRank) {
            ArrayDeque<Buffered> buffer = new ArrayDeque<>();
            int i = 0;
            while (i < recvs.size()) {
                Recv r = recvs.get(i);
                if (r.call.region.equals("MPI_Waitall")) {
                    long best = 0;
                    Recv bestR = null;
                    while (i < recvs.size() && recvs.get(i).call == r.call) {
                        Recv x = recvs.get(i++);
                        wrongOrder(buffer, x, x.rank);
                        long idle = Math.min(x.matched.call().enter, x.call.leave) - x.call.enter;
                        if (idle > best) {
                            best = idle;
                            bestR = x;
                        }
                    }
                    if (bestR != null) {
                        add("mpi_latesender", r.call.path, r.rank, best);
                        remember(buffer, new Buffered(bestR.matched.time(), r.call.path, bestR.matched.rank(), best));
                    }
                } else {
                    i++;
                    long idle = Math.min(r.matched.call().enter, r.call.leave) - r.call.enter;
                    if (idle > 0) {
                        add("mpi_latesender", r.call.path, r.rank, idle);
                        remember(buffer, new Buffered(r.matched.time(), r.call.path, r.matched.rank(), idle));
                    }
                    wrongOrder(buffer, r, r.rank);
                }
            }
        }
    }

    private static void remember(ArrayDeque<Buffered> buffer, Buffered b) {
        if (buffer.size() == 100) {
            buffer.pollFirst();
        }
        buffer.addLast(b);
    }

    private void wrongOrder(ArrayDeque<Buffered> buffer, Recv r, int rank) {
        for (Iterator<Buffered> it = buffer.iterator(); it.hasNext(); ) {
            Buffered b = it.next();
            if (b.sendTime > r.matched.time()) {
                add("mpi_latesender_wo", b.path, rank, b.idle);
                add(b.source == r.matched.rank() ? "mpi_lswo_same" : "mpi_lswo_different", b.path, rank, b.idle);
                it.remove();
            }
        }
    }

    private void lateReceiver(List<Send> sends, List<List<Recv>> recvsByRank, Map<Integer, Map<Long, Call>> completions) {
        Map<Send, Recv> recvOf = new HashMap<>();
        for (List<Recv> rs : recvsByRank) {
            for (Recv r : rs) {
                recvOf.put(r.matched, r);
            }
        }
        for (Send s : sends) {
            Call cmp = s.request() < 0 ? s.call() : completions.get(s.rank()).get(s.request());
            String reg = cmp.region;
            if (reg.equals("MPI_Waitall")) {
                unsupportedMultiWaitSends++;
                continue;
            }
            if (!(reg.equals("MPI_Send") || reg.equals("MPI_Ssend") || reg.equals("MPI_Wait"))) {
                continue;
            }
            Recv r = recvOf.get(s);
            long idle = cmp.leave <= r.request.enter ? 0 : r.request.enter - cmp.enter;
            add("mpi_latereceiver", cmp.path, s.rank(), idle);
        }
    }

    private void collectives(List<Coll> colls) {
        Map<String, List<Coll>> instances = new HashMap<>();
        Map<String, Integer> seq = new HashMap<>();
        for (Coll c : colls) {
            String rc = c.rank() + ":" + c.comm();
            int k = seq.merge(rc, 1, Integer::sum);
            instances.computeIfAbsent(c.comm() + ":" + k, x -> new ArrayList<>()).add(c);
        }
        for (List<Coll> inst : instances.values()) {
            int size = defs.communicator(inst.get(0).comm()).size();
            if (inst.size() != size) {
                throw new AssertionError("collective instance with " + inst.size() + " of " + size + " ranks");
            }
            if (size < 2) {
                continue;
            }
            Coll[] byLocal = new Coll[size];
            for (Coll c : inst) {
                byLocal[defs.communicator(c.comm()).localRank(c.rank())] = c;
            }
            CollectiveOp op = inst.get(0).op();
            long latest = Long.MIN_VALUE;
            long earliestEnd = Long.MAX_VALUE;
            for (Coll c : byLocal) {
                latest = Math.max(latest, c.begin());
                earliestEnd = Math.min(earliestEnd, c.end());
            }
            switch (op) {
                case BARRIER -> {
                    for (Coll c : byLocal) {
                        long lb = Math.min(latest, c.end());
                        add("mpi_barrier_wait", c.call().path, c.rank(), lb - c.begin());
                        add("mpi_barrier_completion", c.call().path, c.rank(), c.end() - Math.max(earliestEnd, lb));
                    }
                }
                case ALLREDUCE, ALLGATHER, ALLTOALL -> {
                    // the scenarios' N x N always overlap fully (min end > max begin) with payload on every rank
                    if (earliestEnd <= latest) {
                        throw new AssertionError("N x N without full overlap: not covered by this oracle");
                    }
                    for (Coll c : byLocal) {
                        long lb = Math.min(latest, c.end());
                        add("mpi_wait_nxn", c.call().path, c.rank(), lb - c.begin());
                        add("mpi_nxn_completion", c.call().path, c.rank(), c.end() - Math.max(earliestEnd, lb));
                    }
                }
                case BCAST, SCATTER -> {
                    Coll root = byLocal[inst.get(0).root()];
                    for (Coll c : byLocal) {
                        if (c != root && root.sent() > 0 && c.received() > 0 && c.begin() < root.begin()) {
                            add("mpi_latebroadcast", c.call().path, c.rank(), Math.min(root.begin(), c.end()) - c.begin());
                        }
                    }
                }
                case REDUCE, GATHER -> {
                    Coll root = byLocal[inst.get(0).root()];
                    long lat = Long.MIN_VALUE;
                    for (Coll c : byLocal) {
                        if (c.sent() > 0) {
                            lat = Math.max(lat, c.begin());
                        }
                    }
                    if (root.received() > 0 && root.begin() < lat) {
                        add("mpi_earlyreduce", root.call().path, root.rank(), Math.min(lat, root.end()) - root.begin());
                    }
                }
                case SCAN -> {
                    long lat = Long.MIN_VALUE;
                    for (Coll c : byLocal) {
                        if (c.sent() > 0) {
                            lat = Math.max(lat, c.begin());
                        }
                        if (c.begin() < lat) {
                            add("mpi_earlyscan", c.call().path, c.rank(), Math.min(lat, c.end()) - c.begin());
                        }
                    }
                }
                default -> {
                    // Alltoallv, communicator and handle management: no collective wait state
                }
            }
        }
    }

    private void initAndFinalize(long[] ie, long[] il, long[] fe, long[] fl, String[] initPath) {
        long maxIe = Long.MIN_VALUE;
        long minIl = Long.MAX_VALUE;
        long maxFe = Long.MIN_VALUE;
        for (int i = 0; i < ie.length; i++) {
            maxIe = Math.max(maxIe, ie[i]);
            minIl = Math.min(minIl, il[i]);
            maxFe = Math.max(maxFe, fe[i]);
        }
        for (int i = 0; i < ie.length; i++) {
            add("mpi_init_completion", initPath[i], i, il[i] - Math.max(minIl, Math.min(maxIe, il[i])));
            add("mpi_finalize_wait", "main/MPI_Finalize", i, Math.min(maxFe, fl[i]) - fe[i]);
        }
    }
}
