package dev.straggler.patterns.focus;

import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.AnalysisOptions;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.trace.TraceSource;
import dev.straggler.trace.Traces;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Which call paths a focus of analysis covers, on a two-rank trace whose call tree is main > {MPI_Init,
 * solve > {compute, MPI_Send or MPI_Recv, solve > compute}, MPI_Finalize}; times in ms.
 */
class FocusTest {
    @TempDir
    static Path tmp;

    static SeverityCube cube;

    @BeforeAll
    static void analyse() throws IOException {
        Path f = tmp.resolve("focus.txt");
        StringBuilder events = new StringBuilder();
        for (int r = 0; r < 2; r++) {
            String call = r == 0 ? "MPI_Send" : "MPI_Recv";
            String record = r == 0 ? "MPI_SEND to=1 comm=0 tag=1 bytes=8" : "MPI_RECV from=0 comm=0 tag=1 bytes=8";
            events.append(String.join("\n",
                    r + " 0 ENTER main", r + " 0 ENTER MPI_Init", r + " 100 LEAVE MPI_Init",
                    r + " 100 ENTER solve", r + " 100 ENTER compute", r + " 110 LEAVE compute",
                    r + " 110 ENTER " + call, r + " 111 " + record, r + " 112 LEAVE " + call,
                    r + " 112 ENTER solve", r + " 112 ENTER compute", r + " 120 LEAVE compute", r + " 120 LEAVE solve",
                    r + " 120 LEAVE solve", r + " 120 ENTER MPI_Finalize", r + " 150 LEAVE MPI_Finalize",
                    r + " 150 LEAVE main")).append('\n');
        }
        Files.writeString(f, """
                straggler-text 1
                clock resolution=1000 offset=0 length=150
                experiment application=focus processes=2
                region 0 main paradigm=USER role=FUNCTION
                region 1 solve paradigm=USER role=FUNCTION
                region 2 compute paradigm=USER role=FUNCTION
                region 3 MPI_Send paradigm=MPI role=POINT2POINT file=MPI
                region 4 MPI_Recv paradigm=MPI role=POINT2POINT file=MPI
                region 5 MPI_Init paradigm=MPI role=FUNCTION file=MPI
                region 6 MPI_Finalize paradigm=MPI role=FUNCTION file=MPI
                location 0 rank=0 thread=0 name="Master thread"
                location 1 rank=1 thread=0 name="Master thread"
                comm 0 MPI_COMM_WORLD members=0,1
                """ + events);
        try (TraceSource s = Traces.open(f)) {
            cube = Analysis.run(s, AnalysisOptions.defaults()).cube();
        }
    }

    /** The call paths a focus covers, as '/'-joined region names. */
    private static Set<String> paths(Focus f) {
        Set<String> out = new TreeSet<>();
        for (int c : f.select(cube).callPaths()) {
            out.add(String.join("/", cube.pathNames(c)));
        }
        return out;
    }

    private static final Set<String> ALL_PATHS = Set.of("main", "main/MPI_Init", "main/solve", "main/solve/compute",
            "main/solve/MPI_Send", "main/solve/MPI_Recv", "main/solve/solve", "main/solve/solve/compute",
            "main/MPI_Finalize");

    @Test
    void wholeRunCoversEveryCallPath() {
        assertEquals(new TreeSet<>(ALL_PATHS), paths(Focus.ALL));
        assertTrue(Focus.ALL.select(cube).coversAll());
        assertEquals(cube, Focus.ALL.select(cube).cube(), "nothing to remove: the cube itself");
    }

    @Test
    void defaultFocusLeavesOutMpiInitAndMpiFinalize() {
        Set<String> want = new TreeSet<>(ALL_PATHS);
        want.remove("main/MPI_Init");
        want.remove("main/MPI_Finalize");
        assertEquals(want, paths(Focus.DEFAULT));
    }

    @Test
    void defaultFocusCubeHoldsOnlyTheTimeOutsideInitAndFinalize() {
        Focus.Selection s = Focus.DEFAULT.select(cube);
        // per rank 150 ms, of which 100 in MPI_Init and 30 in MPI_Finalize
        assertEquals(2 * 20.0e-3, s.cube().total("time"), 1e-12);
        assertEquals(2 * 130.0e-3, s.outside("time"), 1e-12);
        assertEquals(2 * 150.0e-3, cube.total("time"), 1e-12, "the whole cube is unchanged");
    }

    @Test
    void aCallPathFromTheRootCoversItsSubtree() {
        assertEquals(Set.of("main/solve", "main/solve/compute", "main/solve/MPI_Send", "main/solve/MPI_Recv",
                "main/solve/solve", "main/solve/solve/compute"), paths(Focus.parse("main/solve")));
    }

    @Test
    void aTailOfACallPathMatchesWhereverItEnds() {
        assertEquals(Set.of("main/solve/solve", "main/solve/solve/compute"), paths(Focus.parse("solve/solve")));
    }

    @Test
    void aRegionNameCoversEveryCallPathOfItCountingNestedOnesOnce() {
        // solve also runs inside solve: the outer subtree already holds the inner one
        assertEquals(paths(Focus.parse("main/solve")), paths(Focus.parse("solve")));
        Focus.Selection s = Focus.parse("solve").select(cube);
        assertEquals(2 * 20.0e-3, s.total("time"), 1e-12, "20 ms per rank, not counted twice");
    }

    @Test
    void aFocusThatNamesNothingIsOneClearError() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Focus.parse("main/nosuch").select(cube));
        assertTrue(e.getMessage().contains("--focus 'main/nosuch' names no call path"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Focus.parse("main//solve").select(cube));
    }

    @Test
    void scalingSeriesCountMpiInitNeitherAsComputationNorAsMpi() {
        var pts = dev.straggler.patterns.scaling.ScalingInputs.modelPoints(List.of(cube), new int[]{2}, Focus.DEFAULT);
        // per process: computation 10 + 8 ms (compute), MPI 2 ms (the send or receive), time 20 ms
        assertEquals(20.0e-3, pts.get(0).total(), 1e-12);
        assertEquals(18.0e-3, pts.get(0).computation(), 1e-12);
        assertEquals(2.0e-3, pts.get(0).communication(), 1e-12);
        var series = dev.straggler.patterns.scaling.ScalingInputs.patternSeries(List.of(cube, cube), new int[]{2, 2},
                Focus.DEFAULT);
        var init = series.stream().filter(x -> x.metric().equals("init_finalize")).findFirst().orElseThrow();
        assertEquals(130.0e-3, init.values()[0], 1e-12, "MPI_Init and MPI_Finalize: a series of their own");
        var comp = series.stream().filter(x -> x.metric().equals("comp") && x.callPath().isEmpty()).findFirst().orElseThrow();
        assertEquals(18.0e-3, comp.values()[0], 1e-12);
    }

    @Test
    void wholeRunSeriesCountMpiInitAsMpiAsScalascasTreeDoes() {
        var pts = dev.straggler.patterns.scaling.ScalingInputs.modelPoints(List.of(cube), new int[]{2}, Focus.ALL);
        assertEquals(18.0e-3, pts.get(0).computation(), 1e-12, "never the time in MPI_Init");
        assertEquals(132.0e-3, pts.get(0).communication(), 1e-12);
    }

    @Test
    void keywordsAreCaseInsensitive() {
        assertEquals(Focus.ALL, Focus.parse("ALL"));
        assertEquals(Focus.DEFAULT, Focus.parse(" default "));
        assertEquals(List.of(Focus.Kind.PATH), List.of(Focus.parse("main").kind()));
    }
}
