package dev.straggler.testdata.sim;

import dev.straggler.trace.CollectiveOp;
import dev.straggler.trace.EventBatch;
import dev.straggler.trace.EventKind;
import dev.straggler.trace.Experiment;
import dev.straggler.trace.MemoryTrace;
import dev.straggler.trace.TraceDefinitions;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Hand-checked timelines of tiny programs. Network: latency 1000, 1 byte/ns, eager up to 100 bytes, overhead 10,
 * so a message of b bytes takes 1000 + b ticks. MPI_Init on 2 ranks costs one latency step (1000).
 */
class SimulatorTest {
    static final NetworkModel NET = new NetworkModel(1000, 1e9, 100, 10, 0);

    record Ev(long time, byte kind, int ref, int comm, int tag, long bytes, long aux) {
    }

    static List<Ev> events(MemoryTrace t, int loc) {
        EventBatch b = t.readLocation(loc);
        List<Ev> l = new ArrayList<>();
        for (int i = 0; i < b.size; i++) {
            l.add(new Ev(b.time[i], b.kind[i], b.ref[i], b.comm[i], b.tag[i], b.bytes[i], b.aux[i]));
        }
        return l;
    }

    static MemoryTrace run(Program p, int ranks, NetworkModel net) throws Exception {
        MemoryTrace t = new MemoryTrace("test");
        new Simulator(p, ranks, SimOptions.of(net, 1, Experiment.of("test", ranks))).run(t);
        return t;
    }

    /** The events of one region instance on a rank: the first ENTER of that region up to its LEAVE. */
    static List<Ev> call(MemoryTrace t, int loc, String region, int occurrence) {
        TraceDefinitions d = t.definitions();
        int id = d.regionId(region);
        List<Ev> all = events(t, loc);
        int seen = 0;
        for (int i = 0; i < all.size(); i++) {
            if (all.get(i).kind() == EventKind.ENTER_CODE && all.get(i).ref() == id && seen++ == occurrence) {
                int j = i;
                while (!(all.get(j).kind() == EventKind.LEAVE_CODE && all.get(j).ref() == id)) {
                    j++;
                }
                return all.subList(i, j + 1);
            }
        }
        throw new AssertionError("no " + region + " #" + occurrence + " on location " + loc);
    }

    @Test
    void eagerSendReturnsAfterTheOverheadAndTheReceiveEndsWhenTheMessageArrives() throws Exception {
        ProgramBuilder b = new ProgramBuilder("t.c");
        Program p = b.program("main", 1,
                b.when(c -> c.rank() == 0, b.seq(b.compute(5000), b.send(Program.WORLD, c -> 1, 7, c -> 50))),
                b.when(c -> c.rank() == 1, b.recv(Program.WORLD, c -> 0, 7)));
        MemoryTrace t = run(p, 2, NET);
        // Init ends at 1000 on both ranks; rank 0 sends at 6000, rank 1 posts at 1000
        List<Ev> send = call(t, 0, "MPI_Send", 0);
        assertEquals(6000, send.get(0).time());
        assertEquals(new Ev(6000, EventKind.MPI_SEND_CODE, 1, 0, 7, 50, 0), send.get(1));
        assertEquals(6010, send.get(2).time());
        List<Ev> recv = call(t, 1, "MPI_Recv", 0);
        assertEquals(1000, recv.get(0).time());
        assertEquals(new Ev(7050, EventKind.MPI_RECV_CODE, 0, 0, 7, 50, 0), recv.get(1));
        assertEquals(7050, recv.get(2).time());
    }

    @Test
    void rendezvousSendBlocksUntilTheReceiveIsPostedThenBothEndWhenTheDataArrives() throws Exception {
        ProgramBuilder b = new ProgramBuilder("t.c");
        Program p = b.program("main", 1,
                b.when(c -> c.rank() == 0, b.send(Program.WORLD, c -> 1, 7, c -> 500)),
                b.when(c -> c.rank() == 1, b.seq(b.compute(4000), b.recv(Program.WORLD, c -> 0, 7))));
        MemoryTrace t = run(p, 2, NET);
        // the receive is posted at 5000; the transfer of 500 bytes takes 1500
        assertEquals(List.of(1000L, 1000L, 6500L), call(t, 0, "MPI_Send", 0).stream().map(Ev::time).toList());
        assertEquals(List.of(5000L, 6500L, 6500L), call(t, 1, "MPI_Recv", 0).stream().map(Ev::time).toList());
    }

