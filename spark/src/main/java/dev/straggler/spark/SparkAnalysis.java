package dev.straggler.spark;

import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.AnalysisOptions;
import dev.straggler.patterns.AnalysisResult;
import dev.straggler.patterns.DelayCause;
import dev.straggler.patterns.Instance;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.patterns.openmp.OpenMpAnalysis;
import dev.straggler.patterns.rootcause.RootCauseMemory;
import dev.straggler.patterns.rootcause.RootCauseMetrics;
import dev.straggler.patterns.rootcause.RootCauses;
import dev.straggler.patterns.waitstate.CollectiveOutcomes;
import dev.straggler.patterns.waitstate.InitFinalize;
import dev.straggler.patterns.waitstate.LocationOutcome;
import dev.straggler.patterns.waitstate.WaitStates;
import dev.straggler.replay.Anomaly;
import dev.straggler.replay.CallTree;
import dev.straggler.replay.LocationData;
import dev.straggler.replay.RegionTable;
import dev.straggler.replay.Replay;
import dev.straggler.replay.ReplayFacts;
import dev.straggler.replay.ReplayOptions;
import dev.straggler.replay.TeamManagement;
import dev.straggler.replay.ThreadRecords;
import dev.straggler.trace.CommunicationMatrix;
import dev.straggler.trace.SkipReport;
import dev.straggler.trace.TraceDefinitions;
import dev.straggler.trace.TraceSource;
import dev.straggler.trace.Traces;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.StorageLevel;
import org.apache.spark.util.CollectionAccumulator;
import org.apache.spark.util.LongAccumulator;
import scala.Tuple2;
import scala.Tuple3;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;


/**
 * The wait-state analysis as Spark jobs (reference §1, the same rules as {@link Analysis}); the result equals the
 * single-machine engine's value for value, whatever the number of partitions.
 *
 * <ol>
 *   <li><b>Read</b>: one task per range of locations opens the trace at its shared path and replays each location
 *   ({@link Replay#readLocation}); what stays is each location's profile and communication records, kept by Spark
 *   (memory, spilled to disk when it does not fit), partitioned by location.</li>
 *   <li><b>Facts</b>: a few hundred bytes per location go to the driver: call trees (merged there, in location
 *   order, as on one machine), MPI_Init/MPI_Finalize times, collective record counts per communicator (from which the
 *   driver forms the collective instances), anomalies.</li>
 *   <li><b>Message matching</b> as a keyed join: shipped sends and receives in MPI travel as column blocks keyed
 *   by (communicator, source rank, destination rank, tag, block of ordinals), the ordinal counting the location's
 *   records of that envelope in stream order — MPI's non-overtaking rule makes the k-th send match the k-th receive
 *   ({@link Blocks}). Each side's partner fields are grouped back by location.</li>
 *   <li><b>Collective instances</b> as a keyed grouping by (communicator, chunk of consecutive instances): the
 *   members' records of the chunk's instances are evaluated together with the same patterns as on one machine; their
 *   per-member outcomes are grouped back by location, their most severe occurrences go to the driver.</li>
 *   <li><b>Patterns</b>: the location records meet their partners and collective outcomes (co-partitioned, so
 *   only those move) and each location is analysed as on one machine; only its severities (metric × call path, the
 *   cube's slice) reach the driver, where they are booked in location order.</li>
 * </ol>
 * On a trace with OpenMP regions each location is read after its process's master, whose OpenMP records it is
 * shipped, and the OpenMP level follows the patterns, each process's threads taken together ({@link OpenMpStage});
 * the root-cause stage then holds each process's threads in one task ({@link ProcessPartitioner}).
 * With root causes asked for, the delay costs, their propagation and the critical path follow as
 * {@link RootCauseStage} describes. With a cube file to write and nothing else that reads every value
 * ({@link #runWritingCube}), the severities stay on the executors, which write the cube's rows
 * ({@link StreamedCube}); the driver keeps only the sums the terminal report reads.
 */
public final class SparkAnalysis {
    private SparkAnalysis() {
    }

    /**
     * Analyses the trace at {@code trace}, a path every executor can read (a shared file system in a cluster).
     *
     * @param partitions location partitions; 0 for three per core of the cluster (one with root causes)
     * @throws IOException when the trace cannot be read; the message names the trace and the location
     */
    public static AnalysisResult run(SparkSession spark, Path trace, boolean lenient, AnalysisOptions options,
                                     int partitions) throws IOException {
        return runDetailed(spark, trace, lenient, options, partitions, Blocks.SIZE, null).result();
    }

    /**
     * An analysis and, for a lenient read, what the executors skipped: the lines the command prints after the report,
     * as it does for a trace read on one machine (parts of the archive skipped, implausible parts dropped).
     */
    public record Detailed(AnalysisResult result, List<String> skipped) {
    }

    /** As {@link #run(SparkSession, Path, boolean, AnalysisOptions, int)}, with what a lenient read skipped. */
    public static Detailed runDetailed(SparkSession spark, Path trace, boolean lenient, AnalysisOptions options,
                                       int partitions) throws IOException {
        return runDetailed(spark, trace, lenient, options, partitions, Blocks.SIZE, null);
    }

    /**
     * As {@link #runDetailed(SparkSession, Path, boolean, AnalysisOptions, int)}, writing the cube to
     * {@code cube} (CUBE4) from the executors ({@link StreamedCube}): the driver never holds the cube's rows. The
     * result's cube then answers only the sums the terminal report reads ({@link SummaryCube}); the JSON, CSV and
     * HTML reports, which read every value, need {@link #runDetailed(SparkSession, Path, boolean, AnalysisOptions,
     * int)}.
     */
    public static Detailed runWritingCube(SparkSession spark, Path trace, boolean lenient, AnalysisOptions options,
                                          int partitions, Path cube) throws IOException {
        return runDetailed(spark, trace, lenient, options, partitions, Blocks.SIZE,
                java.util.Objects.requireNonNull(cube, "cube"));
    }

    /** As {@link #runWritingCube} with message blocks of a given size. */
    static Detailed runWritingCube(SparkSession spark, Path trace, boolean lenient, AnalysisOptions options,
                                   int partitions, int blockSize, Path cube) throws IOException {
        return runDetailed(spark, trace, lenient, options, partitions, blockSize, cube);
    }

