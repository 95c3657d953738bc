package dev.straggler.cli;

import dev.straggler.cli.CliTest.Run;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static dev.straggler.cli.CliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a new user sees is complete and says what it does not cover. */
class HonestOutputTest {
    @TempDir
    Path tmp;

    /** Two ranks; each runs a CUDA kernel launch of 8 ms between MPI_Init and a barrier. */
    private Path hybrid() throws Exception {
        return Files.writeString(tmp.resolve("hybrid.txt"), """
                straggler-text 1
                clock resolution=1000000 offset=0 length=10000
                region 0 main paradigm=USER role=FUNCTION
                region 1 cudaLaunch paradigm=CUDA role=FUNCTION
                region 2 MPI_Init paradigm=MPI role=FUNCTION file=MPI
                region 3 MPI_Barrier paradigm=MPI role=BARRIER file=MPI
                location 0 rank=0 thread=0
                location 1 rank=1 thread=0
                comm 0 MPI_COMM_WORLD members=0,1
                0 0 ENTER main
                0 0 ENTER MPI_Init
                0 1000 LEAVE MPI_Init
                0 1000 ENTER cudaLaunch
                0 9000 LEAVE cudaLaunch
                0 9000 ENTER MPI_Barrier
                0 9001 MPI_COLLECTIVE_BEGIN
                0 9500 MPI_COLLECTIVE_END op=BARRIER comm=0 sent=0 received=0
                0 9500 LEAVE MPI_Barrier
                0 10000 LEAVE main
                1 0 ENTER main
                1 0 ENTER MPI_Init
                1 1000 LEAVE MPI_Init
                1 1000 ENTER cudaLaunch
                1 9000 LEAVE cudaLaunch
                1 9000 ENTER MPI_Barrier
                1 9001 MPI_COLLECTIVE_BEGIN
                1 9500 MPI_COLLECTIVE_END op=BARRIER comm=0 sent=0 received=0
                1 9500 LEAVE MPI_Barrier
                1 10000 LEAVE main
                """);
    }

    @Test
    void timeInOtherRuntimesIsShownAndSaidToBeOutsideTheAnalyses() throws Exception {
        Run r = run("analyze", hybrid().toString(), "-q");
        assertEquals(0, r.code(), r.err());
        // 2 × 8 ms of 2 × 10 ms
        assertTrue(r.out().contains("warning: 80.0% of the execution time (0.016000 s: CUDA 0.016000 s) is in other"),
                r.out());
        assertTrue(r.out().matches("(?s).*\\n    CUDA \\(not analysed for waiting\\) +0\\.016000 +80\\.0%\\n.*"), r.out());
    }

    @Test
    void meanOfRunsWithDifferentRankCountsSaysSo() throws Exception {
        Path a = tmp.resolve("a.json");
        Path b = tmp.resolve("b.json");
        assertEquals(0, run("analyze", CliTest.SAMPLE.toString(), "-q", "--json", a.toString()).code());
        assertEquals(0, run("analyze", hybrid().toString(), "-q", "--json", b.toString()).code());
        Run same = run("mean", a.toString(), a.toString(), "-o", tmp.resolve("m1.cubex").toString());
        assertEquals(0, same.code(), same.err());
        assertFalse(same.err().contains("warning"), same.err());
        // the sample has 2 ranks too: compare with a 4-rank run
        Path c = tmp.resolve("four");
        assertEquals(0, run("generate", "late-sender", "-n", "4", "-o", c.toString(), "-q").code());
        Run diff = run("mean", a.toString(), c.toString(), "-o", tmp.resolve("m2.cubex").toString(), "-q");
        assertEquals(0, diff.code(), diff.err());
        assertTrue(diff.err().contains("warning: mean of experiments with different numbers of ranks (2 ranks: " + a
                + "; 4 ranks: " + c + "): locations are combined rank by rank, so ranks missing from an experiment count "
                + "as zero in the mean"), diff.err());
    }

    @Test
    void scenarioListNamesTheCommonParametersOnce() {
        Run r = run("generate", "--list");
        assertEquals(0, r.code());
        long bandwidthLines = r.out().lines().filter(l -> l.strip().startsWith("bandwidth ")).count();
        // once in the common list, plus the few scenarios whose default differs (the ideal-network families)
        assertTrue(bandwidthLines < 10, bandwidthLines + " lines for 'bandwidth'");
        assertTrue(r.out().contains("Parameters of every scenario (network model and clock errors)"), r.out());
    }

    @Test
    void nothingIsCutWhenTheOutputIsNotATerminal() {
        Run r = run("analyze", CliTest.SAMPLE.toString(), "-q", "--width", "60");
        assertEquals(0, r.code());
        assertFalse(r.out().contains("…"), r.out());
        assertTrue(r.out().contains("late-sender: 2 ranks, 2 locations,"), r.out());
        assertTrue(r.out().contains("collective\n  operations") || r.out().contains("collective operations"), r.out());
        // wrapping keeps the spacing inside a line
        Run wide = run("analyze", CliTest.SAMPLE.toString(), "-q", "--width", "100");
        assertTrue(wide.out().contains("Visits 14   MPI synchronizations 2   communications 2   bytes 8,192"), wide.out());
    }
}
