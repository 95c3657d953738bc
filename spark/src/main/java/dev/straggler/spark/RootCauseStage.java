package dev.straggler.spark;

import dev.straggler.patterns.DelayCause;
import dev.straggler.patterns.Instance;
import dev.straggler.patterns.rootcause.CollectiveRoles;
import dev.straggler.patterns.rootcause.PartnerFacts;
import dev.straggler.patterns.rootcause.RootCauses;
import dev.straggler.patterns.waitstate.InitFinalize;
import dev.straggler.replay.LocationData;
import dev.straggler.replay.RegionTable;
import dev.straggler.replay.Replay;
import dev.straggler.replay.SpillFile;
import dev.straggler.replay.ThreadRecords;
import dev.straggler.trace.TraceDefinitions;
import dev.straggler.trace.TraceSource;
import dev.straggler.trace.Traces;
import it.unimi.dsi.fastutil.booleans.BooleanArrayList;
import it.unimi.dsi.fastutil.doubles.DoubleArrayList;
import it.unimi.dsi.fastutil.ints.Int2DoubleOpenHashMap;
import it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import org.apache.spark.BarrierTaskContext;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.storage.StorageLevel;
import org.apache.spark.util.LongAccumulator;
import scala.Tuple2;
import scala.Tuple4;

import java.io.Serializable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The root-cause stage (reference §1.6) as Spark jobs; the result equals the single-machine engine's value for value.
 *
 * <ol>
 *   <li><b>Facts</b>: each location tells the partners of its point-to-point records whether they waited and when
 *   their calls ended ({@link PartnerFacts}); column blocks keyed by the partner's location, sent while the wait
 *   states are found. The collective stage already gave each member its roles ({@link CollectiveRoles}).</li>
 *   <li><b>Flags</b>, the first part of the barrier stage below: each location finds its synchronisation points and
 *   tells its partners which records ship or take delay costs; the tasks hand each other these flags in one
 *   all-to-all exchange over their direct connections ({@link Mesh#exchange}) instead of a Spark stage, which would
 *   read every location's records once more and keep a second copy of what the replay needs.</li>
 *   <li><b>Backward replay</b> in a barrier stage: all tasks run at once, each replays its locations backwards
 *   as far as it can, then the tasks hand each other what crosses between them (Late Sender and Late Receiver costs,
 *   members' arrivals at collectives that span tasks) over direct connections ({@link Mesh}), until nothing
 *   is left to hand over. Only wait states that cross tasks travel; within a task locations hand data over directly.
 *   Scalasca's replay is a message-passing program with a step per synchronisation, which is what a gang-scheduled
 *   stage runs; a job per step would cost a job launch per synchronisation point.</li>
 *   <li><b>Indirect waiting</b> goes to the partner records keyed by location and is booked there in the
 *   single-machine order; the <b>critical-path impact</b>, which sums every location's critical path, runs on the
 *   driver from each location's severities and call-path times (one dense row per location, like the cube).</li>
 * </ol>
 *
 * <p>The delay behind each of the most severe wait-state instances ({@link RootCauses.Result#causes}) is recorded
 * where the backward replay books it, at the delaying location; that side finds an instance by its partner's record
 * that waited, whose table is on the waiting location's executor. So a small job first finds those records where
 * the waiting locations are ({@link #explain}), every task of the barrier stage gets all of them (a broadcast), and
 * each returns the causes it recorded (at most a few per metric).
 */
final class RootCauseStage {
    private RootCauseStage() {
    }

    /** What the wait-state stage keeps of a location for this stage: its waits and where its partners are. */
    record Input(long[] lateSenderWaits, long[] lateReceiverWaits, ArrayPartners.Rows matching) implements Serializable {
    }

    /** Facts from one location for some records of another: to its sends ({@code toSends}) or its receives. */
    record FactBlock(boolean toSends, int from, int fromRank, int[] row, int[] fromRow, boolean[] late, long[] leave,
                     long[] leave2) implements Serializable {
        void into(PartnerFacts f) {
            for (int i = 0; i < row.length; i++) {
                if (toSends) {
                    f.setReceive(row[i], from, fromRow[i], fromRank, late[i], leave[i], leave2[i]);
                } else {
                    f.setSend(row[i], from, fromRow[i], fromRank, late[i], leave[i], leave2[i]);
                }
            }
        }
    }

    /** Flags for some records of a location, from their partners. */
    record FlagBlock(boolean toSends, int[] row, boolean[] first, boolean[] second) implements Serializable {
        void into(PartnerFacts f) {
            for (int i = 0; i < row.length; i++) {
                if (toSends) {
                    f.setReceiveFlags(row[i], first[i], second[i]);
                } else {
                    f.setSendFlags(row[i], first[i]);
                }
            }
        }
    }

    /** What the barrier stage gives. */
    interface Out extends Serializable {
    }

    /** One location's severities and call-path times after the replay, and the call paths indirect waiting uses. */
    record Slice(int location, Int2DoubleOpenHashMap[] severities, double[] localTimes, int[] receivePaths,
                 int[] completionPaths) implements Out {
    }

    /** Indirect waiting for records of one location, with where it was found (source location and point). */
    record IndirectBlock(int target, int[] row, boolean[] lateSender, int[] source, int[] sp, double[] seconds)
            implements Out {
    }

    /** The causes of the instances explained that this task's locations delayed (by instance, null elsewhere). */
    record Causes(DelayCause[] found) implements Out {
    }

    /** The replay could not finish: the trace's communication order is impossible. */
    record Failure(String message) implements Out {
    }

    /** Why the threads of a process were not replayed together ({@link RootCauses#replayable}). */
    record TeamProblem(int rank, String message) implements Out {
    }

    /**
     * The stage's result: severities per location (null where none) with the processes whose threads it could not
     * replay together and the causes of the instances explained, or why there are none.
     */
    record Result(RootCauses.Result result, String problem) {
    }

    /** The instances to explain and the records at which they waited, for every task of the barrier stage. */
    record Explain(List<Instance> instances, List<RootCauses.InstanceKey> keys) implements Serializable {
    }

    /**
     * Finds the records at which the given instances waited ({@link RootCauses#instanceKeys}), on the executors
     * that hold the waiting locations; the other locations are not read.
     *
     * @param defs the trace's definitions on the driver, which name each instance's location
     */
    static Explain explain(JavaPairRDD<Integer, LocationData> locations, JavaPairRDD<Integer, Input> inputs,
                           Broadcast<Plan> shared, TraceDefinitions defs, List<Instance> instances) {
        List<Instance> list = List.copyOf(instances);
        java.util.HashSet<Integer> waiting = new java.util.HashSet<>();
        for (Instance in : list) {
            int l = RootCauses.locationOf(defs, in);
            if (l >= 0) {
                waiting.add(l);
            }
        }
        if (waiting.isEmpty()) {
            return new Explain(list, List.of());
        }
        // both sides keep their partitioning by location: the join reads the held partitions where they are
        List<RootCauses.InstanceKey> keys = locations.filter(t -> waiting.contains(t._1()))
                .join(inputs.filter(t -> waiting.contains(t._1())))
                .flatMap(t -> {
                    Plan plan = shared.value();
                    LocationData d = t._2()._1();
                    d.setLocalToGlobal(plan.localToGlobal.get(d.location()));
                    Input in = t._2()._2();
                    return RootCauses.instanceKeys(d, TaskDefinitions.of(plan.trace, plan.lenient).clock(), list,
                            in.lateSenderWaits(), in.lateReceiverWaits()).iterator();
                })
                .collect();
        return new Explain(list, keys);
    }

    /** The causes the tasks recorded, in the order of the instances (those without one left out, as on one machine). */
    private static List<DelayCause> causes(List<Causes> recorded, int instances) {
        DelayCause[] all = new DelayCause[instances];
        for (Causes c : recorded) {
            for (int i = 0; i < instances; i++) {
                if (all[i] == null) {
                    all[i] = c.found()[i];
                }
            }
        }
        List<DelayCause> out = new ArrayList<>();
        for (DelayCause c : all) {
            if (c != null) {
                out.add(c);
            }
        }
        return out;
    }

    // --- facts, sent while the wait states are found -----------------------------------------------------------

    /** A location's facts for its partners, as column blocks keyed by the partner's location. */
    static List<Tuple2<Integer, FactBlock>> facts(LocationData d, Input in) {
        Int2ObjectOpenHashMap<FactBuilder> toSends = new Int2ObjectOpenHashMap<>();
        Int2ObjectOpenHashMap<FactBuilder> toReceives = new Int2ObjectOpenHashMap<>();
        RootCauses.emitFacts(d, in.lateSenderWaits(), in.lateReceiverWaits(), in.matching(), new PartnerFacts.Sink() {
            @Override
            public void toSend(int sendLocation, int sendRow, int recvLocation, int recvRow, int rank,
                               boolean lateSender, long recvLeave, long requestLeave) {
                toSends.computeIfAbsent(sendLocation, k -> new FactBuilder()).add(sendRow, recvRow, lateSender,
                        recvLeave, requestLeave);
            }

            @Override
            public void toReceive(int recvLocation, int recvRow, int sendLocation, int sendRow, int rank,
                                  boolean lateReceiver, long sendLeave, long completeLeave) {
                toReceives.computeIfAbsent(recvLocation, k -> new FactBuilder()).add(recvRow, sendRow, lateReceiver,
                        sendLeave, completeLeave);
            }
        });
        List<Tuple2<Integer, FactBlock>> out = new ArrayList<>(toSends.size() + toReceives.size());
        toSends.int2ObjectEntrySet().forEach(e -> out.add(new Tuple2<>(e.getIntKey(),
                e.getValue().build(true, d.location(), d.rank()))));
        toReceives.int2ObjectEntrySet().forEach(e -> out.add(new Tuple2<>(e.getIntKey(),
                e.getValue().build(false, d.location(), d.rank()))));
        return out;
    }

    private static final class FactBuilder {
        final IntArrayList row = new IntArrayList();
        final IntArrayList fromRow = new IntArrayList();
        final BooleanArrayList late = new BooleanArrayList();
        final LongArrayList leave = new LongArrayList();
        final LongArrayList leave2 = new LongArrayList();

        void add(int r, int fr, boolean l, long a, long b) {
            row.add(r);
            fromRow.add(fr);
            late.add(l);
            leave.add(a);
            leave2.add(b);
        }

        FactBlock build(boolean toSends, int from, int rank) {
            return new FactBlock(toSends, from, rank, row.toIntArray(), fromRow.toIntArray(), late.toBooleanArray(),
                    leave.toLongArray(), leave2.toLongArray());
        }
    }

    // --- the stage -------------------------------------------------------------------------------------------

    /**
     * Runs the stage on the locations the wait-state stage analysed.
     *
     * @param locations the location records (partitioned by {@code byLocation})
     * @param inputs    per location, what the wait-state stage kept for this stage (same partitioning)
     * @param facts     the facts each location sent its partners, keyed by the partner's location
     * @param roles     each member's collective roles, keyed by its location
     * @param slots     tasks the cluster can run at once (the barrier stage needs all of its tasks running)
     */
    static Result run(JavaPairRDD<Integer, LocationData> locations, JavaPairRDD<Integer, Input> inputs,
                      JavaPairRDD<Integer, FactBlock> facts, JavaPairRDD<Integer, ChunkResult.RoleBlock> roles,
                      Broadcast<Plan> shared, LocationPartitioner byLocation, int slots, InitFinalize.Reference init,
                      InitFinalize.Reference fin, int[] cnodeIds, String[] regionOfPath,
                      LongAccumulator replayed, TraceDefinitions defs, List<Instance> explain) {
        Slices s = slices(locations, inputs, facts, roles, shared, byLocation, slots, init, fin, cnodeIds,
                regionOfPath, replayed, defs, explain);
        try {
            if (s.problem() != null) {
                return new Result(null, s.problem());
            }
            // to the driver in location order, where the critical-path impact needs all locations
            int n = shared.value().locations;
            Int2DoubleOpenHashMap[][] severities = new Int2DoubleOpenHashMap[n][];
            double[][] localTimes = new double[n][];
            for (Iterator<Slice> it = s.booked().toLocalIterator(); it.hasNext(); ) {
                Slice sl = it.next();
                severities[sl.location()] = sl.severities();
                localTimes[sl.location()] = sl.localTimes();
            }
            RootCauses.impact(severities, localTimes, cnodeIds.length);
            return new Result(new RootCauses.Result(severities, s.teamProblems(), s.causes()), null);
        } finally {
            s.release();
        }
    }

    /**
     * The stage up to each location's slice, left on the executors (partitioned by {@code byLocation}, in location
     * order): its severities before the critical-path impact and its call-path times, with the causes of the
     * instances explained; or why there are none. {@link Slices#release} frees what the stage keeps.
     */
    record Slices(JavaRDD<Slice> booked, String problem, List<String> teamProblems, List<DelayCause> causes,
                  JavaRDD<Out> kept, Broadcast<Explain> explained) {
        void release() {
            kept.unpersist(false);
            explained.destroy();
        }
    }

    /** True when both partitioners put every one of the {@code n} locations into the partition of the same index. */
    static boolean samePlacement(org.apache.spark.Partitioner a, org.apache.spark.Partitioner b, int n) {
        if (a.numPartitions() != b.numPartitions()) {
            return false;
        }
        for (int l = 0; l < n; l++) {
            if (a.getPartition(l) != b.getPartition(l)) {
                return false;
            }
        }
        return true;
    }

    /** As {@link #run}, the locations' slices left where they are. */
    static Slices slices(JavaPairRDD<Integer, LocationData> locations, JavaPairRDD<Integer, Input> inputs,
                         JavaPairRDD<Integer, FactBlock> facts, JavaPairRDD<Integer, ChunkResult.RoleBlock> roles,
                         Broadcast<Plan> shared, LocationPartitioner byLocation, int slots,
                         InitFinalize.Reference init, InitFinalize.Reference fin, int[] cnodeIds,
                         String[] regionOfPath, LongAccumulator replayed, TraceDefinitions defs,
                         List<Instance> explain) {
        Plan plan = shared.value();
        int n = plan.locations;
        // 1b. the records at which the instances to explain waited, for every task
        Broadcast<Explain> explained = org.apache.spark.api.java.JavaSparkContext.fromSparkContext(
                locations.context()).broadcast(explain(locations, inputs, shared, defs, explain));
        // 2. and 3.: the barrier stage takes each location with what it needs to find its synchronisation points; the
        // flags for the partners then go between its tasks directly, before the backward replay (a Spark stage of
        // their own would read every location's records once more and keep them a second time); an OpenMP team's
        // threads are held by one task, as they meet at every fork and barrier
        int tasks = Math.min(byLocation.numPartitions(), Math.max(1, slots));
        org.apache.spark.Partitioner gang = plan.teams
                ? ProcessPartitioner.of(TaskDefinitions.of(plan.trace, plan.lenient), tasks)
                : new LocationPartitioner(n, tasks);
        if (samePlacement(gang, byLocation, n)) {
            // a trace that defines OpenMP regions but runs one thread per process, locations in rank order: every
            // location is already in the partition its team needs, and regrouping would only shuffle and deserialize
            // all of them (at 10^8 events 0.6 GB and a quarter of the stage's time) to land each where it was
            gang = byLocation;
        }
        // past the facts and the instances' records nothing reads a send or receive row: the barrier stage gets each
        // location without them, 61 and 53 bytes a row less to shuffle and to hold (the cached locations keep theirs)
        JavaPairRDD<Integer, Tuple4<Iterable<LocationData>, Iterable<Input>, Iterable<FactBlock>,
                Iterable<ChunkResult.RoleBlock>>> ready = locations.mapValues(LocationData::withoutMessageRecords)
                .cogroup(inputs, facts, roles, byLocation);
        if (!gang.equals(byLocation)) {
            ready = ready.partitionBy(gang);
        }
        int finalizeLatest = fin.complete() ? fin.lastRank() : -1;
        // what the replay's tasks handed each other, for benchmarks (shown with the stage's metrics)
        LongAccumulator messages = locations.context().longAccumulator("root-cause messages between tasks");
        LongAccumulator handed = locations.context().longAccumulator("root-cause bytes handed between tasks");
        Timings timings = new Timings(locations.context());
        scala.reflect.ClassTag<Out> tag = scala.reflect.ClassTag$.MODULE$.apply(Out.class);
        JavaRDD<Out> out = new JavaRDD<>(ready.rdd().barrier().mapPartitions(
                new ReplayTask(shared, explained, gang, init, fin, cnodeIds, regionOfPath, finalizeLatest, replayed,
                        messages, handed, timings), false,
                tag), tag).persist(StorageLevel.MEMORY_AND_DISK());
        boolean handedOver = false;
        try {
            List<Out> notes = out.filter(o -> o instanceof Failure || o instanceof TeamProblem || o instanceof Causes)
                    .collect();
            for (Out o : notes) {
                if (o instanceof Failure f) {
                    handedOver = true;
                    return new Slices(null, f.message(), List.of(), List.of(), out, explained);
                }
            }
            List<DelayCause> causes = causes(notes.stream().filter(o -> o instanceof Causes).map(o -> (Causes) o)
                    .toList(), explain.size());
            // in rank order, as on one machine
            List<String> teamProblems = notes.stream().filter(o -> o instanceof TeamProblem).map(o -> (TeamProblem) o)
                    .sorted(java.util.Comparator.comparingInt(TeamProblem::rank)).map(TeamProblem::message).toList();
            // 4. indirect waiting booked at its records, in the single-machine order
            JavaPairRDD<Integer, Slice> slices = out.mapPartitionsToPair(it -> {
                List<Tuple2<Integer, Slice>> s = new ArrayList<>();
                it.forEachRemaining(o -> {
                    if (o instanceof Slice sl) {
                        s.add(new Tuple2<>(sl.location(), sl));
                    }
                });
                return s.iterator();
            });
            JavaPairRDD<Integer, IndirectBlock> indirect = out.flatMapToPair(o -> {
                List<Tuple2<Integer, IndirectBlock>> s = new ArrayList<>(1);
                if (o instanceof IndirectBlock b) {
                    s.add(new Tuple2<>(b.target(), b));
                }
                return s.iterator();
            });
            JavaRDD<Slice> booked = slices.cogroup(indirect, byLocation).mapPartitions(it -> {
                List<Slice> s = new ArrayList<>();
                while (it.hasNext()) {
                    var t = it.next();
                    for (Slice sl : t._2()._1()) {
                        s.add(withIndirect(sl, t._2()._2()));
                    }
                }
                s.sort(java.util.Comparator.comparingInt(Slice::location));
                return s.iterator();
            }, true);
            handedOver = true;
            return new Slices(booked, null, teamProblems, causes, out, explained);
        } finally {
            if (!handedOver) {
                out.unpersist(false);
                explained.destroy();
            }
        }
    }

    /** A location of a barrier task, ready for its flags and then the backward replay. */
    private record Held(LocationData data, Input input, PartnerFacts facts, CollectiveRoles roles,
                        RootCauses.Registration registration) {
    }

    /**
     * Takes a location with the facts and roles its partners sent it, finds its synchronisation points and adds the
     * flags for its partners to {@code toSends}/{@code toReceives} (keyed by the partner's location); null for a
     * location without the stage.
     */
    private static Held flag(Tuple4<Iterable<LocationData>, Iterable<Input>, Iterable<FactBlock>,
            Iterable<ChunkResult.RoleBlock>> g, Plan plan, InitFinalize.Reference init, InitFinalize.Reference fin,
                             Int2ObjectOpenHashMap<FlagBuilder> toSends,
                             Int2ObjectOpenHashMap<FlagBuilder> toReceives) {
        Iterator<Input> inputs = g._2().iterator();
        if (!inputs.hasNext()) {
            return null;
        }
        Input in = inputs.next();
        LocationData d = g._1().iterator().next();
        PartnerFacts facts = new PartnerFacts(d.receives().size(), d.sends().size());
        g._3().forEach(b -> b.into(facts));
        CollectiveRoles roles = new CollectiveRoles(d.collectives().size());
        g._4().forEach(b -> b.into(roles));
        TraceDefinitions defs = TaskDefinitions.of(plan.trace, plan.lenient);
        RootCauses.Registration registration = RootCauses.emitFlags(d, defs.clock(), in.lateSenderWaits(),
                in.lateReceiverWaits(), facts, roles, init, fin,
                new PartnerFacts.FlagSink() {
                    @Override
                    public void toSend(int sendLocation, int sendRow, boolean recvIsWait, boolean requestTakes) {
                        toSends.computeIfAbsent(sendLocation, k -> new FlagBuilder()).add(sendRow, recvIsWait,
                                requestTakes);
                    }

                    @Override
                    public void toReceive(int recvLocation, int recvRow, boolean completeIsWait) {
                        toReceives.computeIfAbsent(recvLocation, k -> new FlagBuilder()).add(recvRow,
                                completeIsWait, false);
                    }
                });
        return new Held(d, in, facts, roles, registration);
    }

    /**
     * The flags for the locations one task holds, as one message: per location and side, its rows with their two
     * flags ({@link FlagBlock}).
     */
    static byte[] encodeFlags(List<Tuple2<Integer, FlagBlock>> blocks) {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try (java.io.DataOutputStream o = new java.io.DataOutputStream(bytes)) {
            o.writeInt(blocks.size());
            for (Tuple2<Integer, FlagBlock> t : blocks) {
                FlagBlock b = t._2();
                o.writeInt(t._1());
                o.writeBoolean(b.toSends());
                o.writeInt(b.row().length);
                for (int i = 0; i < b.row().length; i++) {
                    o.writeInt(b.row()[i]);
                    o.writeByte((b.first()[i] ? 1 : 0) | (b.second()[i] ? 2 : 0));
                }
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** The blocks {@link #encodeFlags} wrote, keyed by their location. */
    static List<Tuple2<Integer, FlagBlock>> decodeFlags(byte[] message) {
        List<Tuple2<Integer, FlagBlock>> out = new ArrayList<>();
        if (message == null || message.length == 0) {
            return out;
        }
        try (java.io.DataInputStream in = new java.io.DataInputStream(new java.io.ByteArrayInputStream(message))) {
            for (int k = in.readInt(); k > 0; k--) {
                int location = in.readInt();
                boolean toSends = in.readBoolean();
                int n = in.readInt();
                int[] row = new int[n];
                boolean[] first = new boolean[n];
                boolean[] second = new boolean[n];
                for (int i = 0; i < n; i++) {
                    row[i] = in.readInt();
                    byte f = in.readByte();
                    first[i] = (f & 1) != 0;
                    second[i] = (f & 2) != 0;
                }
                out.add(new Tuple2<>(location, new FlagBlock(toSends, row, first, second)));
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return out;
    }

    private static final class FlagBuilder {
        final IntArrayList row = new IntArrayList();
        final BooleanArrayList first = new BooleanArrayList();
        final BooleanArrayList second = new BooleanArrayList();

        void add(int r, boolean a, boolean b) {
            row.add(r);
            first.add(a);
            second.add(b);
        }

        FlagBlock build(boolean toSends) {
            return new FlagBlock(toSends, row.toIntArray(), first.toBooleanArray(), second.toBooleanArray());
        }
    }

    /** The barrier stage's function (Spark's barrier API takes a Scala function of Scala iterators). */
    private static final class ReplayTask extends scala.runtime.AbstractFunction1<
            scala.collection.Iterator<Tuple2<Integer, Tuple4<Iterable<LocationData>, Iterable<Input>,
                    Iterable<FactBlock>, Iterable<ChunkResult.RoleBlock>>>>, scala.collection.Iterator<Out>>
            implements Serializable {
        private final Broadcast<Plan> shared;
        private final Broadcast<Explain> explained;
        private final org.apache.spark.Partitioner gang;
        private final InitFinalize.Reference init;
        private final InitFinalize.Reference fin;
        private final int[] cnodeIds;
        private final String[] regionOfPath;
        private final int finalizeLatest;
        private final LongAccumulator replayed;
        private final LongAccumulator messages;
        private final LongAccumulator handed;
        private final Timings timings;

        ReplayTask(Broadcast<Plan> shared, Broadcast<Explain> explained, org.apache.spark.Partitioner gang,
                   InitFinalize.Reference init, InitFinalize.Reference fin, int[] cnodeIds, String[] regionOfPath, int finalizeLatest,
                   LongAccumulator replayed, LongAccumulator messages, LongAccumulator handed, Timings timings) {
            this.timings = timings;
            this.shared = shared;
            this.explained = explained;
            this.gang = gang;
            this.init = init;
            this.fin = fin;
            this.cnodeIds = cnodeIds;
            this.regionOfPath = regionOfPath;
            this.finalizeLatest = finalizeLatest;
            this.replayed = replayed;
            this.messages = messages;
            this.handed = handed;
        }

        @Override
        public scala.collection.Iterator<Out> apply(scala.collection.Iterator<Tuple2<Integer, Tuple4<
                Iterable<LocationData>, Iterable<Input>, Iterable<FactBlock>, Iterable<ChunkResult.RoleBlock>>>> it) {
            try {
                return scala.jdk.javaapi.CollectionConverters.asScala(replay(
                        scala.jdk.javaapi.CollectionConverters.asJava(it), shared.value(), explained.value(), gang, init,
                        fin, cnodeIds, regionOfPath, finalizeLatest, replayed, messages, handed, timings));
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }

    /**
     * One task of the barrier stage: finds its locations' synchronisation points, exchanges the flags for their
     * partners with the other tasks, prepares its locations (reading their interval times again from the trace), then
     * alternates replaying with handing over until no task has anything left to hand over.
     */
    private static Iterator<Out> replay(
            Iterator<Tuple2<Integer, Tuple4<Iterable<LocationData>, Iterable<Input>, Iterable<FactBlock>,
                    Iterable<ChunkResult.RoleBlock>>>> it,
            Plan plan, Explain explain, org.apache.spark.Partitioner gang, InitFinalize.Reference init,
            InitFinalize.Reference fin, int[] cnodeIds, String[] regionOfPath, int finalizeLatest, LongAccumulator replayed,
            LongAccumulator messages, LongAccumulator handed, Timings timings) throws java.io.IOException {
        // a large location's interval entries wait for the backward replay in a scratch file of the executor's
        // local directory, not on its heap
        try (SpillFile spill = new SpillFile(localDirectory())) {
            return replay(it, plan, explain, gang, init, fin, cnodeIds, regionOfPath, finalizeLatest, replayed,
                    messages, handed, timings, spill);
        }
    }

    /**
     * The executor's first local directory, where Spark keeps its shuffle files ({@code SPARK_LOCAL_DIRS}, else
     * {@code spark.local.dir}), else the JVM's temporary directory.
     */
    private static Path localDirectory() {
        String dirs = System.getenv("SPARK_LOCAL_DIRS");
        if (dirs == null || dirs.isBlank()) {
            org.apache.spark.SparkEnv env = org.apache.spark.SparkEnv.get();
            dirs = env == null ? null : env.conf().get("spark.local.dir", null);
        }
        if (dirs == null || dirs.isBlank()) {
            dirs = System.getProperty("java.io.tmpdir");
        }
        return Path.of(dirs.split(",")[0].trim());
    }

    private static Iterator<Out> replay(
            Iterator<Tuple2<Integer, Tuple4<Iterable<LocationData>, Iterable<Input>, Iterable<FactBlock>,
                    Iterable<ChunkResult.RoleBlock>>>> it,
            Plan plan, Explain explain, org.apache.spark.Partitioner gang, InitFinalize.Reference init,
            InitFinalize.Reference fin, int[] cnodeIds, String[] regionOfPath, int finalizeLatest, LongAccumulator replayed,
            LongAccumulator messages, LongAccumulator handed, Timings timings, SpillFile spill)
            throws java.io.IOException {
        long t0 = System.nanoTime();
        BarrierTaskContext ctx = BarrierTaskContext.get();
        int part = ctx.partitionId();
        int[][] memberLocations = new int[plan.members.length][];
        for (int c = 0; c < memberLocations.length; c++) {
            if (plan.instances[c] > 0) {
                int[] m = plan.members[c];
                memberLocations[c] = new int[m.length];
                for (int j = 0; j < m.length; j++) {
                    memberLocations[c][j] = plan.locationOfRank[m[j]];
                }
            }
        }
        int tasks = ctx.getTaskInfos().length;
        RootCauses.Partition partition = new RootCauses.Partition(plan.locations, memberLocations, plan.members,
                cnodeIds, p -> regionOfPath[p], gang::getPartition, part, tasks, finalizeLatest);
        partition.explain(explain.instances(), TaskDefinitions.of(plan.trace, plan.lenient).clock(), explain.keys());
        IntArrayList heldLocations = new IntArrayList();
        int blocked = 0;
        List<String> first = new ArrayList<>();
        // synchronisation points and the flags for the partners: all of this task's locations first, then the flags
        // are handed out, then taken (a location's flags are found from facts that the flags do not change)
        List<Held> held = new ArrayList<>();
        Int2ObjectOpenHashMap<FlagBuilder> toSends = new Int2ObjectOpenHashMap<>();
        Int2ObjectOpenHashMap<FlagBuilder> toReceives = new Int2ObjectOpenHashMap<>();
        while (it.hasNext()) {
            Held h = flag(it.next()._2(), plan, init, fin, toSends, toReceives);
            if (h != null) {
                held.add(h);
            }
        }
        held.sort(java.util.Comparator.comparingInt(h -> h.data().location()));
        List<Out> out = new ArrayList<>();
        Int2ObjectOpenHashMap<RootCauses.Team> teamOf = teams(held, plan, out);
        Int2ObjectOpenHashMap<PartnerFacts> factsOf = new Int2ObjectOpenHashMap<>();
        for (Held h : held) {
            factsOf.put(h.data().location(), h.facts());
        }
        List<List<Tuple2<Integer, FlagBlock>>> flagsFor = new ArrayList<>();
        for (int t = 0; t < tasks; t++) {
            flagsFor.add(new ArrayList<>());
        }
        toSends.int2ObjectEntrySet().forEach(e -> flagsFor.get(gang.getPartition(e.getIntKey()))
                .add(new Tuple2<>(e.getIntKey(), e.getValue().build(true))));
        toReceives.int2ObjectEntrySet().forEach(e -> flagsFor.get(gang.getPartition(e.getIntKey()))
                .add(new Tuple2<>(e.getIntKey(), e.getValue().build(false))));
        toSends.clear();
        toReceives.clear();
        Mesh mesh = tasks == 1 ? null : Mesh.of(ctx);
        long t1 = System.nanoTime();
        timings.flags.add((t1 - t0) / 1_000_000);
        try {
            List<Tuple2<Integer, FlagBlock>> mine = new ArrayList<>(flagsFor.get(part));
            if (mesh != null) {
                byte[][] message = new byte[tasks][];
                for (int t = 0; t < tasks; t++) {
                    if (t != part) {
                        message[t] = encodeFlags(flagsFor.get(t));
                        flagsFor.set(t, null);
                    }
                }
                for (byte[] m : mesh.exchange(message)) {
                    mine.addAll(decodeFlags(m));
                }
            }
            for (Tuple2<Integer, FlagBlock> b : mine) {
                PartnerFacts f = factsOf.get((int) b._1());
                if (f != null) {
                    b._2().into(f);
                }
            }
            TraceDefinitions defs = TaskDefinitions.of(plan.trace, plan.lenient);
            try (TraceSource source = Traces.open(Path.of(plan.trace), plan.lenient)) {
                RegionTable regions = RegionTable.of(defs);
                for (int i = 0; i < held.size(); i++) {
                    Held h = held.get(i);
                    LocationData d = h.data();
                    d.setLocalToGlobal(plan.localToGlobal.get(d.location()));
                    RootCauses.Team team = teamOf.get(d.location());
                    // a worker's parallel regions hang under its master's forks, in this pass as in the first
                    ThreadRecords master = team != null && team.master() != d ? team.master().threads() : null;
                    partition.add(d, defs.clock(), h.input().lateSenderWaits(), h.input().lateReceiverWaits(),
                            h.facts(), h.roles(), init, fin, team, h.registration(),
                            // the first pass's marks say where each one is: only the call stack is replayed again
                            (l, marks, entryPaths) -> Replay.intervalTimes(source, defs, regions, d, marks,
                                    local -> cnodeIds[d.globalCallPath(local)], master, spill, entryPaths));
                    held.set(i, null); // the partition keeps what it needs of the location
                    heldLocations.add(d.location());
                }
                teamOf.clear();
            }
            long t2 = System.nanoTime();
            timings.prepare.add((t2 - t1) / 1_000_000);
            // replay as far as possible, hand over what others need, go on as data arrives; until nothing is left
            if (mesh == null) {
                partition.step();
                replayed.add(partition.progress());
                blocked = partition.blockedCount();
                first.addAll(partition.blocked());
            } else {
                Mesh.End end = mesh.run(new Mesh.Worker() {
                    private long done;

                    @Override
                    public byte[][] step() {
                        byte[][] message = partition.step();
                        // progress in thousandths of a location (the driver sees it with the task's heartbeats)
                        long p = partition.progress();
                        replayed.add(p - done);
                        done = p;
                        for (byte[] b : message) {
                            if (b != null) {
                                messages.add(1);
                                handed.add(b.length);
                            }
                        }
                        return message;
                    }

                    @Override
                    public void receive(byte[] data) {
                        partition.receive(data);
                    }

                    @Override
                    public int blockedCount() {
                        return partition.blockedCount();
                    }

                    @Override
                    public List<String> blocked() {
                        return partition.blocked();
                    }
                });
                blocked = end.blocked();
                first.addAll(end.first());
                timings.rounds.add(end.probes());
            }
            timings.replay.add((System.nanoTime() - t2) / 1_000_000);
        } finally {
            if (mesh != null) {
                mesh.close();
            }
        }
        if (blocked > 0) {
            // every task knows; the first reports it (tasks hold location ranges in order, so the first blocked
            // locations described come first)
            if (part == 0) {
                out.add(new Failure(RootCauses.Partition.impossible(blocked, first).getMessage()));
            }
            return out.iterator();
        }
        Int2ObjectOpenHashMap<IndirectBuilder> indirect = new Int2ObjectOpenHashMap<>();
        partition.forward((target, row, lateSender, source, sp, seconds) ->
                indirect.computeIfAbsent(target, k -> new IndirectBuilder()).add(row, lateSender, source, sp, seconds));
        indirect.int2ObjectEntrySet().forEach(e -> out.add(e.getValue().build(e.getIntKey())));
        DelayCause[] found = partition.causes();
        if (found != null && java.util.Arrays.stream(found).anyMatch(java.util.Objects::nonNull)) {
            out.add(new Causes(found));
        }
        for (int l : heldLocations) {
            out.add(new Slice(l, partition.severities(l), partition.localTimes(l), partition.receivePaths(l),
                    partition.completionPaths(l)));
        }
        return out.iterator();
    }

    /**
     * The OpenMP teams among a task's held locations (the task holds whole processes, {@link ProcessPartitioner}):
     * each process's master with its workers in thread order, as {@link Replay#teams} forms them on one machine. A
     * process whose threads cannot be replayed together ({@link RootCauses#replayable}) adds its problem to
     * {@code out}, and its workers leave {@code held}: its root causes cover its master thread, as on one machine.
     * Returns each team member's team.
     */
    private static Int2ObjectOpenHashMap<RootCauses.Team> teams(List<Held> held, Plan plan, List<Out> out) {
        Int2ObjectOpenHashMap<RootCauses.Team> teamOf = new Int2ObjectOpenHashMap<>();
        if (!plan.teams) {
            return teamOf;
        }
        int[] teamMaster = Replay.teamMasters(TaskDefinitions.of(plan.trace, plan.lenient), plan.locationOfRank);
        for (LocationData[] team : RootCauses.replayable(Replay.teams(held.stream().map(Held::data).toList(),
                teamMaster, plan.locationOfRank), (problem, rank) -> out.add(new TeamProblem(rank, problem)))) {
            RootCauses.Team t = new RootCauses.Team(team[0].rank(), team);
            for (LocationData d : team) {
                teamOf.put(d.location(), t);
            }
        }
        held.removeIf(h -> teamMaster[h.data().location()] >= 0 && !teamOf.containsKey(h.data().location()));
        return teamOf;
    }

    /**
     * Where the barrier stage's time goes, in milliseconds summed over its tasks (shown with the stage's metrics by
     * the benchmark): taking the locations and exchanging flags, the second pass over the events, the replay.
     */
    private record Timings(LongAccumulator flags, LongAccumulator prepare, LongAccumulator replay,
                           LongAccumulator rounds) implements Serializable {
        Timings(org.apache.spark.SparkContext sc) {
            this(sc.longAccumulator("root-cause ms taking locations and exchanging flags (sum over tasks)"),
                    sc.longAccumulator("root-cause ms second pass over the events (sum over tasks)"),
                    sc.longAccumulator("root-cause ms backward replay and hand-overs (sum over tasks)"),
                    sc.longAccumulator("root-cause counting rounds for the end of the replay"));
        }
    }

    private static final class IndirectBuilder {
        final IntArrayList row = new IntArrayList();
        final BooleanArrayList lateSender = new BooleanArrayList();
        final IntArrayList source = new IntArrayList();
        final IntArrayList sp = new IntArrayList();
        final DoubleArrayList seconds = new DoubleArrayList();

        void add(int r, boolean ls, int src, int s, double v) {
            row.add(r);
            lateSender.add(ls);
            source.add(src);
            sp.add(s);
            seconds.add(v);
        }

        IndirectBlock build(int target) {
            return new IndirectBlock(target, row.toIntArray(), lateSender.toBooleanArray(), source.toIntArray(),
                    sp.toIntArray(), seconds.toDoubleArray());
        }
    }

    /** A slice with the indirect waiting its records got, booked in (source location, point) order. */
    private static Slice withIndirect(Slice s, Iterable<IndirectBlock> blocks) {
        List<long[]> order = new ArrayList<>(); // {source, sp, block, index}
        List<IndirectBlock> all = new ArrayList<>();
        for (IndirectBlock b : blocks) {
            int bi = all.size();
            all.add(b);
            for (int i = 0; i < b.row().length; i++) {
                order.add(new long[] {b.source()[i], b.sp()[i], bi, i});
            }
        }
        order.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        for (long[] o : order) {
            IndirectBlock b = all.get((int) o[2]);
            int i = (int) o[3];
            int row = b.row()[i];
            int path = b.lateSender()[i] ? s.receivePaths()[row] : s.completionPaths()[row];
            if (path >= 0) {
                RootCauses.Partition.addIndirect(s.severities(), path, b.lateSender()[i], b.seconds()[i]);
            }
        }
        return new Slice(s.location(), s.severities(), s.localTimes(), null, null);
    }
}