    /** True when the trace defines OpenMP regions: its threads then get the OpenMP level ({@link OpenMpStage}). */
    static boolean hasOpenMp(TraceDefinitions defs) {
        return defs.regions().stream().anyMatch(r -> r.paradigm() == dev.straggler.trace.Paradigm.OPENMP);
    }

    /** True when some process has CPU threads besides its master: its threads form a team for the root causes. */
    static boolean hasWorkerThreads(TraceDefinitions defs) {
        return java.util.Arrays.stream(Replay.teamMasters(defs, defs.masterLocationByRank())).anyMatch(m -> m >= 0);
    }

    /** True when the trace defines regions of the POSIX threads API: their lock contention is analysed. */
    static boolean hasPthreads(TraceDefinitions defs) {
        return defs.regions().stream().anyMatch(r -> r.paradigm() == dev.straggler.trace.Paradigm.PTHREAD);
    }

    /** As {@link #run(SparkSession, Path, boolean, AnalysisOptions, int)} with message blocks of a given size. */
    static AnalysisResult run(SparkSession spark, Path trace, boolean lenient, AnalysisOptions options,
                              int partitions, int blockSize) throws IOException {
        return runDetailed(spark, trace, lenient, options, partitions, blockSize, null).result();
    }

    private static Detailed runDetailed(SparkSession spark, Path trace, boolean lenient, AnalysisOptions options,
                                        int partitions, int blockSize, Path cubeOut) throws IOException {
        JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        String path = trace.toAbsolutePath().toString();
        TraceDefinitions defs;
        String origin;
        RegionTable regions;
        // why the root causes cannot fit, judged from a sample before the trace is read with their marks
        String memoryProblem = null;
        try (TraceSource source = Traces.open(trace, lenient)) {
            defs = source.definitions();
            origin = source.origin();
            regions = RegionTable.of(defs);
            if (options.rootCauses()) {
                memoryProblem = projectedRootCauseMemory(jsc, source, defs, regions, options);
            }
        }
        int n = defs.locations().size();
        // by default three partitions per core; with root causes one per core, since the backward replay runs all of its
        // tasks at once and more location partitions would be regrouped for it
        int defaultParts = (options.rootCauses() && memoryProblem == null ? 1 : 3) * jsc.defaultParallelism();
        int parts = Math.max(1, Math.min(n, partitions > 0 ? partitions : defaultParts));
        LocationPartitioner byLocation = new LocationPartitioner(n, parts);
        LongAccumulator read = spark.sparkContext().longAccumulator("locations read");
        Skips skips = new Skips(spark);
        try {
            AnalysisResult r = run(spark, jsc, path, lenient, options, defs, regions, origin, byLocation, read,
                    blockSize, skips, cubeOut, memoryProblem);
            return new Detailed(r, skips.lines(origin));
        } catch (IOException | UnsupportedOperationException e) {
            throw e;
        } catch (Exception e) {
            // Spark's Scala methods throw SparkException undeclared; the task's own exception is its cause
            throw unwrap(e);
        }
    }