    @Test
    void ssendIsSynchronousEvenForSmallMessages() throws Exception {
        ProgramBuilder b = new ProgramBuilder("t.c");
        Program p = b.program("main", 1,
                b.when(c -> c.rank() == 0, b.ssend(Program.WORLD, c -> 1, 7, c -> 4)),
                b.when(c -> c.rank() == 1, b.seq(b.compute(3000), b.recv(Program.WORLD, c -> 0, 7))));
        MemoryTrace t = run(p, 2, NET);
        assertEquals(5004, call(t, 0, "MPI_Ssend", 0).get(2).time());
    }

    @Test
    void isendAndIrecvCompleteInTheirWaitsWithScorePsRecords() throws Exception {
        ProgramBuilder b = new ProgramBuilder("t.c").requestSlots(1);
        Program p = b.program("main", 1,
                b.when(c -> c.rank() == 0, b.seq(b.compute(2000),
                        b.isend(Program.WORLD, c -> 1, c -> 3, c -> 20, c -> 0), b.await(c -> 0))),
                b.when(c -> c.rank() == 1, b.seq(
                        b.irecv(Program.WORLD, c -> 0, c -> 3, c -> 0), b.await(c -> 0))));
        MemoryTrace t = run(p, 2, NET);
        List<Ev> isend = call(t, 0, "MPI_Isend", 0);
        assertEquals(new Ev(3000, EventKind.MPI_ISEND_CODE, 1, 0, 3, 20, 1), isend.get(1));
        assertEquals(3010, isend.get(2).time());
        List<Ev> swait = call(t, 0, "MPI_Wait", 0);
        assertEquals(new Ev(3020, EventKind.MPI_ISEND_COMPLETE_CODE, 0, 0, 0, 0, 1), swait.get(1));
        List<Ev> irecv = call(t, 1, "MPI_Irecv", 0);
        assertEquals(new Ev(1000, EventKind.MPI_IRECV_REQUEST_CODE, 0, 0, 0, 0, 1), irecv.get(1));
        List<Ev> rwait = call(t, 1, "MPI_Wait", 0);
        assertEquals(1010, rwait.get(0).time());
        assertEquals(new Ev(4020, EventKind.MPI_IRECV_CODE, 0, 0, 3, 20, 1), rwait.get(1));
        assertEquals(4020, rwait.get(2).time());
    }

    @Test
    void anySourceReceiveTakesTheMessageSentFirst() throws Exception {
        ProgramBuilder b = new ProgramBuilder("t.c");
        Program p = b.program("main", 1,
                b.when(c -> c.rank() == 0, b.seq(b.recv(Program.WORLD, c -> Program.ANY_SOURCE, 1),
                        b.recv(Program.WORLD, c -> Program.ANY_SOURCE, 1))),
                b.when(c -> c.rank() > 0, b.seq(b.compute(c -> 1000L * (3 - c.rank())),
                        b.send(Program.WORLD, c -> 0, 1, c -> 8))));
        MemoryTrace t = run(p, 3, NET);
        // rank 2 sends at 1000 + 2000 (after Init) before rank 1 (at 1000 + 4000): rank 0 receives 2 first
        assertEquals(2, call(t, 0, "MPI_Recv", 0).get(1).ref());
        assertEquals(1, call(t, 0, "MPI_Recv", 1).get(1).ref());
    }

