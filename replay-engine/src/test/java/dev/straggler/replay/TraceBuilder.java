package dev.straggler.replay;

import dev.straggler.trace.Clock;
import dev.straggler.trace.CollectiveOp;
import dev.straggler.trace.Communicator;
import dev.straggler.trace.EventBatch;
import dev.straggler.trace.EventKind;
import dev.straggler.trace.Experiment;
import dev.straggler.trace.Location;
import dev.straggler.trace.LocationType;
import dev.straggler.trace.MemoryTrace;
import dev.straggler.trace.Paradigm;
import dev.straggler.trace.Region;
import dev.straggler.trace.RegionRole;
import dev.straggler.trace.TraceDefinitions;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes small traces by hand, as Score-P records them: one master thread per rank, MPI regions with source
 * file "MPI", paradigm MPI and the role Score-P gives them, MPI_COMM_WORLD as communicator 0. Timestamps are
 * nanosecond ticks. The {@code call*} helpers write a whole MPI call: Enter, its records, Leave.
 */
public final class TraceBuilder {
    private final int ranks;
    private final List<Region> regions = new ArrayList<>();
    private final Map<String, Integer> regionIds = new HashMap<>();
    private final List<Communicator> comms = new ArrayList<>();
    private final List<Rank> rankList = new ArrayList<>();
    private final List<Location> extraLocations = new ArrayList<>();
    private final List<EventBatch> extraStreams = new ArrayList<>();
    public static final int WORLD = 0;

    public TraceBuilder(int ranks) {
        this.ranks = ranks;
        comms.add(Communicator.world(0, ranks));
        for (int r = 0; r < ranks; r++) {
            rankList.add(new Rank(r));
        }
    }

    /** A sub-communicator with members given as global ranks in communicator-rank order. */
    public int comm(String name, int... members) {
        comms.add(new Communicator(comms.size(), name, members, 0));
        return comms.size() - 1;
    }

    /** Id of a region by name, creating a user function or (names starting with MPI_) an MPI region. */
    public int region(String name) {
        Integer id = regionIds.get(name);
        if (id != null) {
            return id;
        }
        int nid = regions.size();
        Region r = name.startsWith("MPI_")
                ? new Region(nid, name, name, "MPI", 0, 0, Paradigm.MPI, mpiRole(name))
                : new Region(nid, name, name, "app.c", 1, 2, Paradigm.USER, RegionRole.FUNCTION);
        regions.add(r);
        regionIds.put(name, nid);
        return nid;
    }

    /** Adds an arbitrary region definition. */
    public int region(Region template) {
        int nid = regions.size();
        regions.add(new Region(nid, template.name(), template.canonicalName(), template.sourceFile(),
                template.beginLine(), template.endLine(), template.paradigm(), template.role()));
        regionIds.put(template.name(), nid);
        return nid;
    }

    static RegionRole mpiRole(String name) {
        String op = name.substring(4).toLowerCase();
        return switch (op) {
            case "barrier" -> RegionRole.BARRIER;
            case "bcast", "scatter", "scatterv" -> RegionRole.COLL_ONE2ALL;
            case "reduce", "gather", "gatherv" -> RegionRole.COLL_ALL2ONE;
            case "allreduce", "allgather", "allgatherv", "alltoall", "alltoallv", "alltoallw", "reduce_scatter",
                 "reduce_scatter_block" -> RegionRole.COLL_ALL2ALL;
            case "scan", "exscan" -> RegionRole.COLL_OTHER;
            case "send", "ssend", "bsend", "rsend", "isend", "issend", "recv", "irecv", "sendrecv" ->
                    RegionRole.POINT2POINT;
            default -> RegionRole.FUNCTION;
        };
    }

    public Rank rank(int r) {
        return rankList.get(r);
    }