    private static AnalysisResult run(SparkSession spark, JavaSparkContext jsc, String path, boolean lenient,
                                      AnalysisOptions options, TraceDefinitions defs, RegionTable regions,
                                      String origin, LocationPartitioner byLocation, LongAccumulator read,
                                      int blockSize, Skips skips, Path cubeOut, String memoryProblem)
            throws IOException {
        int n = defs.locations().size();
        boolean openMp = hasOpenMp(defs);
        // a process's threads form a team with or without OpenMP (POSIX threads): read after their master, and
        // held by one task in the root-cause stage, as on one machine
        boolean threadTeams = openMp || hasWorkerThreads(defs);
        options.progress().update("read", 0, n);
        // the root-cause stage needs each location's marks; it does not run on a trace with OpenMP threads
        boolean intervals = options.rootCauses() && memoryProblem == null;
        // 1. read: location ranges as tasks, the records kept partitioned by location
        Read reading = read(jsc, path, lenient, intervals, defs, byLocation, threadTeams, read, skips);
        JavaPairRDD<Integer, LocationData> locations = reading.locations();

        // 2. facts to the driver: trees merged, collective instances formed
        List<LocationFacts> facts;
        // the driver learns of read locations as tasks finish: show them while the read stage runs
        Thread watch = watch(options, "read", read, n);
        try {
            facts = new ArrayList<>(locations.values().map(LocationFacts::of).collect());
        } finally {
            watch.interrupt();
        }
        // the location records are cached as formed; the masters' part of the read they were formed from need not be
        reading.release();
        facts.sort(Comparator.comparingInt(LocationFacts::location));
        options.progress().update("read", n, n);
        List<CallTree.LocalTree> trees = new ArrayList<>(n);
        for (LocationFacts f : facts) {
            trees.add(f.tree());
        }
        CallTree.Merged merged = CallTree.mergeTrees(trees);
        CollectiveCounts collectives = CollectiveCounts.form(defs, facts);
        boolean rootCausesAsked = options.rootCauses() && facts.stream().anyMatch(LocationFacts::hasMpi);
        // the barrier stage holds every location's marks at once: a trace whose stage cannot fit keeps its wait
        // states and says why, instead of failing in an executor with an out-of-memory error
        String rootCauseProblem = !rootCausesAsked ? null
                : memoryProblem != null ? memoryProblem : rootCauseMemory(jsc, facts, options);
        boolean rootCauses = rootCausesAsked && rootCauseProblem == null;
        Plan plan = new Plan(path, lenient, defs, collectives.instances, merged.localToGlobal(), blockSize,
                rootCauses, threadTeams);
        Broadcast<Plan> shared = jsc.broadcast(plan);
        long[] timeMasks = WaitStates.timeMasks(regions);
        OpenMpStage.Teams teamPlan = null;
        // the thread level: OpenMP's constructs and locks, and the mutexes of POSIX threads
        if (openMp || hasPthreads(defs)) {
            boolean[] threadRecords = new boolean[n];
            for (LocationFacts f : facts) {
                threadRecords[f.location()] = f.threadRecords();
            }
            teamPlan = OpenMpStage.Teams.plan(defs, threadRecords, merged.tree(), path, lenient, timeMasks);
        }
        Broadcast<OpenMpStage.Teams> teams = teamPlan == null ? null : jsc.broadcast(teamPlan);

        // 3. message matching: a keyed join of send blocks with receive blocks, partners grouped back by location
        int parts = byLocation.numPartitions();
        JavaPairRDD<Integer, Blocks.Partners> partners = locations.values()
                .flatMapToPair(d -> Blocks.sends(d, shared.value()))
                .join(locations.values().flatMapToPair(d -> Blocks.receives(d, shared.value())), parts)
                .flatMapToPair(p -> Blocks.partners(p._1(), p._2()._1(), p._2()._2()));

        // 4. collective instances: grouped by (communicator, chunk), evaluated, outcomes grouped back by location
        options.progress().update("patterns", 0, n);
        int top = options.topInstances();
        JavaRDD<ChunkResult> chunks = locations.values()
                .flatMapToPair(d -> Blocks.members(d, shared.value()))
                .groupByKey(parts)
                .map(g -> ChunkResult.evaluate(g._1(), g._2(), shared.value(), top))
                .persist(StorageLevel.MEMORY_AND_DISK());
        List<ChunkResult.Found> found = new ArrayList<>(chunks.map(ChunkResult::found).collect());
        found.sort(Comparator.comparingInt(ChunkResult.Found::comm).thenComparingInt(ChunkResult.Found::chunk));
        JavaPairRDD<Integer, Blocks.OutcomeBlock> collectiveSide = chunks.flatMapToPair(ChunkResult::outcomes);

        // 5. patterns per location, with its partners and collective outcomes brought to it (co-partitioned)
        InitFinalize.Reference init = reference(plan, facts, true);
        InitFinalize.Reference fin = reference(plan, facts, false);
        // the outcomes are computed by all executors at once and kept; the driver then fetches them one partition at
        // a time, in location order (the partitions are location ranges), so it never holds more than one partition
        // of them beside the cube it books them into
        LongAccumulator analysed = spark.sparkContext().longAccumulator("locations analysed");
        JavaRDD<Analysed> analysedLocations = locations
                .cogroup(partners, collectiveSide, byLocation)
                .mapPartitions(it -> {
                    List<Analysed> out = new ArrayList<>();
                    while (it.hasNext()) {
                        out.add(analyse(it.next()._2(), shared.value(), timeMasks, init, fin, top,
                                teams == null ? null : teams.value()));
                        analysed.add(1);
                    }
                    out.sort(Comparator.comparingInt(Analysed::location));
                    return out.iterator();
                }, true)
                .persist(StorageLevel.MEMORY_AND_DISK());
        Thread patterns = watch(options, "patterns", analysed, n);
        try {
            analysedLocations.count();
        } finally {
            patterns.interrupt();
        }
        options.progress().update("patterns", n, n);
        // the OpenMP level: each process's threads together, their changed cells back by location
        JavaRDD<OpenMpStage.Team> teamResults = null;
        OpenMpAnalysis.Result omp = new OpenMpAnalysis.Result(false, List.of());
        if (teams != null) {
            teamResults = analysedLocations.filter(a -> a.threads() != null)
                    .mapToPair(a -> new Tuple2<>(teams.value().groupOf()[a.location()],
                            OpenMpStage.Member.of(a.location(), a.threads(), a.outcome(), teams.value())))
                    .groupByKey(parts)
                    .map(g -> OpenMpStage.analyse(g._1(), g._2(), teams.value(), shared.value()))
                    .persist(StorageLevel.MEMORY_AND_DISK());
            omp = OpenMpStage.result(teamResults.map(OpenMpStage.Team::summary).collect());
        }
        omp = Analysis.withTaskRecords(omp, skips.taskRecords());
        JavaPairRDD<Integer, StreamedCube.Column> openMpCells = teamResults == null ? null
                : teamResults.flatMapToPair(t -> t.cells().stream().map(c -> new Tuple2<>(c.location(), c))
                        .iterator());
        boolean stream = cubeOut != null;
        // with the cube written by the executors, only what is not a severity per call path reaches the driver
        JavaRDD<LocationOutcome> outcomes = analysedLocations.map(a -> stream ? a.outcome().withoutSeverities()
                : a.outcome());

        // booked on the driver in the single-machine engine's order
        SeverityCube cube = stream ? null : Analysis.emptyCube(defs, regions, merged.tree(), origin, rootCauses);
        WaitStates.Merge merge = new WaitStates.Merge(cube, defs, timeMasks, top);
        for (ChunkResult.Found f : found) {
            merge.addCollectiveChunk(f.occurrences());
        }
        int expected = 0;
        for (java.util.Iterator<LocationOutcome> it = outcomes.toLocalIterator(); it.hasNext(); ) {
            LocationOutcome o = it.next();
            if (o.location() != expected) {
                throw new IllegalStateException("location outcomes out of order: " + o.location() + " after "
                        + (expected - 1));
            }
            expected++;
            merge.add(o);
        }
        WaitStates.Result ws = merge.finish(null, init, fin);
        if (stream) {
            try {
                return streamed(spark, jsc, locations, analysedLocations, chunks, shared, byLocation, init, fin,
                        merged, regions, defs, origin, options, n, rootCausesAsked, rootCauses, rootCauseProblem,
                        openMpCells, omp, timeMasks, ws, facts, collectives, skips, cubeOut);
            } finally {
                if (teamResults != null) {
                    teamResults.unpersist(false);
                }
            }
        }
        if (openMpCells != null) {
            // after the visit counts, before the root causes, as on one machine; one partition at a time
            int paths = merged.tree().size();
            for (java.util.Iterator<StreamedCube.Column> it = openMpCells.values().toLocalIterator(); it.hasNext(); ) {
                StreamedCube.Column c = it.next();
                OpenMpStage.set(cube, c, c.location(), paths);
            }
            teamResults.unpersist(false);
        }
        List<DelayCause> causes = List.of();
        if (rootCauses) {
            RootCauseStage.Result r = rootCauses(spark, jsc, locations, analysedLocations, chunks, shared, byLocation,
                    init, fin, merged.tree(), regions, options, n, false, defs, ws.instances()).result();
            if (r.result() != null) {
                RootCauseMetrics.addTo(cube, r.result());
                omp = withProblems(omp, r.result().problems());
                causes = r.result().causes();
            }
            rootCauseProblem = r.problem();
        }
        analysedLocations.unpersist(false);
        ReplayFacts replayFacts = facts(facts, collectives, ws.unmatchedSends(), ws.unmatchedReceives());
        List<String> reasons = skips.reasons();
        locations.unpersist(false);
        chunks.unpersist(false);
        return Analysis.complete(origin, reasons, defs, merged.tree(), replayFacts, cube, ws, rootCauseProblem, omp)
                .withCauses(causes);
    }

