package dev.straggler.patterns.callsite;

import dev.straggler.trace.CollectiveOp;
import dev.straggler.trace.Communicator;
import dev.straggler.trace.EventBatch;
import dev.straggler.trace.Location;
import dev.straggler.trace.MemoryTrace;
import dev.straggler.trace.Paradigm;
import dev.straggler.trace.ProcessDef;
import dev.straggler.trace.RegionRole;
import dev.straggler.trace.TraceDefinitions;

import java.util.List;

/**
 * A hand-timed two-rank trace (nanosecond clock) whose callsite statistics, waits and phases are worked out in
 * {@link CallsiteProfilerTest}:
 * <pre>
 * rank 0: main{ Init[0,10] setup{ Barrier[20,50] } solve{ Send 1000 B [60,70], Send 3000 B [80,84],
 *                                                        Allreduce [100,130] } Finalize[150,160] }
 * rank 1: main{ Init[0,12] setup{ Barrier[40,50] } solve{ Recv 1000 B [55,70], Recv 3000 B [75,85],
 *                                                        Allreduce [120,130] } Finalize[148,160] }
 * </pre>
 */
final class TwoRankTrace {
    static final int MAIN = 0;
    static final int INIT = 1;
    static final int FINALIZE = 2;
    static final int SOLVE = 3;
    static final int SEND = 4;
    static final int RECV = 5;
    static final int ALLREDUCE = 6;
    static final int SETUP = 7;
    static final int BARRIER = 8;

    private TwoRankTrace() {
    }

    static TraceDefinitions definitions() {
        TraceDefinitions.Builder b = TraceDefinitions.builder();
        b.addRegion("main", "app.c", 10, 90, Paradigm.USER, RegionRole.FUNCTION);
        b.addRegion("MPI_Init", "MPI", 0, 0, Paradigm.MPI, RegionRole.FUNCTION);
        b.addRegion("MPI_Finalize", "MPI", 0, 0, Paradigm.MPI, RegionRole.FUNCTION);
        b.addRegion("solve", "solve.c", 5, 40, Paradigm.USER, RegionRole.FUNCTION);
        b.addRegion("MPI_Send", "MPI", 0, 0, Paradigm.MPI, RegionRole.POINT2POINT);
        b.addRegion("MPI_Recv", "MPI", 0, 0, Paradigm.MPI, RegionRole.POINT2POINT);
        b.addRegion("MPI_Allreduce", "MPI", 0, 0, Paradigm.MPI, RegionRole.COLL_ALL2ALL);
        b.addRegion("setup", "setup.c", 1, 20, Paradigm.USER, RegionRole.FUNCTION);
        b.addRegion("MPI_Barrier", "MPI", 0, 0, Paradigm.MPI, RegionRole.BARRIER);
        for (int r = 0; r < 2; r++) {
            b.process(new ProcessDef(r, "rank " + r, "node"));
            b.location(Location.masterThread(r, r));
        }
        b.communicator(Communicator.world(0, 2));
        return b.build();
    }

    static MemoryTrace trace() {
        EventBatch r0 = new EventBatch(64);
        r0.enter(0, MAIN);
        r0.enter(0, INIT);
        r0.leave(10, INIT);
        r0.enter(10, SETUP);
        r0.enter(20, BARRIER);
        r0.collectiveBegin(20);
        r0.collectiveEnd(50, CollectiveOp.BARRIER, 0, -1, 0, 0);
        r0.leave(50, BARRIER);
        r0.leave(50, SETUP);
        r0.enter(50, SOLVE);
        r0.enter(60, SEND);
        r0.send(61, 1, 0, 7, 1000);
        r0.leave(70, SEND);
        r0.enter(80, SEND);
        r0.send(81, 1, 0, 7, 3000);
        r0.leave(84, SEND);
        r0.enter(100, ALLREDUCE);
        r0.collectiveBegin(100);
        r0.collectiveEnd(130, CollectiveOp.ALLREDUCE, 0, -1, 8, 8);
        r0.leave(130, ALLREDUCE);
        r0.leave(140, SOLVE);
        r0.enter(150, FINALIZE);
        r0.leave(160, FINALIZE);
        r0.leave(160, MAIN);

        EventBatch r1 = new EventBatch(64);
        r1.enter(0, MAIN);
        r1.enter(0, INIT);
        r1.leave(12, INIT);
        r1.enter(12, SETUP);
        r1.enter(40, BARRIER);
        r1.collectiveBegin(40);
        r1.collectiveEnd(50, CollectiveOp.BARRIER, 0, -1, 0, 0);
        r1.leave(50, BARRIER);
        r1.leave(50, SETUP);
        r1.enter(50, SOLVE);
        r1.enter(55, RECV);
        r1.recv(69, 0, 0, 7, 1000);
        r1.leave(70, RECV);
        r1.enter(75, RECV);
        r1.recv(83, 0, 0, 7, 3000);
        r1.leave(85, RECV);
        r1.enter(120, ALLREDUCE);
        r1.collectiveBegin(120);
        r1.collectiveEnd(130, CollectiveOp.ALLREDUCE, 0, -1, 8, 8);
        r1.leave(130, ALLREDUCE);
        r1.leave(140, SOLVE);
        r1.enter(148, FINALIZE);
        r1.leave(160, FINALIZE);
        r1.leave(160, MAIN);
        return new MemoryTrace(definitions(), List.of(r0, r1), "two-rank");
    }
}
