package dev.straggler.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.straggler.cli.CliTest.Run;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static dev.straggler.cli.CliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * IPM's breakdown on a hand-written trace (µs ticks). Phase {@code solve}: rank 0 computes 3 ms, writes a file for
 * 0.5 ms (MPI_File_write) and enters the closing MPI_Barrier at 3.5 ms; rank 1 computes 4.5 ms and enters it at
 * 4.5 ms; both leave at 5 ms. So rank 0: CALC 3, MPI 1.5, I/O 0.5, LBST 1 (its wait at the barrier); rank 1: CALC
 * 4.5, MPI 0.5, I/O 0, LBST 0. Phase {@code output}: 1 ms of computation on each rank.
 */
class PhasesCommandTest {
    @TempDir
    Path tmp;

    private Path trace(int offset) throws Exception {
        String t = """
                straggler-text 1
                clock resolution=1000000 offset=0 length=20000
                experiment application=phases processes=2
                region 0 main paradigm=USER role=FUNCTION file=p.c lines=1-9
                region 1 solve paradigm=USER role=FUNCTION file=p.c lines=1-9
                region 2 work paradigm=USER role=FUNCTION file=p.c lines=1-9
                region 3 MPI_File_write paradigm=MPI role=FILE_IO file=MPI
                region 4 MPI_Barrier paradigm=MPI role=BARRIER file=MPI
                region 5 output paradigm=USER role=FUNCTION file=p.c lines=1-9
                location 0 rank=0 thread=0 name="Master thread"
                location 1 rank=1 thread=0 name="Master thread"
                comm 0 MPI_COMM_WORLD members=0,1
                0 0 ENTER main
                0 0 ENTER solve
                0 0 ENTER work
                0 3000 LEAVE work
                0 3000 ENTER MPI_File_write
                0 3500 LEAVE MPI_File_write
                0 3500 ENTER MPI_Barrier
                0 3500 MPI_COLLECTIVE_BEGIN
                0 5000 MPI_COLLECTIVE_END op=BARRIER comm=0 sent=0 received=0
                0 5000 LEAVE MPI_Barrier
                0 5000 LEAVE solve
                0 5000 ENTER output
                0 6000 LEAVE output
                0 6000 LEAVE main
                1 0 ENTER main
                1 0 ENTER solve
                1 0 ENTER work
                1 4500 LEAVE work
                1 4500 ENTER MPI_Barrier
                1 4500 MPI_COLLECTIVE_BEGIN
                1 5000 MPI_COLLECTIVE_END op=BARRIER comm=0 sent=0 received=0
                1 5000 LEAVE MPI_Barrier
                1 5000 LEAVE solve
                1 5000 ENTER output
                1 6000 LEAVE output
                1 6000 LEAVE main
                """;
        return Files.writeString(tmp.resolve("phases" + offset + ".txt"), t);
    }

    @Test
    void phaseSplitsIntoCalcMpiIoAndLbstPerRank() throws Exception {
        Path json = tmp.resolve("p.json");
        Run r = run("phases", trace(0).toString(), "--phase", "solve", "--phase", "output", "--json", json.toString());
        assertEquals(0, r.code(), r.err());
        JsonNode solve = new ObjectMapper().readTree(json.toFile()).get("experiments").get(0).get("phases").get(0);
        JsonNode r0 = solve.get("perRank").get(0);
        JsonNode r1 = solve.get("perRank").get(1);
        assertEquals(0.005, r0.get("time").asDouble(), 1e-12);
        assertEquals(0.003, r0.get("calc").asDouble(), 1e-12);
        assertEquals(0.0015, r0.get("mpi").asDouble(), 1e-12);
        assertEquals(0.0005, r0.get("io").asDouble(), 1e-12);
        assertEquals(0.001, r0.get("lbst").asDouble(), 1e-12);
        assertEquals(0.0045, r1.get("calc").asDouble(), 1e-12);
        assertEquals(0.0005, r1.get("mpi").asDouble(), 1e-12);
        assertEquals(0, r1.get("lbst").asDouble(), 1e-12);
        // all ranks: 10 ms, CALC 7.5 (75 %), MPI 2 (20 %), I/O 0.5 (5 %), LBST 1 (10 %)
        assertEquals(75.0, solve.get("calcPercent").asDouble(), 1e-9);
        assertEquals(20.0, solve.get("mpiPercent").asDouble(), 1e-9);
        assertEquals(5.0, solve.get("ioPercent").asDouble(), 1e-9);
        assertEquals(10.0, solve.get("lbstPercent").asDouble(), 1e-9);
        assertTrue(r.out().contains("0.007500   75.0%   0.002000   20.0%   0.000500    5.0%   0.001000   10.0%"),
                r.out());
    }

    @Test
    void unknownPhaseIsAOneLineErrorListingTheRegions() throws Exception {
        Run r = run("phases", trace(0).toString(), "--phase", "dSdC");
        assertEquals(1, r.code());
        assertTrue(r.err().contains("no region 'dSdC'") && r.err().contains("solve"), r.err());
    }

    @Test
    void childrenOfARegionAreThePhases() throws Exception {
        Run r = run("phases", trace(0).toString(), "--phases-under", "main");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("phase solve") && r.out().contains("phase output"), r.out());
    }

    @Test
    void severalExperimentsGiveOneRowEachPerPhase() throws Exception {
        Path json = tmp.resolve("two.json");
        Run r = run("phases", trace(0).toString(), trace(1).toString(), "--phase", "solve", "--json", json.toString());
        assertEquals(0, r.code(), r.err());
        JsonNode exps = new ObjectMapper().readTree(json.toFile()).get("experiments");
        assertEquals(2, exps.size());
        assertTrue(r.out().contains("phases0.txt (2)") && r.out().contains("phases1.txt (2)"), r.out());
        assertTrue(!r.out().contains("rank 0"), "per-rank rows only for a single experiment");
    }
}