    /**
     * The end of the analysis with the cube written by the executors ({@link StreamedCube}): the root-cause stage's
     * slices stay where they are, the columns are formed there, and the driver keeps the sums the report reads.
     */
    private static AnalysisResult streamed(SparkSession spark, JavaSparkContext jsc,
                                           JavaPairRDD<Integer, LocationData> locations,
                                           JavaRDD<Analysed> analysedLocations, JavaRDD<ChunkResult> chunks,
                                           Broadcast<Plan> shared, LocationPartitioner byLocation,
                                           InitFinalize.Reference init, InitFinalize.Reference fin,
                                           CallTree.Merged merged, RegionTable regions, TraceDefinitions defs,
                                           String origin, AnalysisOptions options, int n,
                                           boolean rootCausesAsked, boolean rootCauses, String rootCauseProblem,
                                           JavaPairRDD<Integer, StreamedCube.Column> openMpCells,
                                           OpenMpAnalysis.Result omp, long[] timeMasks, WaitStates.Result ws,
                                           List<LocationFacts> facts, CollectiveCounts collectives, Skips skips,
                                           Path cubeOut)
            throws IOException {
        CallTree tree = merged.tree();
        SeverityCube shape = Analysis.emptyCube(defs, regions, tree, origin, rootCausesAsked);
        RootCauseStage.Slices slices = null;
        try {
            if (rootCauses) {
                slices = rootCauses(spark, jsc, locations, analysedLocations, chunks, shared, byLocation, init, fin,
                        tree, regions, options, n, true, defs, ws.instances()).slices();
                rootCauseProblem = slices.problem();
                omp = withProblems(omp, slices.teamProblems());
            }
            if (rootCauseProblem != null) {
                // the file carries why, as the single-machine engine's does (Analysis.complete)
                shape.setAttribute(Analysis.ROOT_CAUSES_ATTRIBUTE, Analysis.ROOT_CAUSES_NOT_COMPUTED);
                shape.setAttribute(Analysis.ROOT_CAUSES_PROBLEM_ATTRIBUTE, rootCauseProblem);
            }
            int[] parent = new int[tree.size()];
            int[] region = new int[tree.size()];
            for (int c = 0; c < parent.length; c++) {
                parent[c] = tree.parent(c);
                region[c] = tree.region(c);
            }
            boolean[] master = new boolean[n];
            java.util.Set<Integer> ranks = new java.util.HashSet<>();
            for (var l : shape.locations()) {
                master[l.index()] = l.thread() == 0;
                ranks.add(l.rank());
            }
            boolean[] inFocus = new boolean[tree.size()];
            for (int c : dev.straggler.patterns.focus.Focus.DEFAULT.select(shape).callPaths()) {
                inFocus[c] = true;
            }
            boolean[] parallelRegion = new boolean[tree.size()];
            for (int c = 0; c < parallelRegion.length; c++) {
                var r = shape.regions().get(region[c]);
                parallelRegion[c] = r.role() == dev.straggler.trace.RegionRole.PARALLEL
                        && r.paradigm() == dev.straggler.trace.Paradigm.OPENMP;
            }
            StreamedCube.Shape sh = new StreamedCube.Shape(shared.value().trace, shared.value().lenient, n, parent,
                    region, defs.clock().ticksPerSecond(), timeMasks, dev.straggler.patterns.cubex.CubexWriter.layout(shape),
                    ranks.size(), master, inFocus, byLocation.numPartitions(), parallelRegion);
            JavaPairRDD<Integer, LocationOutcome> outcomes = analysedLocations.mapPartitionsToPair(it -> {
                List<Tuple2<Integer, LocationOutcome>> out = new ArrayList<>();
                it.forEachRemaining(a -> out.add(new Tuple2<>(a.location(), a.outcome())));
                return out.iterator();
            }, true);
            StreamedCube.Summary summary = StreamedCube.write(jsc, outcomes,
                    slices != null && rootCauseProblem == null ? slices.booked() : null, openMpCells, byLocation, sh,
                    shape, cubeOut);
            analysedLocations.unpersist(false);
            ReplayFacts replayFacts = facts(facts, collectives, ws.unmatchedSends(), ws.unmatchedReceives());
            List<String> reasons = skips.reasons();
            return Analysis.conclude(origin, reasons, defs, tree, replayFacts,
                    new SummaryCube(shape, summary, inFocus, false), ws, rootCauseProblem, omp)
                    .withCauses(slices != null && rootCauseProblem == null ? slices.causes() : List.of());
        } finally {
            if (slices != null) {
                slices.release();
            }
            locations.unpersist(false);
            chunks.unpersist(false);
        }
    }

    /** The root-cause stage's outcome: its result on the driver, or its slices left on the executors. */
    private record RootCauseRun(RootCauseStage.Result result, RootCauseStage.Slices slices) {
    }

    /** The OpenMP level's problems followed by the root-cause stage's, as the single-machine engine lists them. */
    private static OpenMpAnalysis.Result withProblems(OpenMpAnalysis.Result omp, List<String> rootCauseProblems) {
        if (rootCauseProblems.isEmpty()) {
            return omp;
        }
        List<String> all = new ArrayList<>(omp.problems());
        all.addAll(rootCauseProblems);
        return new OpenMpAnalysis.Result(omp.hasOpenMp(), all);
    }

