package dev.straggler.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.HashMap;
import java.util.Map;

/** Small helpers shared by the benchmarks: argument parsing, heap peaks, formatting. */
public final class BenchSupport {
    private BenchSupport() {
    }

    /**
     * The {@code --name value} (or bare {@code --name}: "true") options of a benchmark, each one of {@code known}.
     * Anything else ends the run with one line and exit code 2: a mistyped option would otherwise measure the
     * default setting under the name the caller believes it asked for.
     */
    public static Map<String, String> args(String[] args, String... known) {
        java.util.Set<String> names = java.util.Set.of(known);
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--") || !names.contains(args[i].substring(2))) {
                System.err.println("bench: " + (args[i].startsWith("--") ? "unknown option " : "unexpected argument ")
                        + args[i] + "; the options are --" + String.join(", --", new java.util.TreeSet<>(names)));
                System.exit(2);
            }
            String k = args[i].substring(2);
            m.put(k, i + 1 < args.length && !args[i + 1].startsWith("--") ? args[++i] : "true");
        }
        return m;
    }

    /**
     * Option {@code key}'s value (or {@code fallback}) as {@code parse} reads it; a value it refuses ends the run with
     * one line naming the option and exit code 2, as an unknown option does.
     */
    public static <T> T value(Map<String, String> options, String key, String fallback,
                              java.util.function.Function<String, T> parse) {
        String v = options.getOrDefault(key, fallback);
        try {
            return parse.apply(v);
        } catch (IllegalArgumentException e) {
            System.err.println("bench: --" + key + " " + v + ": " + e.getMessage());
            System.exit(2);
            return null;
        }
    }

    public static void resetPeakHeap() {
        System.gc();
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == MemoryType.HEAP) {
                p.resetPeakUsage();
            }
        }
    }

    /** Sum over heap pools of their peak usage since the last reset (an upper bound of the true peak). */
    public static long peakHeapBytes() {
        long s = 0;
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == MemoryType.HEAP) {
                s += p.getPeakUsage().getUsed();
            }
        }
        return s;
    }

    /** Resets the process's peak resident set (VmHWM) by writing 5 to /proc/self/clear_refs, where allowed. */
    public static void resetPeakRss() {
        try {
            java.nio.file.Files.writeString(java.nio.file.Path.of("/proc/self/clear_refs"), "5");
        } catch (java.io.IOException | RuntimeException e) {
            // not Linux or not allowed: the peak then counts from the start of the process
        }
    }

    /** The process's peak resident set size (VmHWM of /proc/self/status), 0 where unknown. */
    public static long peakRssBytes() {
        try {
            for (String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/self/status"))) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (java.io.IOException | RuntimeException e) {
            // not Linux
        }
        return 0;
    }

    /** A size in bytes: digits, optionally followed by k, m or g (binary multiples). */
    public static long bytes(String s) {
        String t = s.trim().toLowerCase(java.util.Locale.ROOT);
        int shift = t.endsWith("k") ? 10 : t.endsWith("m") ? 20 : t.endsWith("g") ? 30 : 0;
        String digits = shift == 0 ? t : t.substring(0, t.length() - 1);
        try {
            return Long.parseLong(digits) << shift;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a size in bytes (digits, then k, m or g): " + s);
        }
    }

    public static String mib(long bytes) {
        return String.format("%.1f MiB", bytes / 1048576.0);
    }

    public static String rate(long events, long nanos) {
        return String.format("%.1f M events/s", events / (nanos / 1e9) / 1e6);
    }
}
