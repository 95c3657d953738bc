package dev.straggler.patterns.pop;

import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.AnalysisOptions;
import dev.straggler.trace.TraceSource;
import dev.straggler.trace.Traces;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * POP efficiencies of hand-written traces whose values follow from the definitions by hand (times in ms).
 */
class PopMetricsTest {
    @TempDir
    Path tmp;

    private static final String HEADER = """
            straggler-text 1
            clock resolution=1000 offset=0 length=%d
            experiment application=pop processes=3
            region 0 main paradigm=USER role=FUNCTION
            region 1 compute paradigm=USER role=FUNCTION
            region 2 MPI_Barrier paradigm=MPI role=BARRIER file=MPI
            region 3 MPI_Send paradigm=MPI role=POINT2POINT file=MPI
            region 4 MPI_Recv paradigm=MPI role=POINT2POINT file=MPI
            location 0 rank=0 thread=0 name="Master thread"
            location 1 rank=1 thread=0 name="Master thread"
            location 2 rank=2 thread=0 name="Master thread"
            comm 0 MPI_COMM_WORLD members=0,1,2
            """;

    private PopMetrics pop(String events, int length) throws IOException {
        Path f = tmp.resolve("t.txt");
        Files.writeString(f, String.format(HEADER, length) + events);
        try (TraceSource s = Traces.open(f)) {
            return PopMetrics.of(Analysis.run(s, AnalysisOptions.defaults()).cube(), "t");
        }
    }

    /** Ranks compute 60, 40 and 30 ms, then meet in a barrier that all leave at 70 ms. */
    private static final String IMBALANCE = """
            0 0 ENTER main
            0 0 ENTER compute
            0 60 LEAVE compute
            0 60 ENTER MPI_Barrier
            0 61 MPI_COLLECTIVE_BEGIN
            0 69 MPI_COLLECTIVE_END op=BARRIER comm=0 sent=0 received=0
            0 70 LEAVE MPI_Barrier
            0 70 LEAVE main
            1 0 ENTER main
            1 0 ENTER compute
            1 40 LEAVE compute
            1 40 ENTER MPI_Barrier
            1 41 MPI_COLLECTIVE_BEGIN
            1 69 MPI_COLLECTIVE_END op=BARRIER comm=0 sent=0 received=0
            1 70 LEAVE MPI_Barrier
            1 70 LEAVE main
            2 0 ENTER main
            2 0 ENTER compute
            2 30 LEAVE compute
            2 30 ENTER MPI_Barrier
            2 31 MPI_COLLECTIVE_BEGIN
            2 69 MPI_COLLECTIVE_END op=BARRIER comm=0 sent=0 received=0
            2 70 LEAVE MPI_Barrier
            2 70 LEAVE main
            """;

    @Test
    void imbalanceBeforeABarrierIsLoadBalanceNotSerialisation() throws IOException {
        PopMetrics m = pop(IMBALANCE, 70);
        // computation 60, 40, 30: LB = (130/3) / 60
        assertEquals(130.0 / 3 / 60, m.loadBalance(), 1e-12);
        // every process runs 70 ms: CommE = 60 / 70
        assertEquals(60.0 / 70, m.communicationEfficiency(), 1e-12);
        // the barrier takes 10, 30, 40 ms of which 0, 20, 30 are Wait at Barrier: transfer is 10 ms everywhere, so
        // the ideal runtime is 60 ms and SerE = 60 / 60
        assertEquals(1.0, m.serialisationEfficiency(), 1e-12);
        assertEquals(60.0 / 70, m.transferEfficiency(), 1e-12);
        assertEquals(130.0 / 3 / 60 * 60 / 70, m.parallelEfficiency(), 1e-12);
    }