    /**
     * Runs the root-cause stage: to its result on the driver, or ({@code leaveSlices}) up to each location's slice
     * left on the executors; either way with the causes of the instances in {@code explain} (the wait-state stage's
     * most severe, named by {@code defs}).
     */
    private static RootCauseRun rootCauses(SparkSession spark, JavaSparkContext jsc,
                                           JavaPairRDD<Integer, LocationData> locations,
                                           JavaRDD<Analysed> analysedLocations, JavaRDD<ChunkResult> chunks,
                                           Broadcast<Plan> shared, LocationPartitioner byLocation,
                                           InitFinalize.Reference init, InitFinalize.Reference fin, CallTree tree,
                                           RegionTable regions, AnalysisOptions options, int n,
                                           boolean leaveSlices, TraceDefinitions defs, List<Instance> explain) {
        options.progress().update("root causes", 0, n);
        JavaPairRDD<Integer, RootCauseStage.Input> inputs = analysedLocations.mapPartitionsToPair(it -> {
            List<Tuple2<Integer, RootCauseStage.Input>> out = new ArrayList<>();
            it.forEachRemaining(a -> {
                if (a.input() != null) {
                    out.add(new Tuple2<>(a.location(), a.input()));
                }
            });
            return out.iterator();
        }, true);
        JavaPairRDD<Integer, RootCauseStage.FactBlock> facts = analysedLocations.flatMapToPair(a ->
                a.facts().iterator());
        JavaPairRDD<Integer, ChunkResult.RoleBlock> roles = chunks.flatMapToPair(ChunkResult::roles);
        String[] regionOfPath = new String[tree.size()];
        for (int p = 0; p < regionOfPath.length; p++) {
            regionOfPath[p] = regions.regions().get(tree.region(p)).name();
        }
        // thousandths of a location: the share of each location's marks replayed backwards
        LongAccumulator replayed = spark.sparkContext().longAccumulator("backward replay progress");
        // the replay is one long stage: show what its running tasks report in their heartbeats
        Live live = new Live(replayed);
        spark.sparkContext().addSparkListener(live);
        Thread watch = watch(options, "root causes", () -> live.value() / 1000, n);
        RootCauseRun r;
        try {
            r = leaveSlices
                    ? new RootCauseRun(null, RootCauseStage.slices(locations, inputs, facts, roles, shared, byLocation,
                    jsc.defaultParallelism(), init, fin, RootCauses.cnodeIds(tree), regionOfPath, replayed, defs,
                    explain))
                    : new RootCauseRun(RootCauseStage.run(locations, inputs, facts, roles, shared, byLocation,
                    jsc.defaultParallelism(), init, fin, RootCauses.cnodeIds(tree), regionOfPath, replayed, defs,
                    explain), null);
        } finally {
            watch.interrupt();
            spark.sparkContext().removeSparkListener(live);
        }
        options.progress().update("root causes", n, n);
        return r;
    }

    /**
     * An accumulator's value including what running tasks last reported with their executors' heartbeats: Spark
     * merges a task's updates into the accumulator only when the task ends.
     */
    static final class Live extends org.apache.spark.scheduler.SparkListener {
        private final LongAccumulator accumulator;
        private final java.util.concurrent.ConcurrentHashMap<Long, Long> running =
                new java.util.concurrent.ConcurrentHashMap<>();

        Live(LongAccumulator accumulator) {
            this.accumulator = accumulator;
        }

        @Override
        public void onExecutorMetricsUpdate(org.apache.spark.scheduler.SparkListenerExecutorMetricsUpdate u) {
            u.accumUpdates().foreach(t -> {
                long task = (Long) t._1();
                t._4().foreach(info -> {
                    if (info.id() == accumulator.id() && info.update().isDefined()
                            && info.update().get() instanceof Long v) {
                        running.put(task, v);
                    }
                    return null;
                });
                return null;
            });
        }

        @Override
        public void onTaskEnd(org.apache.spark.scheduler.SparkListenerTaskEnd e) {
            running.remove(e.taskInfo().taskId());
        }

        long value() {
            long v = accumulator.value();
            for (long x : running.values()) {
                v += x;
            }
            return v;
        }
    }

    /**
     * A location as the wait-state stage leaves it: its outcome for the driver; with root causes, what the
     * root-cause stage keeps of it and the facts it sends its partners; with the OpenMP level, its OpenMP records
     * (null for a location the level does not cover).
     */
    record Analysed(int location, LocationOutcome outcome, RootCauseStage.Input input,
                    List<Tuple2<Integer, RootCauseStage.FactBlock>> facts, ThreadRecords threads)
            implements java.io.Serializable {
    }

    /**
     * The point-to-point traffic between ranks ({@link CommunicationMatrix#compute}'s rule), each location's send
     * records counted by a task; only one row per location reaches the driver.
     */
    public static CommunicationMatrix communicationMatrix(SparkSession spark, Path trace, boolean lenient,
                                                          int partitions) throws IOException {
        JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        TraceDefinitions defs;
        try (TraceSource source = Traces.open(trace, lenient)) {
            defs = source.definitions();
        }
        int n = defs.locations().size();
        int ranks = CommunicationMatrix.ranks(defs);
        int parts = Math.max(1, Math.min(n, partitions > 0 ? partitions : 3 * jsc.defaultParallelism()));
        List<Integer> ids = new ArrayList<>(n);
        for (int l = 0; l < n; l++) {
            ids.add(l);
        }
        String path = trace.toAbsolutePath().toString();
        try {
            List<Tuple2<Integer, long[][]>> rows = jsc.parallelize(ids, parts).mapPartitions(it -> {
                List<Tuple2<Integer, long[][]>> out = new ArrayList<>();
                if (it.hasNext()) {
                    try (TraceSource source = Traces.open(Path.of(path), lenient)) {
                        while (it.hasNext()) {
                            int l = it.next();
                            out.add(new Tuple2<>(source.definitions().location(l).rank(),
                                    CommunicationMatrix.senderRow(source, l, ranks)));
                        }
                    }
                }
                return out.iterator();
            }).collect();
            long[][] messages = new long[ranks][ranks];
            long[][] bytes = new long[ranks][ranks];
            for (Tuple2<Integer, long[][]> r : rows) {
                CommunicationMatrix.add(messages, bytes, r._1(), r._2());
            }
            return new CommunicationMatrix(messages, bytes);
        } catch (Exception e) {
            throw unwrap(e);
        }
    }

    /**
     * Why the root-cause stage would not fit in the executors' heaps ({@link RootCauseMemory#executorShortfall}), or
     * null. In local mode the executors are this JVM, its heap limited by {@link AnalysisOptions#heapBudget}; on a
     * cluster the executors registered now, each of {@code spark.executor.memory}.
     */
    static String rootCauseMemory(JavaSparkContext jsc, List<LocationFacts> facts, AnalysisOptions options) {
        long marks = 0;
        for (LocationFacts f : facts) {
            marks += f.marks();
        }
        return RootCauseMemory.executorShortfall(marks, Math.max(1, executors(jsc)), executorHeap(jsc, options));
    }

    /** Events of each sampled location read to judge the root causes' memory before the trace is read. */
    static final long SAMPLE_EVENTS = 1L << 20;
    /** Master locations sampled, spread over the ranks. */
    static final int SAMPLED_LOCATIONS = 4;

