package dev.straggler.patterns;

import dev.straggler.patterns.openmp.OpenMpAnalysis;
import dev.straggler.patterns.cube.CallPath;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.patterns.cube.SystemLocation;
import dev.straggler.patterns.rootcause.RootCauseMetrics;
import dev.straggler.patterns.rootcause.RootCauseMemory;
import dev.straggler.patterns.rootcause.RootCauses;
import dev.straggler.patterns.waitstate.InitFinalize;
import dev.straggler.patterns.waitstate.WaitStates;
import dev.straggler.replay.Anomaly;
import dev.straggler.replay.CallTree;
import dev.straggler.replay.LocationData;
import dev.straggler.replay.Pools;
import dev.straggler.replay.RegionTable;
import dev.straggler.replay.ReplayFacts;
import dev.straggler.replay.Replay;
import dev.straggler.replay.ReplayOptions;
import dev.straggler.replay.SpillFile;
import dev.straggler.trace.Clock;
import dev.straggler.trace.Location;
import dev.straggler.trace.TraceDefinitions;
import dev.straggler.trace.TraceSource;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;

/**
 * Wait-state analysis of a trace, the Scalasca way (reference §1): replays every location, matches
 * communication, evaluates the MPI wait-state patterns and returns a {@link SeverityCube} with Scalasca's metric
 * tree ({@link MetricTree}), the most severe instances and the clock-condition violations.
 *
 * <p>Thread-safe and stateless; the result is identical for any thread count.
 */
public final class Analysis {
    /** The warning given for a trace without MPI; time and visits are still computed. */
    public static final String NO_MPI_WARNING = "trace has no MPI events: only time and visits are analysed";
    /** As {@link #NO_MPI_WARNING} for a trace whose MPI records are all on threads other than their rank's master. */
    public static final String NO_MASTER_MPI_WARNING = "no MPI event on a rank's master thread: MPI called from other"
            + " threads is not analysed, only time, visits and the OpenMP level are";
    /**
     * Cube attribute saying the root-cause stage ran (value {@link #ROOT_CAUSES_ANALYSED}); absent when it was not
     * asked for, so that zero delay costs are not read as "no causes".
     */
    public static final String ROOT_CAUSES_ATTRIBUTE = "root_causes";
    public static final String ROOT_CAUSES_ANALYSED = "analysed";
    /** Value of {@link #ROOT_CAUSES_ATTRIBUTE} when the stage was asked for but could not run. */
    public static final String ROOT_CAUSES_NOT_COMPUTED = "not computed";
    /** Cube attribute giving why the root causes could not be computed (with {@link #ROOT_CAUSES_NOT_COMPUTED}). */
    public static final String ROOT_CAUSES_PROBLEM_ATTRIBUTE = "root_causes_problem";

    /** True when the cube's root-cause metrics were computed (they are zero otherwise). */
    public static boolean rootCausesAnalysed(SeverityCube cube) {
        return ROOT_CAUSES_ANALYSED.equals(cube.attributes().get(ROOT_CAUSES_ATTRIBUTE));
    }

    /**
     * Why the cube holds no root causes although they were asked for (e.g. a trace whose order of events is
     * impossible), or null when they were computed or not asked for.
     */
    public static String rootCausesProblem(SeverityCube cube) {
        return ROOT_CAUSES_NOT_COMPUTED.equals(cube.attributes().get(ROOT_CAUSES_ATTRIBUTE))
                ? cube.attributes().getOrDefault(ROOT_CAUSES_PROBLEM_ATTRIBUTE, "unknown reason") : null;
    }

    /** How the warning about root causes that could not be computed begins. */
    private static final String ROOT_CAUSES_WARNING = "root causes not computed: ";

    private Analysis() {
    }

    /**
     * Analyses a trace.
     *
     * @throws IOException when the trace cannot be read; the message names the trace and the location
     */
    public static AnalysisResult run(TraceSource source, AnalysisOptions options) throws IOException {
        ExecutorService pool = Pools.fixed(options.threads(), "analysis");
        // the scratch file: the point-to-point records beyond the analysis's share of the heap for them, and for the
        // root-cause stage a large location's interval entries, and its marks when the stage would not fit with them
        // on the heap
        try (SpillFile spill = SpillFile.inTemporaryDirectory()) {
            return run(source, options, pool, spill);
        } finally {
            pool.shutdownNow();
        }
    }

