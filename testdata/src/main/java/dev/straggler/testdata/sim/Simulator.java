package dev.straggler.testdata.sim;

import dev.straggler.trace.Clock;
import dev.straggler.trace.Communicator;
import dev.straggler.trace.EventKind;
import dev.straggler.trace.Location;
import dev.straggler.trace.LocationType;
import dev.straggler.trace.ProcessDef;
import dev.straggler.trace.TraceDefinitions;
import dev.straggler.trace.TraceWriter;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;

/**
 * A discrete-event simulator of SPMD message-passing programs. Ranks execute their MPI calls in global time order
 * (a heap keyed by (time, rank)); local work between calls runs straight through. Timestamps come only from the
 * {@link NetworkModel}, so wait states emerge from the program: a receive completes when its message has arrived,
 * a rendezvous send when its receive was posted and the data transferred, a collective when the arrivals it
 * depends on ({@link MpiCall.Sync}) have happened.
 *
 * <p>MPI matching follows the standard: a message matches the earliest posted receive that accepts it, a receive
 * the earliest arrived message it accepts (messages from one sender never overtake each other); "arrival order"
 * is the order of the send calls in simulated time, ties broken by rank. Collectives are matched per communicator
 * in call order.
 *
 * <p>Events are recorded as Score-P records them (reference §6.6): Enter, MpiSend, Leave for MPI_Send; Enter,
 * MpiRecv, Leave for MPI_Recv with the MpiRecv at the completion; Isend = Enter, MpiIsend, Leave; Irecv = Enter,
 * MpiIrecvRequest, Leave; the completing Wait holds MpiIsendComplete / MpiIrecv; collectives (and, as in Score-P 8,
 * MPI_Init, MPI_Finalize and MPI_Comm_split) are Enter, MpiCollectiveBegin, MpiCollectiveEnd, Leave with
 * Score-P's byte counts. Each rank's events go to the writer in batches as the rank advances, so memory does not
 * grow with the length of the trace. One simulator runs once; not thread-safe.
 */
public final class Simulator {
    private final Program program;
    private final int size;
    private final SimOptions options;
    private final NetworkModel net;
    private final RankState[] ranks;
    private final RankHeap heap;
    private final List<CommRuntime> comms = new ArrayList<>();
    private final ArrayDeque<Message> messagePool = new ArrayDeque<>();
    private RankState executing;
    private boolean executingCompleted;
    private int splits;
    private boolean used;

    public Simulator(Program program, int ranks, SimOptions options) {
        if (ranks < 1) {
            throw new IllegalArgumentException("a program needs at least one rank: " + ranks);
        }
        this.program = program;
        this.size = ranks;
        this.options = options;
        this.net = options.network();
        this.ranks = new RankState[ranks];
        this.heap = new RankHeap(ranks);
    }

    /** Events buffered per rank: the requested batch size, lowered so that all ranks together hold about 2^20. */
    public static int batchSizeFor(int requested, int ranks) {
        return Math.max(64, Math.min(requested, (1 << 20) / ranks));
    }