    /**
     * Why the root-cause stage could not fit in the executors' heaps, judged before the trace is read: the read
     * with marks keeps each task's locations with their marks in memory, one task per core, and would end with an
     * out-of-memory error before {@link #rootCauseMemory} could refuse. The marks per event of the first
     * {@value #SAMPLE_EVENTS} events of up to {@value #SAMPLED_LOCATIONS} ranks' master locations, spread over the
     * ranks, times the events the definitions declare; for OTF2, whose definitions declare event records, the marks
     * per record read times the records declared. Nothing is sampled when even a mark per event (record) would fit,
     * or when the source declares neither (then the check after the read decides). Null when the marks fit.
     */
    static String projectedRootCauseMemory(JavaSparkContext jsc, TraceSource source, TraceDefinitions defs,
                                           RegionTable regions, AnalysisOptions options) throws IOException {
        // the trace's size: its events where the definitions declare them (a store), else the event records its
        // locations declare (OTF2), which also count records outside the model
        long total = Replay.declaredEvents(defs);
        boolean inRecords = total < 0;
        if (inRecords) {
            long[] declared = source.declaredRecords();
            if (declared == null) {
                return null;
            }
            total = java.util.Arrays.stream(declared).map(r -> Math.max(0, r)).sum();
        }
        int executors = executors(jsc);
        long heap = executorHeap(jsc, options);
        // on a cluster whose executors have not registered yet nothing is known of its memory, and a trace that fits
        // even with a mark per event (record) needs no sample: the check after the read decides
        if (executors == 0 || RootCauseMemory.executorShortfall(total, executors, heap) == null) {
            return null;
        }
        int[] masters = java.util.Arrays.stream(defs.masterLocationByRank()).filter(l -> l >= 0).toArray();
        if (masters.length == 0) {
            return null;
        }
        long events = 0;
        long marks = 0;
        long records = 0;
        int k = Math.min(SAMPLED_LOCATIONS, masters.length);
        for (int i = 0; i < k; i++) {
            long[] sample = Replay.sampleMarks(source, defs, regions, masters[(int) ((long) i * masters.length / k)],
                    SAMPLE_EVENTS);
            events += sample[0];
            marks += sample[1];
            records = records < 0 || sample[2] < 0 ? -1 : records + sample[2];
        }
        long per = inRecords ? records : events;
        if (per <= 0) {
            return null;
        }
        long projected = (long) Math.ceil((double) marks * total / per);
        return RootCauseMemory.projectedExecutorShortfall(projected, events, executors, heap);
    }

    /**
     * The executors the root-cause stage's tasks spread over: 1 in local mode, else those registered now (0 before
     * any has).
     */
    private static int executors(JavaSparkContext jsc) {
        // the driver is listed with the executors
        return jsc.isLocal() ? 1 : Math.max(0, jsc.sc().getExecutorMemoryStatus().size() - 1);
    }

    /**
     * One executor's heap: in local mode this JVM's, limited by {@link AnalysisOptions#heapBudget}; on a cluster
     * {@code spark.executor.memory}.
     */
    private static long executorHeap(JavaSparkContext jsc, AnalysisOptions options) {
        return jsc.isLocal() ? Math.min(options.heapBudget(), Runtime.getRuntime().maxMemory())
                : org.apache.spark.network.util.JavaUtils.byteStringAsBytes(
                        jsc.getConf().get("spark.executor.memory", "1g"));
    }

    /** Reports an accumulator's value as the progress of a phase, four times a second, until interrupted. */
    private static Thread watch(AnalysisOptions options, String phase, LongAccumulator done, int total) {
        return watch(options, phase, done::value, total);
    }

    private static Thread watch(AnalysisOptions options, String phase, java.util.function.LongSupplier done,
                                int total) {
        Thread t = new Thread(() -> {
            try {
                while (!Thread.currentThread().isInterrupted()) {
                    options.progress().update(phase, Math.min(total, done.getAsLong()), total);
                    Thread.sleep(250);
                }
            } catch (InterruptedException stop) {
                Thread.currentThread().interrupt();
            }
        }, "straggler-" + phase + "-progress");
        t.setDaemon(true);
        t.start();
        return t;
    }

    /**
     * The read stage's location records, partitioned by location, and the first part of the read, whose cache is
     * released once the records are in use (null when there is none apart).
     */
    private record Read(JavaPairRDD<Integer, LocationData> locations, JavaPairRDD<Integer, LocationData> first) {
        void release() {
            if (first != null) {
                first.unpersist(false);
            }
        }
    }