    private static AnalysisResult run(TraceSource source, AnalysisOptions options, ExecutorService pool,
                                      SpillFile spill) throws IOException {
        ReplayOptions ro = ReplayOptions.defaults().withThreads(options.threads()).withProgress(options.progress())
                .withReading(options.reading()).withIntervals(options.rootCauses())
                .withMarkBudget(RootCauseMemory.REPLAY_BYTES_PER_MARK, RootCauseMemory.SPILLED_REPLAY_BYTES_PER_MARK,
                        options.heapBudget())
                .withSpill(spill, options.recordHeapBytes());
        Replay replay = Replay.run(source, ro, pool);
        boolean rootCauses = options.rootCauses() && replay.hasMpi();
        SeverityCube cube = emptyCube(replay.definitions(), replay.regions(), replay.callTree(), source.origin(),
                rootCauses);
        WaitStates.Result ws = WaitStates.run(replay, cube, pool, options.threads(), options.topInstances(),
                rootCauses, options.progress());
        OpenMpAnalysis.Result omp = withTaskRecords(OpenMpAnalysis.addTo(cube, replay),
                taskRecords(source.definitions()));
        String rootCauseProblem = null;
        List<DelayCause> causes = List.of();
        if (rootCauses) {
            int locations = replay.locations().size();
            options.progress().update("root causes", 0, locations);
            String memory = RootCauseMemory.shortfall(replay, options.heapBudget());
            if (memory != null && !replay.marksDropped()) {
                // the stage reads the marks a few at a time: in a scratch file they leave it 25 bytes each
                for (LocationData d : replay.locations()) {
                    if (d.intervals() != null) {
                        d.intervals().spillMarks(spill);
                    }
                }
                memory = RootCauseMemory.shortfall(replay, options.heapBudget());
            }
            if (memory != null) {
                rootCauseProblem = memory;
            } else {
                // writing a block to the scratch file costs about what computing it did: where the heap has room
                // beyond the stage's need, half of it keeps interval entries there (the rest is the collector's)
                spill.allowOnHeap(RootCauseMemory.room(replay, options.heapBudget()) / 2);
                try {
                    RootCauses.Result rc = RootCauses.run(replay, ws.collectives(), ws.init(), ws.fin(),
                            ws.lateSenderWaits(), ws.lateReceiverWaits(), ws.instances(), pool, options.threads(),
                            true, spill, options.progress()); // nothing below reads a message record of this replay
                    causes = rc.causes();
                    RootCauseMetrics.addTo(cube, rc);
                    if (!rc.problems().isEmpty()) {
                        List<String> all = new ArrayList<>(omp.problems());
                        all.addAll(rc.problems());
                        omp = new OpenMpAnalysis.Result(omp.hasOpenMp(), all);
                    }
                } catch (RootCauses.ImpossibleOrder e) {
                    // the wait states stand; only the why is missing, and the report says so
                    rootCauseProblem = e.getMessage();
                }
            }
            options.progress().update("root causes", locations, locations);
        }
        return complete(source.origin(), source.partialReasons(), replay.definitions(), replay.callTree(),
                replay.facts(), cube, ws, rootCauseProblem, omp).withCauses(causes);
    }

    /**
     * The end of an analysis, whichever engine ran the stages before: completes and freezes the cube, states the
     * facts and warnings. {@code cube} holds the wait-state (and root-cause) severities.
     *
     * @param origin           the trace as the reports name it
     * @param partialReasons   why a lenient read left the result partial (empty when it is not)
     * @param rootCauseProblem why the root causes are missing although asked for, or null
     */
    public static AnalysisResult complete(String origin, List<String> partialReasons, TraceDefinitions defs, CallTree tree, ReplayFacts facts,
                                          SeverityCube cube, WaitStates.Result ws, String rootCauseProblem) {
        return complete(origin, partialReasons, defs, tree, facts, cube, ws, rootCauseProblem,
                new OpenMpAnalysis.Result(false, List.of()));
    }