    /**
     * Simulates the program and writes its trace: events location by location as ranks advance, definitions at
     * the end through {@link TraceWriter#finish}. Does not close the writer.
     *
     * @throws IllegalStateException for an erroneous program (deadlock, mismatched collectives, bad peers), with
     *                               the ranks and calls concerned
     */
    public SimResult run(TraceWriter out) throws IOException {
        if (used) {
            throw new IllegalStateException("a simulator runs once");
        }
        used = true;
        try {
            return runUnchecked(out);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    private SimResult runUnchecked(TraceWriter out) throws IOException {
        int world = 0;
        int[] all = new int[size];
        for (int r = 0; r < size; r++) {
            all[r] = r;
        }
        comms.add(new CommRuntime(world, "MPI_COMM_WORLD", all, -1));
        int batch = batchSizeFor(options.batchSize(), size * program.threads());
        for (int r = 0; r < size; r++) {
            ranks[r] = new RankState(r, size, program, options.seed(), out, batch, options.skew(), options.threads());
        }
        for (RankState st : ranks) {
            if (options.programRecords()) {
                st.programBegin(0);
            }
            continueRank(st);
        }
        while (!heap.isEmpty()) {
            RankState st = ranks[heap.pop()];
            Node.Mpi op = st.pendingOp;
            st.pendingOp = null;
            executing = st;
            executingCompleted = false;
            boolean blocked = execute(st, op);
            executing = null;
            if (!blocked) {
                continueRank(st);
            }
        }
        checkAllFinished();
        long[] end = new long[size];
        long traceEnd = 0;
        long events = 0;
        for (RankState st : ranks) {
            st.flush();
            end[st.rank] = st.now;
            traceEnd = Math.max(traceEnd, st.lastObserved);
            events += st.events;
        }
        TraceDefinitions defs = definitions(traceEnd);
        out.finish(defs);
        return new SimResult(defs, events, end);
    }

    /** Runs a rank's local work up to its next MPI call and queues it at that call's time. */
    private void continueRank(RankState st) {
        Node.Mpi op = st.advance();
        if (op == null) {
            st.finished = true;
            if (options.programRecords()) {
                st.programEnd(st.now);
            }
        } else {
            st.pendingOp = op;
            heap.push(st.rank, st.now);
        }
    }

    /** Executes an MPI call at the rank's current time; returns true when the rank is now blocked. */
    private boolean execute(RankState st, Node.Mpi op) {
        long t = st.now;
        long o = net.overhead();
        switch (op.call) {
            case SEND, SSEND -> {
                int comm = commOf(st, op);
                int dst = peer(st, op, op.peer, comm, false);
                int tag = op.tag.applyAsInt(st);
                long b = op.bytes.applyAsLong(st);
                st.enter(t, op.region);
                st.sendRecord(t, dst, comm, tag, b);
                Request r = st.sendRequest;
                r.startSend(0);
                boolean rdv = net.rendezvous(op.call, b);
                if (!rdv) {
                    r.matched = true;
                    r.completeAt = t + o;
                }
                deliver(st, op, comm, dst, tag, b, t, rdv, r);
                return block(st, op, t, r, null);
            }
            case RECV -> {
                int comm = commOf(st, op);
                int src = peer(st, op, op.peer, comm, true);
                int tag = op.tag.applyAsInt(st);
                st.enter(t, op.region);
                Request r = st.recvRequest;
                r.startRecv(0, comm, src, tag, t);
                post(st, r);
                return block(st, op, t, r, null);
            }
            case ISEND -> {
                int comm = commOf(st, op);
                int dst = peer(st, op, op.peer, comm, false);
                int tag = op.tag.applyAsInt(st);
                long b = op.bytes.applyAsLong(st);
                Request r = st.userRequest(op.request.applyAsInt(st), op);
                long id = st.nextRequestId++;
                st.enter(t, op.region);
                st.isendRecord(t, dst, comm, tag, b, id);
                r.startSend(id);
                boolean rdv = net.rendezvous(op.call, b);
                if (!rdv) {
                    r.matched = true;
                    r.completeAt = t + o;
                }
                deliver(st, op, comm, dst, tag, b, t, rdv, r);
                st.leave(t + o, op.region);
                st.now = t + o;
                return false;
            }
            case IRECV -> {
                int comm = commOf(st, op);
                int src = peer(st, op, op.peer, comm, true);
                int tag = op.tag.applyAsInt(st);
                Request r = st.userRequest(op.request.applyAsInt(st), op);
                long id = st.nextRequestId++;
                st.enter(t, op.region);
                st.requestRecord(t, EventKind.MPI_IRECV_REQUEST, id);
                r.startRecv(id, comm, src, tag, t);
                post(st, r);
                st.leave(t + o, op.region);
                st.now = t + o;
                return false;
            }
            case WAIT, WAITALL -> {
                int first = op.request.applyAsInt(st);
                int count = op.call == MpiCall.WAIT ? 1 : op.count.applyAsInt(st);
                if (first < 0 || first + count > st.requests.length) {
                    throw new IllegalStateException("rank " + st.rank + ": " + op.call.regionName() + " on request slots "
                            + first + ".." + (first + count - 1) + " but the program declares " + st.requests.length);
                }
                st.enter(t, op.region);
                st.waitCount = 0;
                for (int s = first; s < first + count; s++) {
                    Request r = st.requests[s];
                    if (r != null && r.active) {
                        addWait(st, r);
                    }
                }
                return blockOnList(st, op, t);
            }
            case SENDRECV -> {
                int comm = commOf(st, op);
                int dst = peer(st, op, op.peer, comm, false);
                int tag = op.tag.applyAsInt(st);
                long b = op.bytes.applyAsLong(st);
                int src = peer(st, op, op.peer2, comm, true);
                int rtag = op.tag2.applyAsInt(st);
                st.enter(t, op.region);
                st.sendRecord(t, dst, comm, tag, b);
                Request s = st.sendRequest;
                s.startSend(0);
                boolean rdv = net.rendezvous(op.call, b);
                if (!rdv) {
                    s.matched = true;
                    s.completeAt = t + o;
                }
                deliver(st, op, comm, dst, tag, b, t, rdv, s);
                Request r = st.recvRequest;
                r.startRecv(0, comm, src, rtag, t);
                post(st, r);
                return block(st, op, t, s, r);
            }
            default -> {
                st.enter(t, op.region);
                st.collectiveBegin(t);
                return arrive(st, op, t);
            }
        }
    }

    // ---- point-to-point

    private int commOf(RankState st, Node.Mpi op) {
        int c = st.slotComm[op.commSlot];
        if (c < 0) {
            throw new IllegalStateException("rank " + st.rank + ": " + op.call.regionName() + " on communicator slot "
                    + op.commSlot + ", which holds no communicator for this rank");
        }
        return c;
    }

    private int peer(RankState st, Node.Mpi op, java.util.function.ToIntFunction<Ctx> f, int comm, boolean source) {
        int p = f.applyAsInt(st);
        int n = comms.get(comm).members.length;
        if (source && p == Program.ANY_SOURCE) {
            return p;
        }
        if (p < 0 || p >= n) {
            throw new IllegalStateException("rank " + st.rank + ": " + op.call.regionName() + (source ? " from " : " to ")
                    + p + ", outside communicator " + comms.get(comm).name + " of size " + n);
        }
        return p;
    }

    private void deliver(RankState from, Node.Mpi op, int comm, int dstLocal, int tag, long bytes, long t,
                         boolean rendezvous, Request senderRequest) {
        CommRuntime cr = comms.get(comm);
        RankState to = ranks[cr.members[dstLocal]];
        Message m = messagePool.isEmpty() ? new Message() : messagePool.pop();
        m.srcLocal = localRank(from, comm);
        m.comm = comm;
        m.tag = tag;
        m.bytes = bytes;
        m.sendTime = t;
        m.rendezvous = rendezvous;
        m.senderRequest = rendezvous ? senderRequest : null;
        ArrayList<Request> posted = to.posted;
        for (int i = 0; i < posted.size(); i++) {
            Request r = posted.get(i);
            if (r.accepts(m)) {
                posted.remove(i);
                match(m, r);
                return;
            }
        }
        to.unexpected.add(m);
    }

    private void post(RankState st, Request r) {
        ArrayList<Message> unexpected = st.unexpected;
        for (int i = 0; i < unexpected.size(); i++) {
            Message m = unexpected.get(i);
            if (r.accepts(m)) {
                unexpected.remove(i);
                match(m, r);
                return;
            }
        }
        st.posted.add(r);
    }

    private int localRank(RankState st, int comm) {
        for (int s = 0; s < st.slotComm.length; s++) {
            if (st.slotComm[s] == comm) {
                return st.slotLocal[s];
            }
        }
        throw new IllegalStateException("rank " + st.rank + " is not in communicator " + comm);
    }

    /** A message meets its receive: completion times follow from the protocol (see {@link NetworkModel}). */
    private void match(Message m, Request r) {
        r.peer = m.srcLocal;
        r.msgTag = m.tag;
        r.bytes = m.bytes;
        if (m.rendezvous) {
            long done = Math.max(m.sendTime, r.postTime) + net.transfer(m.bytes);
            r.completeAt = done;
            Request s = m.senderRequest;
            s.completeAt = done;
            matched(s);
        } else {
            r.completeAt = m.sendTime + net.transfer(m.bytes);
        }
        m.senderRequest = null;
        messagePool.push(m);
        matched(r);
    }

    private void matched(Request r) {
        r.matched = true;
        if (r.waited) {
            r.waited = false;
            RankState owner = ranks[r.owner];
            if (--owner.unmatched == 0) {
                finishWait(owner);
                continueRank(owner);
            }
        }
    }

    private boolean block(RankState st, Node.Mpi op, long enter, Request a, Request b) {
        st.waitCount = 0;
        addWait(st, a);
        if (b != null) {
            addWait(st, b);
        }
        return blockOnList(st, op, enter);
    }

    private static void addWait(RankState st, Request r) {
        if (st.waitCount == st.waitList.length) {
            st.waitList = Arrays.copyOf(st.waitList, st.waitCount * 2);
        }
        st.waitList[st.waitCount++] = r;
    }

    private boolean blockOnList(RankState st, Node.Mpi op, long enter) {
        st.blockedOp = op;
        st.blockedEnter = enter;
        st.unmatched = 0;
        for (int i = 0; i < st.waitCount; i++) {
            Request r = st.waitList[i];
            if (!r.matched) {
                r.waited = true;
                st.unmatched++;
            }
        }
        if (st.unmatched == 0) {
            finishWait(st);
            return false;
        }
        return true;
    }

    /** Completes a blocking point-to-point call or wait: it lasts at least the overhead and until its requests complete. */
    private void finishWait(RankState st) {
        Node.Mpi op = st.blockedOp;
        long c = st.blockedEnter + net.overhead();
        for (int i = 0; i < st.waitCount; i++) {
            c = Math.max(c, st.waitList[i].completeAt);
        }
        switch (op.call) {
            case RECV -> {
                Request r = st.recvRequest;
                st.recvRecord(c, r.peer, r.comm, r.msgTag, r.bytes);
            }
            case SENDRECV -> {
                Request r = st.recvRequest;
                st.recvRecord(c, r.peer, r.comm, r.msgTag, r.bytes);
            }
            case WAIT, WAITALL -> {
                for (int i = 0; i < st.waitCount; i++) {
                    Request r = st.waitList[i];
                    if (r.send) {
                        st.requestRecord(c, EventKind.MPI_ISEND_COMPLETE, r.id);
                    } else {
                        st.irecvRecord(c, r.peer, r.comm, r.msgTag, r.bytes, r.id);
                    }
                }
            }
            default -> {
                // blocking sends record nothing at completion
            }
        }
        for (int i = 0; i < st.waitCount; i++) {
            st.waitList[i].active = false;
            st.waitList[i] = null;
        }
        st.waitCount = 0;
        st.leave(c, op.region);
        st.now = c;
        st.blockedOp = null;
    }

    // ---- collectives

    private boolean arrive(RankState st, Node.Mpi op, long begin) {
        int comm = commOf(st, op);
        CommRuntime cr = comms.get(comm);
        int n = cr.members.length;
        int me = st.slotLocal[op.commSlot];
        CollectiveInstance ci = cr.instance(st.slotSeq[op.commSlot]++);
        int root = op.root == null ? -1 : op.root.applyAsInt(st);
        if (op.call.isRooted() && (root < 0 || root >= n)) {
            throw new IllegalStateException("rank " + st.rank + ": " + op.call.regionName() + " with root " + root
                    + ", outside communicator " + cr.name + " of size " + n);
        }
        if (ci.call == null) {
            ci.call = op.call;
            ci.root = root;
        } else if (ci.call != op.call || ci.root != root) {
            throw new IllegalStateException("rank " + st.rank + ": " + op.call.regionName() + " (root " + root
                    + ") on communicator " + cr.name + " meets " + ci.call.regionName() + " (root " + ci.root
                    + ") of other ranks: collectives must be called in the same order by all members");
        }
        ci.begin[me] = begin;
        ci.bytes[me] = op.bytes == null ? 0 : op.bytes.applyAsLong(st);
        ci.bytes2[me] = op.bytes2 == null ? 0 : op.bytes2.applyAsLong(st);
        if (op.call == MpiCall.COMM_SPLIT) {
            ci.color[me] = op.peer.applyAsInt(st);
            ci.key[me] = op.tag.applyAsInt(st);
        }
        ci.arrived[me] = true;
        ci.arrivedCount++;
        ci.maxBegin = Math.max(ci.maxBegin, begin);
        st.blockedOp = op;
        switch (op.call.sync()) {
            case ALL -> {
                if (ci.arrivedCount == n) {
                    if (op.call == MpiCall.COMM_SPLIT) {
                        split(cr, ci, op.resultSlot);
                    }
                    for (int j = 0; j < n; j++) {
                        complete(cr, ci, j, ci.maxBegin);
                    }
                }
            }
            case ONE_TO_ALL -> {
                if (me == root) {
                    for (int j = 0; j < n; j++) {
                        if (ci.arrived[j] && !ci.done[j]) {
                            complete(cr, ci, j, Math.max(ci.begin[j], begin));
                        }
                    }
                } else if (ci.arrived[root]) {
                    complete(cr, ci, me, Math.max(begin, ci.begin[root]));
                }
            }
            case ALL_TO_ONE -> {
                if (me != root) {
                    complete(cr, ci, me, begin);
                }
                if (ci.arrivedCount == n) {
                    complete(cr, ci, root, ci.maxBegin);
                }
            }
            case PREFIX -> {
                while (ci.scanNext < n && ci.arrived[ci.scanNext]) {
                    ci.prefixMax = Math.max(ci.prefixMax, ci.begin[ci.scanNext]);
                    complete(cr, ci, ci.scanNext, ci.prefixMax);
                    ci.scanNext++;
                }
            }
        }
        cr.retire();
        boolean done = executingCompleted;
        executingCompleted = false;
        return !done;
    }

    /** Local rank {@code j} leaves the collective: its prerequisites arrived at {@code dep}. */
    private void complete(CommRuntime cr, CollectiveInstance ci, int j, long dep) {
        int n = cr.members.length;
        ci.done[j] = true;
        ci.doneCount++;
        RankState rs = ranks[cr.members[j]];
        long end = dep + net.collectiveCost(ci.call, ci.bytes[j], n) + net.exitDelay(j);
        long[] b = ci.call.scorepBytes(ci.bytes[j], ci.bytes2[j], n, j, ci.root);
        rs.collectiveEnd(end, ci.call.collectiveOp(), cr.id, ci.call.isRooted() ? ci.root : -1, b[0], b[1]);
        rs.leave(end, rs.blockedOp.region);
        rs.now = end;
        rs.blockedOp = null;
        if (rs == executing) {
            executingCompleted = true;
        } else {
            continueRank(rs);
        }
    }

    /** MPI_Comm_split: one communicator per colour, members ordered by (key, parent rank); ids in colour order. */
    private void split(CommRuntime parent, CollectiveInstance ci, int slot) {
        int n = parent.members.length;
        TreeMap<Integer, List<Integer>> byColor = new TreeMap<>();
        for (int j = 0; j < n; j++) {
            if (ci.color[j] >= 0) {
                byColor.computeIfAbsent(ci.color[j], k -> new ArrayList<>()).add(j);
            }
        }
        int splitIndex = ++splits;
        for (int j = 0; j < n; j++) {
            RankState rs = ranks[parent.members[j]];
            rs.slotComm[slot] = -1;
            rs.slotLocal[slot] = -1;
            rs.slotSize[slot] = 0;
            rs.slotSeq[slot] = 0;
        }
        for (var e : byColor.entrySet()) {
            List<Integer> group = e.getValue();
            group.sort((a, b) -> ci.key[a] != ci.key[b] ? Integer.compare(ci.key[a], ci.key[b]) : Integer.compare(a, b));
            int[] members = new int[group.size()];
            for (int i = 0; i < members.length; i++) {
                members[i] = parent.members[group.get(i)];
            }
            int id = comms.size();
            comms.add(new CommRuntime(id, "split " + splitIndex + " color " + e.getKey(), members, parent.id));
            for (int i = 0; i < members.length; i++) {
                RankState rs = ranks[members[i]];
                rs.slotComm[slot] = id;
                rs.slotLocal[slot] = i;
                rs.slotSize[slot] = members.length;
            }
        }
    }

    // ---- end of run

    private void checkAllFinished() {
        StringBuilder sb = new StringBuilder();
        int stuck = 0;
        for (RankState st : ranks) {
            if (!st.finished) {
                if (stuck++ < 16) {
                    sb.append("\n  rank ").append(st.rank).append(" blocked in ")
                            .append(st.blockedOp == null ? "?" : st.blockedOp.call.regionName())
                            .append(" since t=").append(st.blockedEnter == 0 ? st.now : st.blockedEnter);
                }
            }
        }
        if (stuck > 0) {
            throw new IllegalStateException("deadlock: " + stuck + " of " + size + " ranks cannot proceed" + sb);
        }
    }

    private TraceDefinitions definitions(long traceEnd) {
        TraceDefinitions.Builder b = TraceDefinitions.builder()
                .clock(new Clock(1_000_000_000L, 0, traceEnd))
                .experiment(options.experiment());
        program.regions().forEach(b::region);
        for (int r = 0; r < size; r++) {
            b.process(new ProcessDef(r, "MPI Rank " + r, ""));
            b.location(Location.masterThread(r, r));
        }
        // OpenMP worker threads as Score-P defines them: CPU threads of the rank's location group, OTF2 location id
        // t << 32 | rank; indexed after all masters (t × ranks + rank), the order of their OTF2 ids
        for (int t = 1; t < program.threads(); t++) {
            for (int r = 0; r < size; r++) {
                b.location(new Location(t * size + r, ((long) t << 32) | r, "OMP thread " + t, LocationType.CPU_THREAD,
                        r, t, -1));
            }
        }
        for (CommRuntime c : comms) {
            b.communicator(new Communicator(c.id, c.name, c.members, c.parent));
        }
        return b.build();
    }
}
