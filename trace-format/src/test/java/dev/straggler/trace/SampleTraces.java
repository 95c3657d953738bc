package dev.straggler.trace;

import java.nio.file.Path;

/** Paths and small hand-built traces shared by the trace-format tests. */
public final class SampleTraces {
    private SampleTraces() {
    }

    /** The hand-written sample shipped with the project (module directory is the tests' working directory). */
    public static Path lateSenderText() {
        return Path.of("..", "samples", "late-sender.txt");
    }

    /** A two-rank trace with every event kind, built in code; times strictly increase per location. */
    public static MemoryTrace everyKind() {
        TraceDefinitions.Builder b = TraceDefinitions.builder()
                .clock(new Clock(1_000_000_000L, 5, 1000))
                .experiment(new Experiment("every-kind", 2, java.util.Map.of("size", "S")));
        int main = b.addRegion("main", "main.c", 1, 99, Paradigm.USER, RegionRole.FUNCTION);
        int send = b.addRegion("MPI_Isend", "MPI", 0, 0, Paradigm.MPI, RegionRole.POINT2POINT);
        int wait = b.addRegion("MPI_Wait", "MPI", 0, 0, Paradigm.MPI, RegionRole.POINT2POINT);
        int red = b.addRegion("MPI_Reduce", "MPI", 0, 0, Paradigm.MPI, RegionRole.COLL_ALL2ONE);
        b.addRegion("odd name with = and \"quotes\"", "", 0, 0, Paradigm.USER, RegionRole.FUNCTION);
        b.communicator(Communicator.world(0, 2));
        b.location(Location.masterThread(0, 0)).location(Location.masterThread(1, 1));
        b.process(new ProcessDef(0, "rank 0", "node a")).process(new ProcessDef(1, "rank 1", "node b"));
        b.skipped("METRIC", 7);
        MemoryTrace t = new MemoryTrace("every-kind");
        for (int r = 0; r < 2; r++) {
            EventBatch e = new EventBatch();
            long x = 10;
            e.add(x++, EventKind.PROGRAM_BEGIN_CODE, 0, 0, 0, 0, 0);
            e.enter(x++, main);
            e.add(x++, EventKind.THREAD_FORK_CODE, 4, Paradigm.OPENMP.code(), 0, 0, 0);
            e.add(x++, EventKind.THREAD_ACQUIRE_LOCK_CODE, 3 + r, Paradigm.OPENMP.code(), 0, 0, 1);
            e.add(x++, EventKind.THREAD_RELEASE_LOCK_CODE, 3 + r, Paradigm.OPENMP.code(), 0, 0, 1);
            e.add(x++, EventKind.THREAD_JOIN_CODE, 0, Paradigm.OPENMP.code(), 0, 0, 0);
            e.enter(x++, send);
            e.isend(x++, 1 - r, 0, 7, 64, 100 + r);
            e.request(x++, EventKind.MPI_IRECV_REQUEST, 200 + r);
            e.leave(x++, send);
            e.enter(x++, wait);
            e.request(x++, EventKind.MPI_REQUEST_TEST, 100 + r);
            e.request(x++, EventKind.MPI_ISEND_COMPLETE, 100 + r);
            e.irecv(x++, 1 - r, 0, 7, 64, 200 + r);
            e.send(x++, 1 - r, 0, 8, 0);
            e.recv(x++, 1 - r, 0, 8, 0);
            e.request(x++, EventKind.MPI_REQUEST_CANCELLED, 300 + r);
            e.leave(x++, wait);
            e.enter(x++, red);
            e.collectiveBegin(x++);
            e.collectiveEnd(x++, CollectiveOp.REDUCE, 0, 0, 8, r == 0 ? 16 : 0);
            e.leave(x++, red);
            e.add(x++, EventKind.MEASUREMENT_ON_OFF_CODE, 2, 0, 0, 0, 0);
            e.add(x++, EventKind.BUFFER_FLUSH_CODE, 0, 0, 0, 0, x + 5);
            e.add(x++, EventKind.MEASUREMENT_ON_OFF_CODE, 1, 0, 0, 0, 0);
            e.enter(x++, 4);
            e.leave(x++, 4);
            e.leave(x++, main);
            e.add(x, EventKind.PROGRAM_END_CODE, 0, 0, 0, 3, 0);
            t.append(r, e);
        }
        t.finish(b.build());
        return t;
    }
}