    /** As above, with what the OpenMP level found it could not analyse ({@code omp}). */
    public static AnalysisResult complete(String origin, List<String> partialReasons, TraceDefinitions defs,
                                          CallTree tree, ReplayFacts facts, SeverityCube cube, WaitStates.Result ws,
                                          String rootCauseProblem, OpenMpAnalysis.Result omp) {
        ComputationalImbalance.addTo(cube);
        return conclude(origin, partialReasons, defs, tree, facts, cube, ws, rootCauseProblem, omp);
    }

    /**
     * As {@link #complete}, for a cube that already holds the computational imbalance heuristic (an engine that
     * derived it where the rows are): freezes the cube, states the facts and warnings.
     */
    public static AnalysisResult conclude(String origin, List<String> partialReasons, TraceDefinitions defs,
                                          CallTree tree, ReplayFacts facts, SeverityCube cube, WaitStates.Result ws,
                                          String rootCauseProblem) {
        return conclude(origin, partialReasons, defs, tree, facts, cube, ws, rootCauseProblem,
                new OpenMpAnalysis.Result(false, List.of()));
    }

    /** As above, with what the OpenMP level found it could not analyse ({@code omp}). */
    public static AnalysisResult conclude(String origin, List<String> partialReasons, TraceDefinitions defs,
                                          CallTree tree, ReplayFacts facts, SeverityCube cube, WaitStates.Result ws,
                                          String rootCauseProblem, OpenMpAnalysis.Result omp) {
        if (rootCauseProblem != null) {
            // the cube must not claim causes it does not hold: zeros would read as "nothing delays anyone"
            cube.setAttribute(ROOT_CAUSES_ATTRIBUTE, ROOT_CAUSES_NOT_COMPUTED);
            cube.setAttribute(ROOT_CAUSES_PROBLEM_ATTRIBUTE, rootCauseProblem);
        }
        cube.freeze();

        TraceSummary summary = summary(defs, tree, facts, origin);
        ResultBounds.check(cube, summary.durationSeconds());
        List<String> warnings = new ArrayList<>();
        // a lenient read that skipped or dropped records makes every number below partial: say so first
        for (String why : partialReasons) {
            warnings.add("partial result: " + why);
        }
        warnings.addAll(warnings(facts, summary, ws.init(), ws.fin()));
        for (String why : omp.problems()) {
            warnings.add("OpenMP: " + why);
        }
        String other = OtherParadigms.sentence(cube);
        if (other != null) {
            warnings.add(other);
        }
        double oneSided = cube.total(MetricTree.MPI_RMA_SYNCHRONIZATION) + cube.total(MetricTree.MPI_RMA_COMMUNICATION)
                + cube.total(MetricTree.MPI_MGMT_WIN);
        if (oneSided > 0) {
            // the metrics exist (Scalasca's tree) but the one-sided records are not replayed: zeros there mean "not
            // analysed", and the report must say so rather than let them read as "no waiting"
            warnings.add(String.format(java.util.Locale.ROOT, "%.6f s is spent in one-sided MPI calls (windows, puts, "
                    + "gets, synchronization): their wait states (Late Post, Early Wait, Wait at Fence, Lock Contention, "
                    + "...) and bytes are not analysed and show as zero", oneSided));
        }
        String negativeIntra = negativeIntraPartitionImbalance(cube);
        if (negativeIntra != null) {
            warnings.add(negativeIntra);
        }
        if (rootCauseProblem != null) {
            warnings.add(ROOT_CAUSES_WARNING + rootCauseProblem);
        }
        Map<String, Long> counts = new LinkedHashMap<>();
        long[] c = ws.instanceCounts();
        for (int m = 0; m < MetricTree.COUNT; m++) {
            if (c[m] != 0) {
                counts.put(MetricTree.ALL.get(m).uniqueName(), c[m]);
            }
        }
        return new AnalysisResult(cube, summary, ClockViolations.of(ws.violations()), ws.instances(), warnings,
                counts, communicators(defs, facts.hasMpi(), ws.communicators()));
    }

