package dev.straggler.patterns.timeline;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Reads a trace-event JSON file back with Jackson and checks the format's rules independently of the writer: the
 * B/E pairs of each thread are rebuilt into slices with a stack, as a viewer does.
 */
final class TraceEventJson {
    /** A slice rebuilt from a B/E pair or an X event; times in µs. */
    record Slice(int pid, int tid, String name, String cat, double ts, double dur, int depth, JsonNode args) {
        boolean flag(String f) {
            return args != null && args.path(f).asBoolean(false);
        }

        /** Compact form for exact comparisons, e.g. {@code "1/0 main 10000+40000 d0 clipped"}. */
        String show() {
            return pid + "/" + tid + " " + name + " " + fmt(ts) + "+" + fmt(dur) + " d" + depth
                    + (flag("clipped") ? " clipped" : "") + (flag("unclosed") ? " unclosed" : "");
        }

        private static String fmt(double v) {
            return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
        }
    }

    /** One end of a flow. */
    record FlowEnd(String ph, long id, int pid, int tid, double ts, String bp, JsonNode args) {
    }

    final JsonNode root;
    final List<JsonNode> events = new ArrayList<>();
    final List<Slice> slices = new ArrayList<>();
    final Map<Long, List<FlowEnd>> flows = new TreeMap<>();
    /** Collective operations: one flow through the members, "s", then "t" steps, then "f". */
    final Map<Long, List<FlowEnd>> collectives = new TreeMap<>();

    TraceEventJson(byte[] json) throws IOException {
        root = new ObjectMapper().readTree(json);
        root.get("traceEvents").forEach(events::add);
        rebuild();
    }

    JsonNode otherData() {
        return root.get("otherData");
    }

    private void rebuild() {
        Map<String, Deque<JsonNode>> open = new HashMap<>();
        Map<String, Double> lastTs = new HashMap<>();
        for (JsonNode e : events) {
            for (String f : new String[]{"ph", "ts", "pid", "tid"}) {
                assertTrue(e.has(f), "event without " + f + ": " + e);
            }
            String ph = e.get("ph").asText();
            double ts = e.get("ts").asDouble();
            assertTrue(ts >= 0, "negative ts: " + e);
            int pid = e.get("pid").asInt();
            int tid = e.get("tid").asInt();
            String thread = pid + "/" + tid;
            switch (ph) {
                case "B", "E", "X" -> {
                    Double before = lastTs.put(thread, ts);
                    assertTrue(before == null || before <= ts, "ts goes back on thread " + thread + ": " + before
                            + " then " + e);
                }
                default -> {
                }
            }
            switch (ph) {
                case "B" -> open.computeIfAbsent(thread, k -> new ArrayDeque<>()).push(e);
                case "E" -> {
                    Deque<JsonNode> stack = open.get(thread);
                    assertTrue(stack != null && !stack.isEmpty(), "E without B on thread " + thread + ": " + e);
                    JsonNode b = stack.pop();
                    double dur = ts - b.get("ts").asDouble();
                    assertTrue(dur >= 0, "negative duration " + dur + " of " + b);
                    JsonNode args = b.has("args") ? b.get("args") : e.get("args");
                    if (b.has("args") && e.has("args")) {
                        com.fasterxml.jackson.databind.node.ObjectNode merged = b.get("args").deepCopy();
                        merged.setAll((com.fasterxml.jackson.databind.node.ObjectNode) e.get("args"));
                        args = merged;
                    }
                    slices.add(new Slice(pid, tid, b.get("name").asText(), b.path("cat").asText(), b.get("ts").asDouble(),
                            dur, stack.size(), args));
                }
                case "X" -> {
                    double dur = e.get("dur").asDouble();
                    assertTrue(dur >= 0, "negative duration: " + e);
                    slices.add(new Slice(pid, tid, e.get("name").asText(), e.path("cat").asText(), ts, dur, 0,
                            e.get("args")));
                }
                case "s", "t", "f" -> ("MPI collective".equals(e.path("cat").asText()) ? collectives : flows)
                        .computeIfAbsent(e.get("id").asLong(), k -> new ArrayList<>())
                        .add(new FlowEnd(ph, e.get("id").asLong(), pid, tid, ts, e.path("bp").asText(null),
                                e.get("args")));
                case "M" -> {
                }
                default -> fail("unexpected phase " + ph + ": " + e);
            }
        }
        open.forEach((thread, stack) -> assertTrue(stack.isEmpty(), "B without E on thread " + thread + ": " + stack));
        slices.sort(java.util.Comparator.comparingInt(Slice::pid).thenComparingInt(Slice::tid)
                .thenComparingDouble(Slice::ts).thenComparingInt(Slice::depth));
        collectives.forEach((id, steps) -> {
            assertTrue(steps.size() >= 2, "collective " + id + " has " + steps);
            assertEquals("s", steps.get(0).ph(), "collective " + id + " must start with s: " + steps);
            assertEquals("f", steps.get(steps.size() - 1).ph(), "collective " + id + " must end with f: " + steps);
            for (int k = 1; k < steps.size() - 1; k++) {
                assertEquals("t", steps.get(k).ph(), "collective " + id + ": " + steps);
            }
            for (FlowEnd step : steps) {
                assertTrue(enclosed(step), "collective step outside any slice of its thread: " + step);
            }
        });
        flows.forEach((id, ends) -> {
            assertEquals(2, ends.size(), "flow " + id + " has " + ends);
            assertEquals("s", ends.get(0).ph(), "flow " + id + " must start with s: " + ends);
            assertEquals("f", ends.get(1).ph(), "flow " + id + ": " + ends);
            assertEquals("e", ends.get(1).bp(), "flow end binds to its enclosing slice: " + ends);
            for (FlowEnd end : ends) {
                assertTrue(enclosed(end), "flow end outside any slice of its thread: " + end);
            }
        });
    }

    /** True when a region slice of the flow end's thread contains its time (what binding to a slice needs). */
    private boolean enclosed(FlowEnd f) {
        for (Slice s : slices) {
            if (s.pid() == f.pid() && s.tid() == f.tid() && s.ts() <= f.ts() && f.ts() <= s.ts() + s.dur()) {
                return true;
            }
        }
        return false;
    }

    List<String> shownSlices() {
        List<String> out = new ArrayList<>();
        for (Slice s : slices) {
            out.add(s.show());
        }
        return out;
    }

    long count(String ph) {
        return events.stream().filter(e -> e.get("ph").asText().equals(ph)).count();
    }

    /** Metadata value {@code args.<key>} of the named M event for a pid and tid. */
    String metadata(String name, int pid, int tid) {
        for (JsonNode e : events) {
            if (e.get("ph").asText().equals("M") && e.get("name").asText().equals(name)
                    && e.get("pid").asInt() == pid && e.get("tid").asInt() == tid) {
                JsonNode a = e.get("args");
                return a.has("name") ? a.get("name").asText() : a.get("sort_index").asText();
            }
        }
        assertFalse(true, "no metadata " + name + " for " + pid + "/" + tid);
        return null;
    }
}
