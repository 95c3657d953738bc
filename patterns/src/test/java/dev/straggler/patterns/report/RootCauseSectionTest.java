package dev.straggler.patterns.report;

import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.MetricTree;
import dev.straggler.patterns.cube.CallPath;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.patterns.cube.SystemLocation;
import dev.straggler.trace.Paradigm;
import dev.straggler.trace.Region;
import dev.straggler.trace.RegionRole;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** The critical-path part of the terminal's root-cause section, on a cube with hand-chosen values. */
class RootCauseSectionTest {
    private static final int MAIN = 0, INIT = 1, WORK = 2, RECV = 3, IO = 4, SETUP = 5, FINALIZE = 6;

    /**
     * Four ranks; call paths main › {MPI_Init, work, MPI_Recv, io, setup, MPI_Finalize}. Time outside wait states per
     * rank (average): MPI_Init 1 s each (1 s), work 3, 2, 4, 3 s (3 s), MPI_Recv 0.5 s each after 4 s of Late Sender,
     * io 0.4 s, setup 0.2 s, MPI_Finalize 0.1 s. Critical path 6 s: work 4 s (rank 2, 1 s above its average: a
     * critical-path imbalance of 1 s), MPI_Init 0.9 s (below its average 1 s), MPI_Recv 0.5 s (equal to it), io 0.3 s,
     * setup 0.2 s, MPI_Finalize 0.1 s. Critical imbalance impact: 0.3 s on MPI_Init, 0.2 s on work.
     */
    static SeverityCube cube() {
        return cube(false);
    }

    /**
     * {@link #cube()}, with {@code idleDelay}: a run with OpenMP (0.1 s of OpenMP management on rank 0's setup) whose
     * threads idle 0.5 s, caused by 0.5 s of short-term idle-thread delay on rank 0's setup.
     */
    static SeverityCube cube(boolean idleDelay) {
        return cube(idleDelay, false);
    }

    /**
     * {@link #cube(boolean)}, with {@code uncovered}: 0.5 s of Early Scan on rank 1 and 0.05 s of waiting at
     * MPI_Finalize on rank 3, kinds of waiting that no delay rule explains.
     */
    static SeverityCube cube(boolean idleDelay, boolean uncovered) {
        String[] names = {"main", "MPI_Init", "work", "MPI_Recv", "io", "setup", "MPI_Finalize"};
        List<Region> regions = new ArrayList<>();
        List<CallPath> paths = new ArrayList<>();
        for (int i = 0; i < names.length; i++) {
            boolean mpi = names[i].startsWith("MPI_");
            regions.add(new Region(i, names[i], names[i], mpi ? "MPI" : "app.c", 0, 0,
                    mpi ? Paradigm.MPI : Paradigm.USER, mpi ? RegionRole.POINT2POINT : RegionRole.FUNCTION));
            paths.add(new CallPath(i, i == 0 ? -1 : MAIN, i, 0));
        }
        List<SystemLocation> locs = new ArrayList<>();
        for (int r = 0; r < 4; r++) {
            locs.add(new SystemLocation(r, r, 0, "Master thread"));
        }
        SeverityCube c = new SeverityCube(MetricTree.ALL, regions, paths, locs,
                Map.of(Analysis.ROOT_CAUSES_ATTRIBUTE, Analysis.ROOT_CAUSES_ANALYSED));
        row(c, MetricTree.TIME, MAIN, 0.1, 0.1, 0.1, 0.1);
        row(c, MetricTree.TIME, INIT, 1, 1, 1, 1);
        row(c, MetricTree.TIME, WORK, 3, 2, 4, 3);
        row(c, MetricTree.TIME, RECV, 0.5, 1.5, 1.5, 2.5);
        row(c, MetricTree.MPI_LATESENDER, RECV, 0, 1, 1, 2);
        // the analysis books the aggregates of the remapping too (delay = its delay_* parts)
        row(c, MetricTree.DELAY_LATESENDER, WORK, 0, 0, 3, 0);
        row(c, MetricTree.DELAY_MPI, WORK, 0, 0, 3, 0);
        row(c, MetricTree.DELAY, WORK, 0, 0, 3, 0);
        row(c, MetricTree.TIME, IO, 0.4, 0.4, 0.4, 0.4);
        row(c, MetricTree.TIME, SETUP, 0.2, 0.2, 0.2, 0.2);
        row(c, MetricTree.TIME, FINALIZE, 0.1, 0.1, 0.1, 0.1);
        row(c, MetricTree.CRITICAL_PATH, INIT, 0.9, 0, 0, 0);
        row(c, MetricTree.CRITICAL_PATH, WORK, 0, 0, 4, 0);
        row(c, MetricTree.CRITICAL_PATH, RECV, 0, 0, 0, 0.5);
        row(c, MetricTree.CRITICAL_PATH, IO, 0, 0.3, 0, 0);
        row(c, MetricTree.CRITICAL_PATH, SETUP, 0.2, 0, 0, 0);
        row(c, MetricTree.CRITICAL_PATH, FINALIZE, 0, 0, 0, 0.1);
        row(c, MetricTree.CRITICAL_PATH_IMBALANCE, WORK, 0, 0, 1, 0);
        row(c, MetricTree.CRITICAL_IMBALANCE_IMPACT, INIT, 0, 0.3, 0, 0);
        row(c, MetricTree.CRITICAL_IMBALANCE_IMPACT, WORK, 0.2, 0, 0, 0);
        if (idleDelay) {
            row(c, MetricTree.OMP_MANAGEMENT, SETUP, 0.1, 0, 0, 0);
            row(c, MetricTree.OMP_TIME, SETUP, 0.1, 0, 0, 0);
            row(c, MetricTree.OMP_IDLE_THREADS, SETUP, 0, 0.5, 0, 0);
            row(c, MetricTree.DELAY_OMPIDLE, SETUP, 0.5, 0, 0, 0);
            row(c, MetricTree.DELAY_OMPIDLE_AGGREGATE, SETUP, 0.5, 0, 0, 0);
            row(c, MetricTree.DELAY_OMP, SETUP, 0.5, 0, 0, 0);
            row(c, MetricTree.DELAY, SETUP, 0.5, 0, 0, 0);
        }
        if (uncovered) {
            row(c, MetricTree.MPI_EARLYSCAN, RECV, 0, 0.5, 0, 0);
            row(c, MetricTree.MPI_FINALIZE_WAIT, FINALIZE, 0, 0, 0, 0.05);
        }
        return c.freeze();
    }