    @Test
    void messagesFromOneSenderAreNotOvertaken() throws Exception {
        ProgramBuilder b = new ProgramBuilder("t.c");
        Program p = b.program("main", 1,
                b.when(c -> c.rank() == 0, b.seq(b.send(Program.WORLD, c -> 1, 1, c -> 90), b.send(Program.WORLD, c -> 1, 1, c -> 2))),
                b.when(c -> c.rank() == 1, b.seq(b.compute(10_000), b.recv(Program.WORLD, c -> 0, 1), b.recv(Program.WORLD, c -> 0, 1))));
        MemoryTrace t = run(p, 2, NET);
        assertEquals(90, call(t, 1, "MPI_Recv", 0).get(1).bytes());
        assertEquals(2, call(t, 1, "MPI_Recv", 1).get(1).bytes());
    }

    @Test
    void sendrecvRecordsSendThenReceiveInOneCall() throws Exception {
        ProgramBuilder b = new ProgramBuilder("t.c");
        Program p = b.program("main", 1, b.sendrecv(Program.WORLD, c -> 1 - c.rank(), 5, c -> 10, c -> 1 - c.rank(), 5));
        MemoryTrace t = run(p, 2, NET);
        List<Ev> sr = call(t, 0, "MPI_Sendrecv", 0);
        assertEquals(4, sr.size());
        assertEquals(EventKind.MPI_SEND_CODE, sr.get(1).kind());
        assertEquals(new Ev(2010, EventKind.MPI_RECV_CODE, 1, 0, 5, 10, 0), sr.get(2));
    }

    @Test
    void collectivesFollowTheCostModelAndScorePsByteCounts() throws Exception {
        ProgramBuilder b = new ProgramBuilder("t.c");
        Program p = b.program("main", 1,
                b.compute(c -> 1000L * c.rank()),
                b.bcast(Program.WORLD, 1, c -> 10),
                b.compute(c -> 500L * (3 - c.rank())),
                b.reduce(Program.WORLD, 0, c -> 10),
                b.scan(Program.WORLD, c -> 10));
        MemoryTrace t = run(p, 4, NET);
        // Init: 2 steps = 2000. Bcast from rank 1 (begins 3000); 2 steps of 1010 = 2020
        long[] bcastEnd = new long[4];
        for (int r = 0; r < 4; r++) {
            List<Ev> c = call(t, r, "MPI_Bcast", 0);
            bcastEnd[r] = c.get(2).time();
            Ev end = c.get(2);
            assertEquals(CollectiveOp.BCAST.code(), end.ref());
            assertEquals(1, end.tag());
            assertEquals(r == 1 ? 40 : 0, end.bytes());
            assertEquals(10, end.aux());
        }
        assertArrayEquals(new long[] {5020, 5020, 6020, 7020}, bcastEnd);
        // Reduce to rank 0: non-roots end at their own begin + 2020, the root after the last arrival
        long[] reduceBegin = new long[4];
        for (int r = 0; r < 4; r++) {
            reduceBegin[r] = bcastEnd[r] + 500L * (3 - r);
        }
        long last = Math.max(Math.max(reduceBegin[0], reduceBegin[1]), Math.max(reduceBegin[2], reduceBegin[3]));
        assertEquals(last + 2020, call(t, 0, "MPI_Reduce", 0).get(3).time());
        assertEquals(reduceBegin[3] + 2020, call(t, 3, "MPI_Reduce", 0).get(3).time());
        Ev rootEnd = call(t, 0, "MPI_Reduce", 0).get(2);
        assertEquals(10, rootEnd.bytes());
        assertEquals(40, rootEnd.aux());
        // Scan: rank i ends at the latest begin of ranks 0..i plus the cost; Score-P's scan bytes
        Ev scan2 = call(t, 2, "MPI_Scan", 0).get(2);
        assertEquals(10 * (4 - 2), scan2.bytes());
        assertEquals(10 * 3, scan2.aux());
    }