    /**
     * The sentence for locations whose intra-partition imbalance is negative, or null: Scalasca's remapping defines it
     * as the critical imbalance impact less the inter-partition imbalance, and where the inter-partition share that
     * Scalasca's critical-path analysis gives a call path exceeds its impact, the difference is negative (seen on a
     * recorded MPI+Pthreads run, samples/recorded/pthread-more). The values are kept as Scalasca's, and said to be so.
     */
    static String negativeIntraPartitionImbalance(SeverityCube cube) {
        double[] v = cube.perLocation(MetricTree.INTRA_PARTITION_IMBALANCE);
        int negative = 0;
        double lowest = 0;
        for (double x : v) {
            if (x < 0) {
                negative++;
                lowest = Math.min(lowest, x);
            }
        }
        if (negative == 0) {
            return null;
        }
        return String.format(java.util.Locale.ROOT, "intra-partition imbalance is negative on %d location(s), down "
                + "to %.3e s: it is the critical imbalance impact less the inter-partition imbalance, and Scalasca's "
                + "rules give some call paths more inter-partition imbalance than impact; the values are Scalasca's",
                negative, lowest);
    }

    /** The OpenMP task records (creation, switch, completion) a read of the trace skipped. */
    public static long taskRecords(TraceDefinitions defs) {
        long tasks = 0;
        for (var e : defs.skippedRecords().entrySet()) {
            if (e.getKey().contains("TASK")) {
                tasks += e.getValue();
            }
        }
        return tasks;
    }

    /**
     * The OpenMP level's result with a sentence on task records, which the trace model does not carry: a run with
     * OpenMP tasks is analysed as if each task's time belonged to the thread that ran it, under whatever call path it
     * ran in; the barrier waiting leaves out the tasks run inside a barrier, as Scalasca's does.
     * The count comes from the reads of the trace: one machine's, or those of many (a distributed engine).
     */
    public static OpenMpAnalysis.Result withTaskRecords(OpenMpAnalysis.Result omp, long tasks) {
        if (tasks == 0) {
            return omp;
        }
        List<String> problems = new ArrayList<>(omp.problems());
        problems.add(tasks + " OpenMP task records are not analysed: a task's time counts on the thread and under"
                + " the call path where it ran (Scalasca gives tasks a call tree of their own), and a task suspended"
                + " and resumed is not followed; barrier waiting leaves out the tasks run inside the barrier, as"
                + " Scalasca's does");
        return new OpenMpAnalysis.Result(omp.hasOpenMp(), problems);
    }

    /** Every communicator with its wait states in seconds (ticks summed exactly, converted once). */
    private static List<CommunicatorWaits> communicators(TraceDefinitions defs, boolean hasMpi, long[][] ticks) {
        List<CommunicatorWaits> out = new ArrayList<>();
        if (!hasMpi) {
            return out;
        }
        double tps = defs.clock().ticksPerSecond();
        for (int c = 0; c < defs.communicators().size(); c++) {
            Map<String, Double> metrics = new LinkedHashMap<>();
            long[] row = c < ticks.length ? ticks[c] : null;
            if (row != null) {
                for (int m : CommunicatorWaits.METRICS) {
                    if (row[m] != 0) {
                        metrics.put(MetricTree.ALL.get(m).uniqueName(), row[m] / tps);
                    }
                }
            }
            var comm = defs.communicator(c);
            out.add(new CommunicatorWaits(c, comm.name(), comm.members(), metrics));
        }
        return out;
    }