    /**
     * Reads every location in its location range's task. On a trace with threads (OpenMP or POSIX) a location whose process has
     * its master thread elsewhere (a worker thread, an accelerator stream) is read after that master, with the
     * master's OpenMP records shipped to it: a worker's parallel regions hang under the master's call stack at the
     * master's forks, and every location's team management is measured from the master's forks and joins
     * (docs/openmp.md §2, §4; {@link Replay#run} reads masters first for the same reason).
     */
    private static Read read(JavaSparkContext jsc, String path, boolean lenient, boolean intervals,
                             TraceDefinitions defs, LocationPartitioner byLocation, boolean openMp,
                             LongAccumulator read, Skips skips) {
        int n = defs.locations().size();
        int[] masterOf = openMp ? masterOf(defs) : new int[n];
        if (!openMp) {
            java.util.Arrays.fill(masterOf, -1);
        }
        List<Tuple2<Integer, Integer>> ids = new ArrayList<>(n);
        int[] dependents = new int[n];
        boolean anyDependent = false;
        for (int l = 0; l < n; l++) {
            if (masterOf[l] < 0) {
                ids.add(new Tuple2<>(l, l));
            } else {
                dependents[masterOf[l]]++;
                anyDependent = true;
            }
        }
        JavaPairRDD<Integer, LocationData> first = JavaPairRDD.fromJavaRDD(jsc.parallelize(ids,
                        byLocation.numPartitions()))
                .partitionBy(byLocation)
                .mapPartitionsToPair(it -> readLocations(path, lenient, intervals, openMp,
                        new MappedIterator<>(it, t -> new Tuple2<Integer, ThreadRecords>(t._1(), null)), read, skips, 0), true)
                .persist(StorageLevel.MEMORY_AND_DISK());
        if (!anyDependent) {
            return new Read(first, null);
        }
        int[][] of = new int[n][];
        for (int m = 0; m < n; m++) {
            of[m] = new int[dependents[m]];
            dependents[m] = 0;
        }
        for (int l = 0; l < n; l++) {
            if (masterOf[l] >= 0) {
                of[masterOf[l]][dependents[masterOf[l]]++] = l;
            }
        }
        Broadcast<int[][]> dependentsOf = jsc.broadcast(of);
        // each master's records to the partitions of the locations that read with them (a few bytes per fork)
        JavaPairRDD<Integer, ThreadRecords> records = first.flatMapToPair(t -> {
            List<Tuple2<Integer, ThreadRecords>> out = new ArrayList<>();
            for (int w : dependentsOf.value()[t._1()]) {
                out.add(new Tuple2<>(w, t._2().threads()));
            }
            return out.iterator();
        });
        JavaPairRDD<Integer, LocationData> all = first.cogroup(records, byLocation)
                .mapPartitionsToPair(it -> {
                    List<Tuple2<Integer, LocationData>> out = new ArrayList<>();
                    List<Tuple2<Integer, ThreadRecords>> later = new ArrayList<>();
                    while (it.hasNext()) {
                        var t = it.next();
                        java.util.Iterator<LocationData> f = t._2()._1().iterator();
                        if (f.hasNext()) {
                            out.add(new Tuple2<>(t._1(), f.next()));
                        } else {
                            later.add(new Tuple2<>(t._1(), t._2()._2().iterator().next()));
                        }
                    }
                    later.sort(Comparator.comparingInt(Tuple2::_1));
                    readLocations(path, lenient, intervals, true, later.iterator(), read, skips, 1)
                            .forEachRemaining(out::add);
                    return out.iterator();
                }, true)
                .persist(StorageLevel.MEMORY_AND_DISK());
        return new Read(all, first);
    }

    /**
     * Per location, the location of its process's master thread when that is another location (whose OpenMP records
     * it is read with), else -1: as {@code TeamManagement} finds each location's master.
     */
    static int[] masterOf(TraceDefinitions defs) {
        int[] locationOfRank = defs.masterLocationByRank();
        int n = defs.locations().size();
        int[] out = new int[n];
        for (int l = 0; l < n; l++) {
            int rank = defs.location(l).rank();
            int m = rank >= 0 && rank < locationOfRank.length ? locationOfRank[rank] : -1;
            out[l] = m >= 0 && m != l ? m : -1;
        }
        return out;
    }

    /** An iterator seen through a function, for Spark's partition iterators. */
    private record MappedIterator<A, B>(java.util.Iterator<A> in, java.util.function.Function<A, B> f)
            implements java.util.Iterator<B> {
        @Override
        public boolean hasNext() {
            return in.hasNext();
        }

        @Override
        public B next() {
            return f.apply(in.next());
        }
    }

    /**
     * Reads locations in one task: each with the OpenMP records of its process's master when it is read after it
     * (null: a location that is its own master, or of a trace without OpenMP regions). With {@code teams} the team
     * management is added to each location's profile, as {@link Replay#run} adds it.
     *
     * @param phase which part of the read this is (0: the masters', 1: after them), for the skip counts
     */
    private static java.util.Iterator<Tuple2<Integer, LocationData>> readLocations(
            String path, boolean lenient, boolean intervals, boolean teams,
            java.util.Iterator<Tuple2<Integer, ThreadRecords>> ids, LongAccumulator read, Skips skips, int phase)
            throws IOException {
        List<Tuple2<Integer, LocationData>> out = new ArrayList<>();
        if (!ids.hasNext()) {
            return out.iterator();
        }
        try (TraceSource source = Traces.open(Path.of(path), lenient)) {
            TraceDefinitions defs = source.definitions();
            RegionTable regions = RegionTable.of(defs);
            int[] locationOfRank = defs.masterLocationByRank();
            int[] teamMaster = teams ? Replay.teamMasters(defs, locationOfRank) : null;
            // the root-cause stage needs each location's marks (call-path intervals)
            ReplayOptions one = ReplayOptions.defaults().withThreads(1).withIntervals(intervals);
            while (ids.hasNext()) {
                Tuple2<Integer, ThreadRecords> next = ids.next();
                int l = next._1();
                ThreadRecords master = next._2();
                LocationData d = Replay.readLocation(source, defs, regions, l,
                        Replay.isMaster(defs, locationOfRank, l), one,
                        master != null && teamMaster[l] >= 0 ? master : null);
                if (teams) {
                    TeamManagement.applyTo(d, master != null ? master : d.threads(), master != null);
                }
                out.add(new Tuple2<>(l, d));
                read.add(1);
            }
            skips.note(source, phase);
        }
        return out.iterator();
    }

    private static Analysed analyse(Tuple3<Iterable<LocationData>, Iterable<Blocks.Partners>,
            Iterable<Blocks.OutcomeBlock>> g, Plan plan, long[] timeMasks, InitFinalize.Reference init,
                                    InitFinalize.Reference fin, int top, OpenMpStage.Teams teams) {
        LocationData d = g._1().iterator().next();
        d.setLocalToGlobal(plan.localToGlobal.get(d.location()));
        ArrayPartners partners = new ArrayPartners(d.receives().size(), d.sends().size());
        g._2().forEach(b -> b.into(partners));
        CollectiveOutcomes coll = CollectiveOutcomes.forLocation(d.location(), d.collectives().size());
        for (Blocks.OutcomeBlock o : g._3()) {
            for (int i = 0; i < o.row().length; i++) {
                coll.set(o.row()[i], o.waitTime()[i], o.completion()[i], o.violation()[i], o.flags()[i],
                        o.reference()[i]);
            }
        }
        // the root-cause stage covers each rank's master location (as on one machine)
        // the root-cause stage covers each rank's master location (as on one machine), and the threads of its team,
        // which were read with marks when they joined it
        boolean stage = plan.rootCauses && d.intervals() != null;
        LocationOutcome o = WaitStates.analyse(defsOf(plan), d, partners, timeMasks, coll, init, fin, top, stage);
        ThreadRecords threads = teams != null && teams.groupOf()[d.location()] >= 0 ? d.threads() : null;
        if (!stage) {
            return new Analysed(d.location(), o, null, List.of(), threads);
        }
        RootCauseStage.Input in = new RootCauseStage.Input(o.lateSenderWaits(), o.lateReceiverWaits(),
                partners.rows());
        return new Analysed(d.location(), o.withoutWaits(), in, RootCauseStage.facts(d, in), threads);
    }