    /** Adds a worker-thread location to a rank; returns its stream writer. */
    public Rank thread(int rank, int thread) {
        Rank t = new Rank(rank);
        extraLocations.add(new Location(ranks + extraLocations.size(), 1000 + extraLocations.size(),
                "Thread " + thread, LocationType.CPU_THREAD, rank, thread, -1));
        extraStreams.add(t.events);
        return t;
    }

    public MemoryTrace build() {
        TraceDefinitions.Builder b = TraceDefinitions.builder()
                .clock(Clock.nanoseconds())
                .experiment(Experiment.of("test", ranks));
        regions.forEach(b::region);
        comms.forEach(b::communicator);
        List<EventBatch> streams = new ArrayList<>();
        for (int r = 0; r < ranks; r++) {
            b.location(Location.masterThread(r, r));
            streams.add(rankList.get(r).events);
        }
        extraLocations.forEach(b::location);
        streams.addAll(extraStreams);
        return new MemoryTrace(b.build(), streams, "hand-built trace");
    }

    /** The event stream of one location. */
    public final class Rank {
        final int rank;
        final EventBatch events = new EventBatch(64);
        private final Deque<Integer> open = new ArrayDeque<>();

        Rank(int rank) {
            this.rank = rank;
        }

        public Rank enter(long t, String name) {
            int id = region(name);
            open.push(id);
            events.enter(t, id);
            return this;
        }

        public Rank leave(long t) {
            events.leave(t, open.pop());
            return this;
        }

        public Rank send(long t, int comm, int peer, int tag, long bytes) {
            events.send(t, peer, comm, tag, bytes);
            return this;
        }

        public Rank isend(long t, int comm, int peer, int tag, long bytes, long request) {
            events.isend(t, peer, comm, tag, bytes, request);
            return this;
        }

        public Rank recv(long t, int comm, int peer, int tag, long bytes) {
            events.recv(t, peer, comm, tag, bytes);
            return this;
        }

        public Rank irecv(long t, int comm, int peer, int tag, long bytes, long request) {
            events.irecv(t, peer, comm, tag, bytes, request);
            return this;
        }

        public Rank request(long t, EventKind kind, long request) {
            events.request(t, kind, request);
            return this;
        }

        public Rank raw(long t, byte kind, int ref, int comm, int tag, long bytes, long aux) {
            events.add(t, kind, ref, comm, tag, bytes, aux);
            return this;
        }

        /** A blocking send call (MPI_Send, MPI_Ssend, MPI_Bsend, ...) on MPI_COMM_WORLD. */
        public Rank callSend(String call, long enter, long leave, int peer, int tag, long bytes) {
            return enter(enter, call).send(enter, WORLD, peer, tag, bytes).leave(leave);
        }

        /** MPI_Recv on MPI_COMM_WORLD; the receive record is written at the Leave. */
        public Rank callRecv(long enter, long leave, int peer, int tag, long bytes) {
            return enter(enter, "MPI_Recv").recv(leave, WORLD, peer, tag, bytes).leave(leave);
        }

        public Rank callIsend(long enter, long leave, int peer, int tag, long bytes, long request) {
            return enter(enter, "MPI_Isend").isend(enter, WORLD, peer, tag, bytes, request).leave(leave);
        }

        public Rank callIrecv(long enter, long leave, long request) {
            return enter(enter, "MPI_Irecv").request(enter, EventKind.MPI_IRECV_REQUEST, request).leave(leave);
        }

        /** A collective call: Enter, Begin, End, Leave at the given times. */
        public Rank callCollective(String call, long enter, long leave, CollectiveOp op, int comm, int root,
                                   long sent, long received) {
            enter(enter, call);
            events.collectiveBegin(enter);
            events.collectiveEnd(leave, op, comm, root, sent, received);
            return leave(leave);
        }

        /** A user function spanning [enter, leave] with nothing inside. */
        public Rank compute(String name, long enter, long leave) {
            return enter(enter, name).leave(leave);
        }
    }
}