    /** The cube before any severity is booked: metric tree, call tree, system tree and attributes. */
    public static SeverityCube emptyCube(TraceDefinitions defs, RegionTable regions, CallTree tree, String origin,
                                         boolean rootCauses) {
        List<CallPath> paths = new ArrayList<>(tree.size());
        for (int i = 0; i < tree.size(); i++) {
            paths.add(new CallPath(i, tree.parent(i), tree.region(i), 0));
        }
        Map<Integer, List<dev.straggler.trace.SystemNode>> hosts = new java.util.HashMap<>();
        for (var p : defs.processes()) {
            hosts.putIfAbsent(p.rank(), p.path());
        }
        List<SystemLocation> locations = new ArrayList<>();
        for (Location l : defs.locations()) {
            locations.add(new SystemLocation(l.index(), l.rank(), l.thread(), l.name(),
                    hosts.getOrDefault(l.rank(), List.of())));
        }
        Map<String, String> attrs = new LinkedHashMap<>();
        attrs.put("creator", "Straggler");
        attrs.put("origin", origin);
        attrs.put("application", defs.experiment().application());
        attrs.put("ticks_per_second", Long.toString(defs.clock().ticksPerSecond()));
        if (rootCauses) {
            attrs.put(ROOT_CAUSES_ATTRIBUTE, ROOT_CAUSES_ANALYSED);
        }
        SeverityCube cube = new SeverityCube(MetricTree.ALL, regions.regions(), paths, locations, attrs);
        if (regions.regions().stream().noneMatch(r -> r.paradigm() == dev.straggler.trace.Paradigm.OPENMP)) {
            // as Scalasca's remapping, a run without OpenMP has no OpenMP metrics (nor OpenMP delay costs)
            for (int m = 0; m < MetricTree.COUNT; m++) {
                String name = MetricTree.ALL.get(m).uniqueName();
                if (name.startsWith("omp_") || name.startsWith("delay_omp")) {
                    cube.omit(m);
                }
            }
        }
        boolean pthreads = false;
        for (int i = 0; i < tree.size() && !pthreads; i++) {
            pthreads = regions.region(tree.region(i)).paradigm() == dev.straggler.trace.Paradigm.PTHREAD;
        }
        if (!pthreads) {
            // the remapping's includesPthread: a call path of a Pthread region, else no POSIX threads metrics
            for (int m = 0; m < MetricTree.COUNT; m++) {
                if (MetricTree.ALL.get(m).uniqueName().startsWith("pthread_")) {
                    cube.omit(m);
                }
            }
        }
        int[] ids = new int[tree.size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = tree.creationId(i);
        }
        // cnode ids as Scalasca numbers them, so that our cubes and Scalasca's pair element by element
        cube.setCnodeIds(ids);
        return cube;
    }

    private static TraceSummary summary(TraceDefinitions defs, CallTree tree, ReplayFacts f, String origin) {
        Clock clock = defs.clock();
        double duration = f.firstTime() <= f.lastTime() ? clock.seconds(f.lastTime() - f.firstTime()) : 0;
        Map<String, Long> anomalies = new LinkedHashMap<>();
        for (Map.Entry<Anomaly, Long> e : f.anomalies().entrySet()) {
            anomalies.put(e.getKey().description(), e.getValue());
        }
        return new TraceSummary(origin, defs.experiment().application(), defs.rankCount(),
                defs.locations().size(), f.events(), duration, clock.ticksPerSecond(), f.hasMpi(),
                tree.size(), f.matchedMessages(), f.unmatchedSends(), f.unmatchedReceives(), f.collectiveInstances(),
                f.unmatchedCollectiveRecords(), f.recordBytes(), anomalies);
    }

    private static List<String> warnings(ReplayFacts facts, TraceSummary s, InitFinalize.Reference init,
                                         InitFinalize.Reference fin) {
        List<String> w = new ArrayList<>();
        if (!s.hasMpi()) {
            // MPI only on threads other than the masters is skipped (and counted among the anomalies): the trace
            // has MPI, its analysis has none
            boolean offMaster = s.anomalies().containsKey(
                    Anomaly.MPI_OFF_MASTER_THREAD.description());
            w.add(offMaster ? NO_MASTER_MPI_WARNING : NO_MPI_WARNING);
            return addAnomalies(w, s);
        }
        if (s.unmatchedSends() > 0) {
            w.add(s.unmatchedSends() + " send(s) without a matching receive (ignored)");
        }
        if (s.unmatchedReceives() > 0) {
            w.add(s.unmatchedReceives() + " receive(s) without a matching send (skipped)");
        }
        if (s.unmatchedCollectives() > 0) {
            w.add(s.unmatchedCollectives() + " collective record(s) outside a complete instance (skipped)");
        }
        if (facts.incompleteCommunicators() > 0) {
            w.add(facts.incompleteCommunicators()
                    + " communicator(s) with members missing from the trace (their collectives are skipped)");
        }
        if (facts.anyInit() && !init.complete()) {
            w.add("MPI_Init is missing on some ranks: Initialization Completion not computed");
        }
        if (facts.anyFinalize() && !fin.complete()) {
            w.add("MPI_Finalize is missing on some ranks: Wait at Finalize not computed");
        }
        return addAnomalies(w, s);
    }

    private static List<String> addAnomalies(List<String> w, TraceSummary s) {
        s.anomalies().forEach((what, count) -> w.add(count + " × " + what));
        return w;
    }
}