    /** The definitions on an executor: read once per JVM and trace (they are immutable). */
    private static TraceDefinitions defsOf(Plan plan) {
        return TaskDefinitions.of(plan.trace, plan.lenient);
    }

    private static InitFinalize.Reference reference(Plan plan, List<LocationFacts> facts, boolean init) {
        int n = facts.size();
        boolean[] has = new boolean[n];
        long[] enter = new long[n];
        long[] leave = new long[n];
        for (LocationFacts f : facts) {
            int l = f.location();
            has[l] = init ? f.hasInit() : f.hasFinalize();
            enter[l] = init ? f.initEnter() : f.finalizeEnter();
            leave[l] = init ? f.initLeave() : f.finalizeLeave();
        }
        return InitFinalize.reference(plan.locationOfRank, has, enter, leave);
    }

    private static ReplayFacts facts(List<LocationFacts> facts, CollectiveCounts collectives, long unmatchedSends,
                                     long unmatchedReceives) {
        long events = 0;
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        boolean mpi = false;
        boolean anyInit = false;
        boolean anyFinalize = false;
        long receivesInMpi = 0;
        long bytes = 0;
        long[] anomalies = new long[Anomaly.values().length];
        for (LocationFacts f : facts) {
            events += f.events();
            if (f.events() > 0) {
                first = Math.min(first, f.firstTime());
                last = Math.max(last, f.lastTime());
            }
            mpi |= f.hasMpi();
            anyInit |= f.hasInit();
            anyFinalize |= f.hasFinalize();
            receivesInMpi += f.receivesInMpi();
            bytes += f.recordBytes();
            for (int a = 0; a < anomalies.length; a++) {
                anomalies[a] += f.anomalies()[a];
            }
        }
        Map<Anomaly, Long> byKind = new EnumMap<>(Anomaly.class);
        for (Anomaly a : Anomaly.values()) {
            if (anomalies[a.ordinal()] != 0) {
                byKind.put(a, anomalies[a.ordinal()]);
            }
        }
        return new ReplayFacts(events, first, last, mpi, anyInit, anyFinalize, receivesInMpi - unmatchedReceives,
                unmatchedSends, unmatchedReceives, collectives.total, collectives.unmatchedRecords,
                collectives.incompleteCommunicators, bytes, byKind);
    }

    /**
     * What lenient reads skipped on the executors, gathered in accumulators and combined on the driver into the
     * single-machine engine's sentences and lists. A retried task reports the same again: counts are kept per
     * partition and lines are de-duplicated, so retries are not counted twice.
     */
    static final class Skips implements java.io.Serializable {
        /** Per partition and part of the read: {2 × partition + part, implausible records dropped, locations left out}. */
        private final CollectionAccumulator<long[]> counts;
        private final CollectionAccumulator<String> dropped;
        private final CollectionAccumulator<dev.straggler.trace.otf2.Otf2Warning> archive;
        /** Per partition and part of the read: {2 × partition + part, OpenMP task records read past}. */
        private final CollectionAccumulator<long[]> tasks;

        Skips(SparkSession spark) {
            counts = spark.sparkContext().collectionAccumulator("implausible parts dropped");
            dropped = spark.sparkContext().collectionAccumulator("implausible parts");
            archive = spark.sparkContext().collectionAccumulator("archive parts skipped");
            tasks = spark.sparkContext().collectionAccumulator("OpenMP task records");
        }

        /** @param phase which read of the partition's locations noted it (the read is in two parts, 0 and 1) */
        void note(TraceSource source, int phase) {
            if (source instanceof dev.straggler.trace.PlausibleTrace p && p.droppedCount() > 0) {
                counts.add(new long[] {2L * org.apache.spark.TaskContext.getPartitionId() + phase, p.droppedCount(),
                        p.lostStreams()});
                p.dropped().forEach(d -> dropped.add(d.toString()));
            }
            if (dev.straggler.trace.PlausibleTrace.unwrap(source) instanceof dev.straggler.trace.otf2.Otf2Archive a) {
                a.warnings().forEach(archive::add);
            }
            // the records outside the model of the locations this partition read to their end
            long t = Analysis.taskRecords(source.definitions());
            if (t > 0) {
                tasks.add(new long[] {2L * org.apache.spark.TaskContext.getPartitionId() + phase, t});
            }
        }

        /** The OpenMP task records every partition read past (a retried task's count once). */
        long taskRecords() {
            java.util.Map<Long, Long> byPartition = new java.util.TreeMap<>();
            for (long[] c : tasks.value()) {
                byPartition.put(c[0], c[1]);
            }
            return byPartition.values().stream().mapToLong(Long::longValue).sum();
        }

        private long[] totals() {
            java.util.Map<Long, long[]> byPartition = new java.util.TreeMap<>();
            for (long[] c : counts.value()) {
                byPartition.put(c[0], c);
            }
            long[] t = new long[2];
            for (long[] c : byPartition.values()) {
                t[0] += c[1];
                t[1] += c[2];
            }
            return t;
        }

        /** Why the result is partial, in the words and order of a read on one machine. */
        List<String> reasons() {
            List<String> r = new ArrayList<>(dev.straggler.trace.otf2.Otf2Archive.partialReasons(
                    SkipReport.distinct(archive.value())));
            long[] t = totals();
            r.addAll(dev.straggler.trace.PlausibleTrace.partialReasons(t[0], t[1]));
            return r;
        }

        /** The lines a single-machine run prints for the same skips. */
        List<String> lines(String origin) {
            return SkipReport.lines(origin, totals()[0], dropped.value(), archive.value());
        }
    }

    /** A task's failure as the single-machine engine reports it: the trace, location and what is wrong. */
    private static IOException unwrap(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof IOException io) {
                return io;
            }
            if (t instanceof UncheckedIOException u) {
                return u.getCause();
            }
        }
        String m = e.getMessage() == null ? e.toString() : e.getMessage();
        // Spark wraps a task's exception in a message; keep its first line, which names the failure
        int nl = m.indexOf('\n');
        return new IOException("Spark job failed: " + (nl < 0 ? m : m.substring(0, nl)), e);
    }
}
