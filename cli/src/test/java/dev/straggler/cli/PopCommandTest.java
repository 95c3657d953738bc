package dev.straggler.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.straggler.cli.CliTest.Run;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static dev.straggler.cli.CliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code straggler pop} on the GYRO-like family at p = 64 and 192: the total useful computation (2048 work units and
 * a field solve whose work is divided by p, in whole ns ticks) hardly depends on p, so computation scaling is 1 but
 * for the ticks the division drops; only p = 192, which does not divide the work, is imbalanced: its most loaded rank
 * has 11 units where the mean is 2048/192.
 */
class PopCommandTest {
    @TempDir
    static Path tmp;

    @BeforeAll
    static void family() {
        Run g = run("generate", "gyro-like", "-n", "64,192", "-o", tmp.toString(), "-q");
        assertEquals(0, g.code(), g.err());
    }

    @Test
    void strongScalingOfTheFamilyKeepsComputationAndShowsTheImbalanceAt192() throws Exception {
        Path json = tmp.resolve("pop.json");
        Path html = tmp.resolve("pop.html");
        Run r = run("pop", tmp.resolve("gyro-like.p192.r0").toString(), tmp.resolve("gyro-like.p64.r0").toString(),
                "--json", json.toString(), "--html", html.toString(), "-q");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("Computation scaling"), r.out());
        assertFalse(r.out().contains("\u001b["), "no colours when the output is not a terminal");
        JsonNode runs = new ObjectMapper().readTree(json.toFile()).get("runs");
        assertEquals(64, runs.get(0).get("processes").asInt(), "ordered by process count");
        assertEquals(1.0, runs.get(0).get("computationScaling").asDouble(), 1e-12, "the reference");
        // per step, in ns ticks: the nonlinear term is 2048 units of 20,000 ns in all; the field solve is
        // floor(4,000,000 / p) ns on every rank (the family divides its duration in whole ticks)
        long unit = 20_000;
        long total64 = 2048 * unit + 64 * (4_000_000 / 64);
        long total192 = 2048 * unit + 192 * (4_000_000 / 192);
        assertEquals((double) total64 / total192, runs.get(1).get("computationScaling").asDouble(), 1e-12);
        assertEquals(1.0, runs.get(0).get("loadBalance").asDouble(), 1e-12, "64 divides 2048");
        // at 192 the most loaded ranks have 11 units
        double mean = total192 / 192.0;
        double max = 11 * unit + 4_000_000 / 192;
        assertEquals(mean / max, runs.get(1).get("loadBalance").asDouble(), 1e-12);
        assertTrue(Files.readString(html).contains("pop-good"), "cells coloured by band");
    }

    @Test
    void weakScalingScalesByTheProcessRatio() throws Exception {
        Path json = tmp.resolve("weak.json");
        Run r = run("pop", "--scaling", "weak", tmp.resolve("gyro-like.p64.r0").toString(),
                tmp.resolve("gyro-like.p192.r0").toString(), "--json", json.toString(), "-q");
        assertEquals(0, r.code(), r.err());
        JsonNode runs = new ObjectMapper().readTree(json.toFile()).get("runs");
        long total64 = 2048 * 20_000L + 64 * (4_000_000 / 64);
        long total192 = 2048 * 20_000L + 192 * (4_000_000 / 192);
        assertEquals(3.0 * total64 / total192, runs.get(1).get("computationScaling").asDouble(), 1e-12,
                "the same work read as a third of the work per process");
    }

    @Test
    void oneRunHasNoScalingRows() {
        Run r = run("pop", tmp.resolve("gyro-like.p64.r0").toString(), "-q");
        assertEquals(0, r.code(), r.err());
        assertFalse(r.out().contains("Computation scaling"), r.out());
        assertTrue(r.out().startsWith("POP efficiencies\n"), r.out());
    }

    @Test
    void countersOfAnOtf2TraceGiveTheUsefulFrequency() throws Exception {
        String shared = System.getProperty("straggler.shared");
        org.junit.jupiter.api.Assumptions.assumeTrue(shared != null, "system property straggler.shared is not set");
        Path dir = Path.of(shared, "traces", "pipit-ping-pong-papi");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isDirectory(dir), "shared traces absent (../shared/traces)");
        Path json = tmp.resolve("papi.json");
        Run r = run("pop", dir.resolve("traces.otf2").toString(), "--json", json.toString(), "-q");
        assertEquals(0, r.code(), r.err());
        JsonNode run = new ObjectMapper().readTree(json.toFile()).get("runs").get(0);
        // useful cycles: PAPI_TOT_CYC read while main (the only computing region) is on top of the stack, by otf2-print:
        // 1,198,202 on rank 0 and 1,255,991 on rank 1 (Otf2CountersTest checks the reading against otf2-print)
        double cycles = 1_198_202 + 1_255_991;
        assertEquals(cycles / run.get("totalComputation").asDouble() / 1e9, run.get("frequencyGHz").asDouble(), 1e-9);
        assertFalse(run.has("ipc"), "no PAPI_TOT_INS in this trace");
        assertTrue(r.out().contains("Useful frequency (GHz)"), r.out());
        assertTrue(r.out().contains("Instruction and IPC scaling: not available"), r.out());
    }

    @Test
    void unknownScalingIsOneLine() {
        Run r = run("pop", "--scaling", "sideways", tmp.resolve("gyro-like.p64.r0").toString(), "-q");
        assertEquals(1, r.code());
        assertEquals("straggler: --scaling must be strong or weak, not 'sideways'", r.err().strip());
    }
}