    /**
     * {@link #IMBALANCE} after an MPI_Init of 1000 ms on every rank (all times shifted by 1000 ms, main entered at 0):
     * the time a short Score-P run spends starting MPI.
     */
    private static String withLongInit() {
        StringBuilder sb = new StringBuilder();
        for (String line : IMBALANCE.strip().split("\n")) {
            String[] f = line.split(" ", 3);
            if (f[2].equals("ENTER main")) {
                sb.append(line).append('\n').append(f[0]).append(" 0 ENTER MPI_Init\n")
                        .append(f[0]).append(" 1000 LEAVE MPI_Init\n");
            } else {
                sb.append(f[0]).append(' ').append(Long.parseLong(f[1]) + 1000).append(' ').append(f[2]).append('\n');
            }
        }
        return sb.toString();
    }

    private PopMetrics popWithInit(dev.straggler.patterns.focus.Focus focus) throws IOException {
        Path f = tmp.resolve("init.txt");
        Files.writeString(f, String.format(HEADER, 1070).replace("comm 0", "region 5 MPI_Init paradigm=MPI role=FUNCTION "
                + "file=MPI\ncomm 0") + withLongInit());
        try (TraceSource s = Traces.open(f)) {
            return PopMetrics.of(Analysis.run(s, AnalysisOptions.defaults()).cube(), "t", focus);
        }
    }

    @Test
    void defaultFocusLeavesMpiInitOutOfEveryEfficiency() throws IOException {
        PopMetrics m = popWithInit(dev.straggler.patterns.focus.Focus.DEFAULT);
        // the same values as without MPI_Init: LB (130/3)/60, CommE 60/70, SerE 1, TE 60/70
        assertEquals(130.0 / 3 / 60, m.loadBalance(), 1e-12);
        assertEquals(60.0 / 70, m.communicationEfficiency(), 1e-12);
        assertEquals(1.0, m.serialisationEfficiency(), 1e-12);
        assertEquals(60.0 / 70, m.transferEfficiency(), 1e-12);
        assertEquals(3000.0 / 3210, m.leftOut(), 1e-12, "3 x 1000 ms of 3 x 1070 ms");
        assertEquals("the run without MPI_Init/MPI_Finalize", m.focus().description());
    }

    @Test
    void wholeRunFocusCountsMpiInitAsMpiTimeAsTheAdvisorDoes() throws IOException {
        PopMetrics m = popWithInit(dev.straggler.patterns.focus.Focus.ALL);
        // runtime 1070 ms everywhere, computation unchanged: CommE = 60 / 1070; MPI_Init is transfer (MPI time that
        // is no wait state), so the ideal runtime is 1070 - 1010 = 60 on every rank: SerE = 1, TE = 60 / 1070
        assertEquals(60.0 / 1070, m.communicationEfficiency(), 1e-12);
        assertEquals(1.0, m.serialisationEfficiency(), 1e-12);
        assertEquals(60.0 / 1070, m.transferEfficiency(), 1e-12);
        assertEquals(0, m.leftOut());
    }

    @Test
    void aRunWithoutMpiHasNoMpiEfficienciesRatherThanHundredPercent() throws IOException {
        Path f = tmp.resolve("serial.txt");
        Files.writeString(f, String.format(HEADER, 50) + """
                0 0 ENTER main
                0 50 LEAVE main
                1 0 ENTER main
                1 40 LEAVE main
                2 0 ENTER main
                2 30 LEAVE main
                """);
        PopMetrics m;
        try (TraceSource s = Traces.open(f)) {
            m = PopMetrics.of(Analysis.run(s, AnalysisOptions.defaults()).cube(), "t", dev.straggler.patterns.focus.Focus.DEFAULT);
        }
        assertTrue(Double.isNaN(m.parallelEfficiency()), "not 100 %");
        assertTrue(Double.isNaN(m.loadBalance()));
        assertTrue(PopText.line(m).contains("do not apply"), PopText.line(m));
        assertTrue(m.notes().stream().anyMatch(n -> n.contains("do not apply")), m.notes().toString());
    }

