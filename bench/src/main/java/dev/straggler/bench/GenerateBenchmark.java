package dev.straggler.bench;

import dev.straggler.testdata.Scenario;
import dev.straggler.testdata.ScenarioParams;
import dev.straggler.testdata.Scenarios;
import dev.straggler.trace.EventBatch;
import dev.straggler.trace.TraceDefinitions;
import dev.straggler.trace.TraceWriter;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Generates a large trace into a writer that only counts, and reports the simulator's throughput and its peak
 * heap. Run with a small heap (e.g. {@code -Xmx256m}) to show that memory does not grow with the trace: 10^8
 * events held in memory would take about 3.7 GB.
 *
 * <pre>
 * java -Xmx256m -cp ... dev.straggler.bench.GenerateBenchmark [--events 1e8] [--ranks 64]
 *      [--scenario deep-calltree|bt-like|...] [--knob iterations] [--param k=v ...]
 * </pre>
 * The knob (the scenario's iteration-count parameter) is set from a pilot run so that the trace has about
 * {@code --events} events.
 */
public final class GenerateBenchmark {

    /** A sink that counts events and keeps a checksum so that nothing is optimised away. */
    static final class CountingWriter implements TraceWriter {
        long events;
        long batches;
        long checksum;
        TraceDefinitions definitions;

        @Override
        public void append(int location, EventBatch batch) {
            events += batch.size;
            batches++;
            checksum = checksum * 31 + batch.time[batch.size - 1] + location;
        }

        @Override
        public void finish(TraceDefinitions d) {
            definitions = d;
        }

        @Override
        public void close() {
        }
    }

    private GenerateBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        long target = 100_000_000L;
        int ranks = 64;
        String scenario = "deep-calltree";
        String knob = null;
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--events" -> target = (long) Double.parseDouble(args[++i]);
                case "--ranks" -> ranks = Integer.parseInt(args[++i]);
                case "--scenario" -> scenario = args[++i];
                case "--knob" -> knob = args[++i];
                case "--param" -> {
                    String[] kv = args[++i].split("=", 2);
                    values.put(kv[0], kv[1]);
                }
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        Scenario s = Scenarios.byName(scenario);
        if (knob == null) {
            knob = switch (scenario) {
                case "bt-like" -> "niter";
                case "gyro-like" -> "steps";
                case "graph500-like" -> "nbfs";
                case "deep-calltree", "sweep3d-like" -> "iterations";
                default -> "reps";
            };
        }
        // pilot: events = base + per × knob
        long e1 = run(s, ranks, with(values, knob, 1)).events;
        long e2 = run(s, ranks, with(values, knob, 2)).events;
        long per = e2 - e1;
        long knobValue = Math.max(1, (target - (e1 - per)) / per);
        Map<String, String> v = with(values, knob, knobValue);

        MemoryMXBean mem = ManagementFactory.getMemoryMXBean();
        System.gc();
        long baseline = mem.getHeapMemoryUsage().getUsed();
        AtomicLong peak = new AtomicLong();
        Thread sampler = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                peak.accumulateAndGet(mem.getHeapMemoryUsage().getUsed(), Math::max);
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "heap-sampler");
        sampler.setDaemon(true);
        sampler.start();
        long t0 = System.nanoTime();
        CountingWriter w = run(s, ranks, v);
        long t1 = System.nanoTime();
        sampler.interrupt();
        sampler.join();
        double secs = (t1 - t0) / 1e9;
        System.out.printf(Locale.ROOT, "scenario %s, %d ranks, %s=%d%n", scenario, ranks, knob, knobValue);
        System.out.printf(Locale.ROOT, "events %,d in %,d batches, %.2f s, %.1f M events/s%n",
                w.events, w.batches, secs, w.events / secs / 1e6);
        System.out.printf(Locale.ROOT, "heap: max %d MiB, used before %.1f MiB, peak sampled during generation %.1f MiB%n",
                Runtime.getRuntime().maxMemory() >> 20, baseline / 1048576.0, peak.get() / 1048576.0);
        System.out.printf(Locale.ROOT, "trace length %.3f s simulated, checksum %x%n",
                w.definitions.clock().traceLength() / 1e9, w.checksum);
    }

    private static Map<String, String> with(Map<String, String> values, String knob, long value) {
        Map<String, String> m = new LinkedHashMap<>(values);
        m.put(knob, Long.toString(value));
        return m;
    }

    private static CountingWriter run(Scenario s, int ranks, Map<String, String> values) throws Exception {
        CountingWriter w = new CountingWriter();
        s.generate(new ScenarioParams(ranks, 1, values), w);
        return w;
    }
}