    @Test
    void commSplitCreatesSubCommunicatorsOrderedByKey() throws Exception {
        ProgramBuilder b = new ProgramBuilder("t.c");
        int sub = b.newCommSlot();
        Program p = b.program("main", 1,
                b.commSplit(Program.WORLD, c -> c.rank() % 2, c -> -c.rank(), sub),
                b.allreduce(sub, c -> 8));
        MemoryTrace t = run(p, 5, NET);
        TraceDefinitions d = t.definitions();
        assertEquals(3, d.communicators().size());
        assertArrayEquals(new int[] {4, 2, 0}, d.communicator(1).members());
        assertArrayEquals(new int[] {3, 1}, d.communicator(2).members());
        assertEquals(0, d.communicator(1).parent());
        Ev splitEnd = call(t, 3, "MPI_Comm_split", 0).get(2);
        assertEquals(CollectiveOp.CREATE_HANDLE.code(), splitEnd.ref());
        assertEquals(0, splitEnd.comm());
        assertEquals(2, call(t, 3, "MPI_Allreduce", 0).get(2).comm());
    }

    @Test
    void mpiRegionsAreDefinedAsScorePDefinesThem() throws Exception {
        ProgramBuilder b = new ProgramBuilder("t.c");
        MemoryTrace t = run(b.program("main", 3, b.barrier(Program.WORLD)), 2, NET);
        var barrier = t.definitions().region(t.definitions().regionId("MPI_Barrier"));
        assertEquals("MPI", barrier.sourceFile());
        assertEquals(dev.straggler.trace.Paradigm.MPI, barrier.paradigm());
        assertEquals(dev.straggler.trace.RegionRole.BARRIER, barrier.role());
        var main = t.definitions().region(t.definitions().regionId("main"));
        assertEquals("t.c", main.sourceFile());
        assertEquals(3, main.beginLine());
        List<Ev> init = call(t, 0, "MPI_Init", 0);
        assertEquals(CollectiveOp.CREATE_HANDLE.code(), init.get(2).ref());
        assertEquals(EventKind.PROGRAM_BEGIN_CODE, events(t, 0).get(0).kind());
    }

    @Test
    void exitStaggerMakesRanksLeaveOneAfterAnother() throws Exception {
        ProgramBuilder b = new ProgramBuilder("t.c");
        MemoryTrace t = run(b.program("main", 1, b.barrier(Program.WORLD)), 3, NET.withExitStagger(7));
        long b0 = call(t, 0, "MPI_Barrier", 0).get(3).time();
        assertEquals(b0 + 14, call(t, 2, "MPI_Barrier", 0).get(3).time());
    }

    @Test
    void eventsReachTheWriterInBoundedBatches() throws Exception {
        ProgramBuilder b = new ProgramBuilder("t.c");
        Program p = b.program("main", 1, b.loop(10_000, b.call("f", 2, b.compute(1))));
        List<Integer> sizes = new ArrayList<>();
        MemoryTrace sink = new MemoryTrace("x");
        dev.straggler.trace.TraceWriter counting = new dev.straggler.trace.TraceWriter() {
            @Override
            public void append(int location, EventBatch batch) {
                sizes.add(batch.size);
                sink.append(location, batch);
            }

            @Override
            public void finish(TraceDefinitions definitions) {
                sink.finish(definitions);
            }

            @Override
            public void close() {
            }
        };
        new Simulator(p, 2, SimOptions.of(NET, 1, Experiment.of("x", 2)).withBatchSize(1000)).run(counting);
        assertTrue(sizes.stream().allMatch(s -> s <= 1000));
        assertEquals(2 * (20_000 + 2 + 8 + 2), sink.eventCount());
    }