    private static void row(SeverityCube c, int metric, int path, double... perRank) {
        for (int l = 0; l < perRank.length; l++) {
            c.set(metric, path, l, perRank[l]);
        }
    }

    private static String section(boolean all) {
        StringBuilder out = new StringBuilder();
        RootCauseSection.render(cube(), true, 100, all, out);
        return out.toString();
    }

    /** The section with its wrapped lines joined, to find sentences whatever the width. */
    private static String flat(String s) {
        return s.replaceAll("\\s*\\n\\s*", " ");
    }

    /** The headline's seconds are the delay and the waiting it is a share of, each named, not one for the other. */
    @Test
    void theCausesHeadlineGivesTheDelayAndTheWaitingItIsAShareOf() {
        String s = flat(section(false));
        assertTrue(s.contains("75.0% of all waiting (3.000000 s of 4.000000 s) is caused by delays on the processes "
                + "waited for"), s);
    }

    /**
     * Waiting that no delay rule covers (Early Scan, Wait at Finalize) is not in the headline's denominator, and the
     * label says so instead of "all waiting".
     */
    @Test
    void theHeadlineNamesTheWaitingNoDelayRuleCovers() {
        StringBuilder out = new StringBuilder();
        RootCauseSection.render(cube(false, true), true, 100, false, out);
        String s = flat(out.toString());
        assertTrue(s.contains("75.0% of the waiting in MPI except Early Scan and Wait at Finalize (3.000000 s of "
                + "4.000000 s) is caused by delays"), s);
        assertFalse(s.contains("all waiting"), s);
    }

    /** A cause's short-term part counts the short-term delays of every kind, OpenMP idle threads included. */
    @Test
    void shortTermDelaysOfOpenMpKindsAreShortTerm() {
        StringBuilder out = new StringBuilder();
        RootCauseSection.render(cube(true), true, 100, true, out);
        String s = flat(out.toString());
        assertTrue(s.contains("main/setup on rank 0: 0.500000 s short-term, 0 s propagated"), s);
    }

    @Test
    void criticalPathLineNamesTheCriticalPathImbalanceAsScalascaDoes() {
        String s = flat(section(false));
        assertTrue(s.contains("Critical path 6.000000 s, of it 1.000000 s (16.7%) critical-path imbalance"), s);
    }

    @Test
    void rowsWithTimeOnThePathButNoImbalanceSayWhy() {
        String s = flat(section(false));
        // MPI_Init: 0.9 s on the path against 1 s on average; MPI_Recv: 0.5 s against 0.5 s
        assertTrue(s.contains("main/MPI_Init: on the critical path 0.900000 s, below its average 1.000000 s per "
                + "process: no critical-path imbalance"), s);
        assertTrue(s.contains("main/MPI_Recv: on the critical path 0.500000 s, equal to its average 0.500000 s per "
                + "process: no critical-path imbalance"), s);
        assertFalse(s.contains("main/work: on the critical path"), "work has an imbalance: no footnote\n" + s);
    }

    @Test
    void criticalPathRowsBeyondTheLimitAreCounted() {
        // six call paths on the path, five listed: MPI_Finalize's 0.1 s (1.7 % of 6 s) is counted
        String s = flat(section(false));
        assertFalse(s.contains("main/MPI_Finalize"), s);
        assertTrue(s.contains("+1 more call path with 0.100000 s (1.7% of the critical path) (--all lists them)"), s);
        assertTrue(section(true).contains("main/MPI_Finalize"));
    }

    /** Scalasca's documentation names of the metrics that contain the word (CriticalPath.pattern, Imbalance.pattern). */
    private static final Pattern NAMED = Pattern.compile("(?i)critical-path imbalance|critical imbalance impact"
            + "|intra-partition imbalance|inter-partition imbalance|computational imbalance");

    /** Fails unless every "imbalance" in {@code text} is part of one metric's name. */
    static void everyImbalanceIsNamed(String text) {
        String rest = NAMED.matcher(text).replaceAll("");
        Matcher m = Pattern.compile("(?i)\\bimbalance").matcher(rest);
        if (m.find()) {
            fail("\"imbalance\" not part of a Scalasca metric name near: "
                    + rest.substring(Math.max(0, m.start() - 60), Math.min(rest.length(), m.end() + 60)));
        }
    }

    @Test
    void theWordImbalanceOnlyOccursInTheNameOfOneMetric() {
        everyImbalanceIsNamed(section(false));
        everyImbalanceIsNamed(section(true));
    }
}
