package dev.straggler.trace.otf2;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Counters of the PAPI-carrying ping-pong trace against Debian's otf2-print: its METRIC, ENTER and LEAVE lines per
 * location, with each difference of consecutive readings charged to the region on top of the printed call stack.
 */
class Otf2CountersTest {
    private static final Pattern VALUE = Pattern.compile("\\(\"([^\"]+)\" <\\d+>; UINT64; (\\d+)\\)");
    private static final Pattern REGION = Pattern.compile("Region: \"(.*)\" <\\d+>");

    @Test
    void exclusiveCountsPerRegionEqualOtf2Print() throws Exception {
        Path dir = SharedTraces.dir("pipit-ping-pong-papi");
        Optional<Otf2Counters> read = Otf2Counters.read(dir.resolve("traces.otf2"));
        assertTrue(read.isPresent(), "the trace defines PAPI counters");
        Otf2Counters c = read.get();
        assertEquals(List.of("PAPI_TOT_CYC", "PAPI_L2_TCM", "PAPI_BR_MSP"), c.counters());
        for (int l = 0; l < 2; l++) {
            Map<String, long[]> expected = printed(dir.resolve("traces.otf2"), l, c.counters());
            Map<String, long[]> actual = new TreeMap<>();
            for (int r = 0; r < c.regions().size(); r++) {
                if (c.exclusive()[l][r] != null) {
                    actual.put(c.regions().get(r).name(), c.exclusive()[l][r]);
                }
            }
            assertEquals(expected.keySet(), actual.keySet(), "location " + l);
            for (String region : expected.keySet()) {
                assertEquals(java.util.Arrays.toString(expected.get(region)), java.util.Arrays.toString(actual.get(region)),
                        "location " + l + " " + region);
            }
        }
    }

    @Test
    void traceWithoutCountersHasNone() throws Exception {
        Path dir = SharedTraces.dir("pipit-ping-pong");
        assertFalse(Otf2Counters.read(dir.resolve("traces.otf2")).isPresent());
    }

    /** The oracle: otf2-print's lines of one location, the stack rule applied to them. */
    private static Map<String, long[]> printed(Path anchor, long location, List<String> counters) throws Exception {
        Process p;
        try {
            p = new ProcessBuilder("otf2-print", "-L", Long.toString(location), anchor.toString())
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            Assumptions.abort("otf2-print (Debian package otf2-tools) is not installed: " + e.getMessage());
            return null;
        }
        Map<String, long[]> out = new TreeMap<>();
        Map<String, Long> last = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                if (line.startsWith("METRIC ")) {
                    Matcher m = VALUE.matcher(line);
                    while (m.find()) {
                        String name = m.group(1);
                        long v = Long.parseLong(m.group(2));
                        Long before = last.put(name, v);
                        if (before != null && !stack.isEmpty()) {
                            out.computeIfAbsent(stack.peek(), k -> new long[counters.size()])[counters.indexOf(name)]
                                    += v - before;
                        }
                    }
                } else if (line.startsWith("ENTER ") || line.startsWith("LEAVE ")) {
                    Matcher m = REGION.matcher(line);
                    assertTrue(m.find(), line);
                    if (line.startsWith("ENTER ")) {
                        stack.push(m.group(1));
                    } else {
                        stack.pop();
                    }
                }
            }
        }
        assertTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, "otf2-print failed");
        return out;
    }
}