    /**
     * A chain: rank 0 computes 10 ms and sends to rank 1, which has waited in its receive since 0 (Late Sender 10 ms),
     * then computes 10, sends to rank 2 (Late Sender 21 ms), and so on; every rank computes 20 ms in all.
     */
    private static final String CHAIN = """
            0 0 ENTER main
            0 0 ENTER compute
            0 10 LEAVE compute
            0 10 ENTER MPI_Send
            0 10 MPI_SEND to=1 comm=0 tag=1 bytes=8
            0 11 LEAVE MPI_Send
            0 11 ENTER compute
            0 21 LEAVE compute
            0 21 LEAVE main
            1 0 ENTER main
            1 0 ENTER MPI_Recv
            1 11 MPI_RECV from=0 comm=0 tag=1 bytes=8
            1 11 LEAVE MPI_Recv
            1 11 ENTER compute
            1 21 LEAVE compute
            1 21 ENTER MPI_Send
            1 21 MPI_SEND to=2 comm=0 tag=1 bytes=8
            1 22 LEAVE MPI_Send
            1 22 ENTER compute
            1 32 LEAVE compute
            1 32 LEAVE main
            2 0 ENTER main
            2 0 ENTER MPI_Recv
            2 22 MPI_RECV from=1 comm=0 tag=1 bytes=8
            2 22 LEAVE MPI_Recv
            2 22 ENTER compute
            2 42 LEAVE compute
            2 42 LEAVE main
            """;

    @Test
    void aChainOfLateSendersIsSerialisation() throws IOException {
        PopMetrics m = pop(CHAIN, 42);
        assertEquals(1.0, m.loadBalance(), 1e-12, "20 ms of computation everywhere");
        assertEquals(20.0 / 42, m.communicationEfficiency(), 1e-12, "the longest process runs 42 ms");
        // transfer = MPI - waiting: rank 0: 1 - 0, rank 1: 12 - 10, rank 2: 22 - 21; ideal runtimes 20, 30, 41 ms
        assertEquals(20.0 / 41, m.serialisationEfficiency(), 1e-12);
        assertEquals(41.0 / 42, m.transferEfficiency(), 1e-12);
        assertEquals(m.communicationEfficiency(), m.serialisationEfficiency() * m.transferEfficiency(), 1e-12);
    }

