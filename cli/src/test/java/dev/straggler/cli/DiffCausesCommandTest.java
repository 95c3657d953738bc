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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code diff} says why the waiting grew, end to end on two hand-written three-rank traces (ticks of 1 ms). A chain
 * of messages: rank 0 computes in {@code work} for {@code w} ms and sends to rank 1; rank 1 (30 ms of work) waits,
 * spends 3 ms in MPI_Recv, computes {@code q} ms in {@code post} and sends to rank 2, which (30 ms of work) waits.
 * By the definitions of docs/root-causes.md, with no waiting before either wait state:
 * <ul>
 *   <li>rank 1 waits {@code w − 30}: rank 0's excess {@code work}, charged in full as short-term delay;</li>
 *   <li>rank 2 waits {@code w − 30 + 3 + q}: rank 1's non-waiting time since MPI_Init beyond rank 2's (3 ms of
 *   MPI_Recv and {@code q} of {@code post}) is short-term delay on rank 1; the rest, {@code w − 30}, is rank 1's
 *   own waiting propagated, charged to its cause as long-term delay on rank 0's {@code work}.</li>
 * </ul>
 * A: w = 90, q = 20; B: w = 60, q = 10. The delays grow by 70 ms: work +30 short-term and +30 propagated
 * (60/70 = 85.7 %), post +10 short-term (14.3 %), MPI_Recv unchanged.
 */
class DiffCausesCommandTest {
    @TempDir
    Path tmp;

    static String chain(int w, int q) {
        int send0 = 10 + w;
        int leave1 = send0 + 3;
        int send1 = leave1 + q;
        return String.join("\n",
                "straggler-text 1",
                "clock resolution=1000",
                "region 0 main", "region 1 work", "region 2 post",
                "region 3 MPI_Init paradigm=MPI role=FUNCTION file=MPI",
                "region 4 MPI_Send paradigm=MPI role=POINT2POINT file=MPI",
                "region 5 MPI_Recv paradigm=MPI role=POINT2POINT file=MPI",
                "region 6 MPI_Finalize paradigm=MPI role=FUNCTION file=MPI",
                "location 0 rank=0", "location 1 rank=1", "location 2 rank=2",
                "comm 0 MPI_COMM_WORLD members=0,1,2",
                "0 0 ENTER main", "0 0 ENTER MPI_Init", "0 10 LEAVE MPI_Init",
                "0 10 ENTER work", "0 " + send0 + " LEAVE work",
                "0 " + send0 + " ENTER MPI_Send", "0 " + (send0 + 1) + " MPI_SEND to=1 comm=0 tag=0 bytes=8",
                "0 " + (send0 + 2) + " LEAVE MPI_Send",
                "0 " + (send0 + 2) + " ENTER MPI_Finalize", "0 300 LEAVE MPI_Finalize", "0 300 LEAVE main",
                "1 0 ENTER main", "1 0 ENTER MPI_Init", "1 10 LEAVE MPI_Init",
                "1 10 ENTER work", "1 40 LEAVE work",
                "1 40 ENTER MPI_Recv", "1 " + (send0 + 1) + " MPI_RECV from=0 comm=0 tag=0 bytes=8",
                "1 " + leave1 + " LEAVE MPI_Recv",
                "1 " + leave1 + " ENTER post", "1 " + send1 + " LEAVE post",
                "1 " + send1 + " ENTER MPI_Send", "1 " + (send1 + 1) + " MPI_SEND to=2 comm=0 tag=0 bytes=8",
                "1 " + (send1 + 2) + " LEAVE MPI_Send",
                "1 " + (send1 + 2) + " ENTER MPI_Finalize", "1 300 LEAVE MPI_Finalize", "1 300 LEAVE main",
                "2 0 ENTER main", "2 0 ENTER MPI_Init", "2 10 LEAVE MPI_Init",
                "2 10 ENTER work", "2 40 LEAVE work",
                "2 40 ENTER MPI_Recv", "2 " + (send1 + 1) + " MPI_RECV from=1 comm=0 tag=0 bytes=8",
                "2 " + (send1 + 3) + " LEAVE MPI_Recv",
                "2 " + (send1 + 3) + " ENTER MPI_Finalize", "2 300 LEAVE MPI_Finalize", "2 300 LEAVE main", "");
    }

    @Test
    void diffChargesTheGrowthInWaitingToTheDelayingComputationsWithTheirPropagatedPart() throws Exception {
        Path a = Files.writeString(tmp.resolve("a.txt"), chain(90, 20));
        Path b = Files.writeString(tmp.resolve("b.txt"), chain(60, 10));
        Path json = tmp.resolve("d.json");
        Run r = run("diff", a.toString(), b.toString(), "--root-causes", "--json", json.toString(), "-q");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("why: waiting +0.070 s; of the growth in the delays causing it, 85.7 % is caused by "
                + "`\u2026/work` on rank 0: +0.030 s short-term, +0.030 s propagated\n"), r.out());
        assertTrue(r.out().contains("   14.3 %      +0.010 s      +0.010 s       0.000 s  \u2026/post on rank 1\n"), r.out());
        assertFalse(r.out().contains("MPI_Recv on"), r.out());

        JsonNode why = new ObjectMapper().readTree(json.toFile()).get("why");
        assertEquals("growth", why.get("direction").asText());
        assertEquals(0.070, why.get("waiting").get("diff").asDouble(), 1e-12);
        assertEquals(0.070, why.get("moved").asDouble(), 1e-12);
        JsonNode work = why.get("causes").get(0);
        assertEquals("[\"main\",\"work\"]", work.get("path").toString());
        assertEquals(0.030, work.get("shortTerm").asDouble(), 1e-12);
        assertEquals(0.030, work.get("propagated").asDouble(), 1e-12);
        assertEquals(60.0 / 70, work.get("share").asDouble(), 1e-12);
        assertEquals("[0]", work.get("ranks").toString());
        JsonNode post = why.get("causes").get(1);
        assertEquals("[\"main\",\"post\"]", post.get("path").toString());
        assertEquals(10.0 / 70, post.get("share").asDouble(), 1e-12);
        assertEquals("[1]", post.get("ranks").toString());
        assertEquals(2, why.get("causes").size());
    }

    @Test
    void diffSaysNothingAboutCausesWhenARunWasAnalysedWithoutThem() throws Exception {
        Path a = Files.writeString(tmp.resolve("a.txt"), chain(90, 20));
        Path bTrace = Files.writeString(tmp.resolve("b.txt"), chain(60, 10));
        Path b = tmp.resolve("b.json");
        assertEquals(0, run("analyze", bTrace.toString(), "--no-root-causes", "--json", b.toString(), "-q").code());
        Path json = tmp.resolve("d.json");
        Run r = run("diff", a.toString(), b.toString(), "--root-causes", "--json", json.toString(), "-q");
        assertEquals(0, r.code(), r.err());
        assertFalse(r.out().contains("why:"), r.out());
        assertTrue(r.out().contains("note: only A has root causes"), r.out());
        assertFalse(new ObjectMapper().readTree(json.toFile()).has("why"));
    }
}