    @Test
    void deadlockIsReportedWithTheBlockedRanks() {
        ProgramBuilder b = new ProgramBuilder("t.c");
        Program p = b.program("main", 1, b.recv(Program.WORLD, c -> 1 - c.rank(), 1));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> run(p, 2, NET));
        assertTrue(e.getMessage().contains("deadlock") && e.getMessage().contains("MPI_Recv"), e.getMessage());
    }

    @Test
    void mismatchedCollectivesAreReported() {
        ProgramBuilder b = new ProgramBuilder("t.c");
        Program p = b.program("main", 1, b.when(c -> c.rank() == 0, b.barrier(Program.WORLD), b.allreduce(Program.WORLD, c -> 8)));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> run(p, 2, NET));
        assertTrue(e.getMessage().contains("same order"), e.getMessage());
    }

    @Test
    void peersOutsideTheCommunicatorAreReported() {
        ProgramBuilder b = new ProgramBuilder("t.c");
        Program p = b.program("main", 1, b.send(Program.WORLD, c -> 5, 1, c -> 8));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> run(p, 2, NET));
        assertTrue(e.getMessage().contains("outside communicator"), e.getMessage());
    }

    // ---- OpenMP teams: fork 10, +5 per thread, join 7, barrier 3 (ticks)

    static final ThreadModel TEAM = new ThreadModel(10, 5, 7, 3);

    /** k: a team of 3 threads works 100 + 50·t, meets at a barrier, takes a critical section of 20 each in turn. */
    static Program hybrid() {
        ProgramBuilder b = new ProgramBuilder("t.c").threads(3);
        return b.program("main", 1, b.call("k", 20, b.parallel(22, 30,
                b.call("w", 40, b.compute(c -> 100 + 50L * c.thread())),
                b.ompBarrier(25),
                b.critical(26, 28, b.compute(20)))));
    }

    static MemoryTrace runHybrid(Program p, int ranks) throws Exception {
        MemoryTrace t = new MemoryTrace("test");
        new Simulator(p, ranks, SimOptions.of(NET, 1, Experiment.of("test", ranks)).withThreads(TEAM)).run(t);
        return t;
    }

    private static Ev enter(MemoryTrace t, long time, String region) {
        return new Ev(time, EventKind.ENTER_CODE, t.definitions().regionId(region), 0, 0, 0, 0);
    }

    private static Ev leave(MemoryTrace t, long time, String region) {
        return new Ev(time, EventKind.LEAVE_CODE, t.definitions().regionId(region), 0, 0, 0, 0);
    }

    private static Ev lock(long time, byte kind, long order) {
        return new Ev(time, kind, 0, dev.straggler.trace.Paradigm.OPENMP.code(), 0, 0, order);
    }

    @Test
    void teamTimelineFollowsTheThreadModel() throws Exception {
        MemoryTrace t = runHybrid(hybrid(), 2);
        // Init ends at 1000; thread t enters at 1010 + 5t, reaches the barrier at 1110, 1165, 1220, all leave at
        // 1223; the critical section is granted in thread order: 1223, 1243, 1263; the implicit barrier is entered
        // at each release and left at 1283 + 3 = 1286; the master joins at 1293
        String par = "!$omp parallel @t.c:22";
        String bar = "!$omp barrier @t.c:25";
        String crit = "!$omp critical @t.c:26";
        String sblock = "!$omp critical sblock @t.c:26";
        String ibar = "!$omp implicit barrier @t.c:30";
        List<Ev> k = call(t, 0, "k", 0);
        int omp = dev.straggler.trace.Paradigm.OPENMP.code();
        assertEquals(List.of(enter(t, 1000, "k"), new Ev(1000, EventKind.THREAD_FORK_CODE, 3, omp, 0, 0, 0),
                enter(t, 1010, par), enter(t, 1010, "w"), leave(t, 1110, "w"), enter(t, 1110, bar),
                leave(t, 1223, bar), enter(t, 1223, crit), lock(1223, EventKind.THREAD_ACQUIRE_LOCK_CODE, 1),
                enter(t, 1223, sblock), leave(t, 1243, sblock), lock(1243, EventKind.THREAD_RELEASE_LOCK_CODE, 1),
                leave(t, 1243, crit), enter(t, 1243, ibar), leave(t, 1286, ibar), leave(t, 1286, par),
                new Ev(1293, EventKind.THREAD_JOIN_CODE, 0, omp, 0, 0, 0), leave(t, 1293, "k")), k);
        // thread 2 of rank 1: location 2 × 2 + 1, its stream starts with the region's ENTER
        assertEquals(List.of(enter(t, 1020, par), enter(t, 1020, "w"), leave(t, 1220, "w"), enter(t, 1220, bar),
                leave(t, 1223, bar), enter(t, 1223, crit), lock(1263, EventKind.THREAD_ACQUIRE_LOCK_CODE, 3),
                enter(t, 1263, sblock), leave(t, 1283, sblock), lock(1283, EventKind.THREAD_RELEASE_LOCK_CODE, 3),
                leave(t, 1283, crit), enter(t, 1283, ibar), leave(t, 1286, ibar), leave(t, 1286, par)), events(t, 5));
        assertEquals(enter(t, 0, "MPI_Init_thread"), events(t, 0).get(2));
    }

    @Test
    void workerThreadsAreScorePLocationsOfTheirRank() throws Exception {
        TraceDefinitions d = runHybrid(hybrid(), 2).definitions();
        assertEquals(6, d.locations().size());
        var w = d.location(5);
        assertEquals(List.of((2L << 32) | 1, 1L, 2L, dev.straggler.trace.LocationType.CPU_THREAD),
                List.of(w.id(), (long) w.rank(), (long) w.thread(), w.type()));
        assertEquals("OMP thread 2", w.name());
        assertEquals("Master thread", d.location(1).name());
        assertArrayEquals(new int[] {0, 1}, d.masterLocationByRank());
        var par = d.region(d.regionId("!$omp parallel @t.c:22"));
        assertEquals(List.of(dev.straggler.trace.Paradigm.OPENMP, dev.straggler.trace.RegionRole.PARALLEL, "t.c", 22, 30),
                List.of(par.paradigm(), par.role(), par.sourceFile(), par.beginLine(), par.endLine()));
        assertEquals(dev.straggler.trace.RegionRole.CRITICAL_SBLOCK,
                d.region(d.regionId("!$omp critical sblock @t.c:26")).role());
        assertEquals(dev.straggler.trace.RegionRole.IMPLICIT_BARRIER,
                d.region(d.regionId("!$omp implicit barrier @t.c:30")).role());
    }

    @Test
    void lockOrdersCountAcrossTheRegionsOfARankAndNamesHaveTheirOwnLocks() throws Exception {
        ProgramBuilder b = new ProgramBuilder("t.c").threads(2);
        Program p = b.program("main", 1, b.loop(2, b.call("k", 20, b.parallel(22, 30,
                b.critical("a", 24, 25, b.compute(5)), b.critical("b", 26, 27, b.compute(5))))));
        MemoryTrace t = runHybrid(p, 1);
        List<String> seen = new ArrayList<>();
        for (int loc = 0; loc < 2; loc++) {
            for (Ev e : events(t, loc)) {
                if (e.kind() == EventKind.THREAD_ACQUIRE_LOCK_CODE) {
                    seen.add("t" + loc + " lock " + e.ref() + " order " + e.aux());
                }
            }
        }
        // thread 0 enters first (it is not staggered) and is served first at each lock
        assertEquals(List.of("t0 lock 0 order 1", "t0 lock 1 order 1", "t0 lock 0 order 3", "t0 lock 1 order 3",
                "t1 lock 0 order 2", "t1 lock 1 order 2", "t1 lock 0 order 4", "t1 lock 1 order 4"), seen);
    }

    @Test
    void mpiInsideAParallelRegionIsRejected() {
        ProgramBuilder b = new ProgramBuilder("t.c").threads(2);
        Program p = b.program("main", 1, b.parallel(2, 3, b.barrier(Program.WORLD)));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> runHybrid(p, 1));
        assertTrue(e.getMessage().contains("MPI_Barrier") && e.getMessage().contains("MPI_THREAD_FUNNELED"),
                e.getMessage());
    }

    @Test
    void threadsAtDifferentBarriersAreRejected() {
        ProgramBuilder b = new ProgramBuilder("t.c").threads(2);
        Program p = b.program("main", 1, b.parallel(2, 9, b.when(c -> c.thread() == 0, b.ompBarrier(4))));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> runHybrid(p, 1));
        assertTrue(e.getMessage().contains("same barriers"), e.getMessage());
    }

    @Test
    void openMpConstructsOutsideAParallelRegionAreRejected() {
        ProgramBuilder b = new ProgramBuilder("t.c").threads(2);
        Program p = b.program("main", 1, b.critical(3, 4, b.compute(1)));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> runHybrid(p, 1));
        assertTrue(e.getMessage().contains("outside a parallel region"), e.getMessage());
    }
}