    /**
     * Two ranks compute 10 ms, exchange one message of {@code bytes} over a 1 GB/s link (1 byte per ns, both calls
     * entered together, so nothing waits) and compute 10 ms more: the transfer is bytes ns of pure MPI time.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(longs = {1 << 20, 8 << 20, 64 << 20})
    void transferEfficiencyFollowsFromMessageSizeAndBandwidth(long bytes) throws IOException {
        long ms = 1_000_000;
        long t1 = 10 * ms;
        long t2 = t1 + bytes;
        long t3 = t2 + 10 * ms;
        String header = "straggler-text 1\nclock resolution=1000000000 offset=0 length=" + t3 + "\n"
                + "experiment application=transfer processes=2\n"
                + "region 0 main paradigm=USER role=FUNCTION\nregion 1 compute paradigm=USER role=FUNCTION\n"
                + "region 2 MPI_Send paradigm=MPI role=POINT2POINT file=MPI\n"
                + "region 3 MPI_Recv paradigm=MPI role=POINT2POINT file=MPI\n"
                + "location 0 rank=0 thread=0 name=\"Master thread\"\nlocation 1 rank=1 thread=0 name=\"Master thread\"\n"
                + "comm 0 MPI_COMM_WORLD members=0,1\n";
        String events = String.join("\n",
                "0 0 ENTER main", "0 0 ENTER compute", "0 " + t1 + " LEAVE compute", "0 " + t1 + " ENTER MPI_Send",
                "0 " + t1 + " MPI_SEND to=1 comm=0 tag=1 bytes=" + bytes, "0 " + t2 + " LEAVE MPI_Send",
                "0 " + t2 + " ENTER compute", "0 " + t3 + " LEAVE compute", "0 " + t3 + " LEAVE main",
                "1 0 ENTER main", "1 0 ENTER compute", "1 " + t1 + " LEAVE compute", "1 " + t1 + " ENTER MPI_Recv",
                "1 " + t2 + " MPI_RECV from=0 comm=0 tag=1 bytes=" + bytes, "1 " + t2 + " LEAVE MPI_Recv",
                "1 " + t2 + " ENTER compute", "1 " + t3 + " LEAVE compute", "1 " + t3 + " LEAVE main") + "\n";
        Path f = tmp.resolve("transfer.txt");
        Files.writeString(f, header + events);
        PopMetrics m;
        try (TraceSource src = Traces.open(f)) {
            m = PopMetrics.of(Analysis.run(src, AnalysisOptions.defaults()).cube(), "t");
        }
        double expected = 20.0 * ms / (20.0 * ms + bytes);
        assertEquals(1.0, m.loadBalance(), 1e-12);
        assertEquals(1.0, m.serialisationEfficiency(), 1e-12, "nothing waits");
        assertEquals(expected, m.transferEfficiency(), 1e-12);
        assertEquals(expected, m.communicationEfficiency(), 1e-12);
    }

    @Test
    void computationScalingComparesTotalComputationWithTheSmallestRun() {
        PopMetrics small = run("a", 4, 40);
        PopMetrics large = run("b", 8, 48);
        List<PopMetrics> strong = PopMetrics.scaling(List.of(large, small), PopMetrics.Scaling.STRONG);
        assertEquals(40.0 / 48, strong.get(0).computationScaling(), 1e-12, "more total work for the same problem");
        assertEquals(1.0, strong.get(1).computationScaling(), 1e-12);
        List<PopMetrics> weak = PopMetrics.scaling(List.of(large, small), PopMetrics.Scaling.WEAK);
        assertEquals(40.0 / 48 * 8 / 4, weak.get(0).computationScaling(), 1e-12, "twice the problem on twice the processes");
        assertEquals(strong.get(0).parallelEfficiency() * strong.get(0).computationScaling(),
                strong.get(0).globalEfficiency(), 1e-12);
    }

    private static PopMetrics run(String label, int p, double totalComputation) {
        return new PopMetrics(label, p, totalComputation / p, totalComputation / p, 20, 18, totalComputation, Double.NaN,
                Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, List.of(), dev.straggler.patterns.focus.Focus.ALL, 0, true);
    }

    @Test
    void countersSplitComputationScalingIntoInstructionsIpcAndFrequency() {
        // reference: 100 instructions in 200 cycles over 40 s; run: 120 instructions in 180 cycles over 48 s
        PopMetrics small = run("a", 4, 40).withCounters(100, 200);
        PopMetrics large = run("b", 8, 48).withCounters(120, 180);
        PopMetrics s = PopMetrics.scaling(List.of(small, large), PopMetrics.Scaling.STRONG).get(1);
        assertEquals(100.0 / 120, s.instructionScaling(), 1e-12);
        assertEquals((120.0 / 180) / (100.0 / 200), s.ipcScaling(), 1e-12);
        assertEquals((180.0 / 48) / (200.0 / 40), s.frequencyScaling(), 1e-12);
        assertEquals(s.computationScaling(), s.instructionScaling() * s.ipcScaling() * s.frequencyScaling(), 1e-12,
                "the three factors make up computation scaling");
    }

    @Test
    void terminalTableColoursByPopBandsOnlyWhenAsked() throws IOException {
        PopMetrics m = pop(IMBALANCE, 70);
        String plain = PopText.render(List.of(m), false, null);
        assertTrue(plain.contains("Load balance") && plain.contains("72.2 %"), plain);
        assertTrue(!plain.contains("\u001b["), "no escape codes when not a terminal");
        String coloured = PopText.render(List.of(m), true, null);
        assertTrue(coloured.contains("\u001b[33m") && coloured.contains("72.2 %"), "72.2 % is fair (yellow)");
        assertTrue(coloured.contains("\u001b[32m") && coloured.contains("100.0 %"), "100 % is good (green)");
    }
}
