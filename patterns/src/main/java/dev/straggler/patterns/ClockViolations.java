package dev.straggler.patterns;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/**
 * Clock-condition violations found by the analysis, counted as Scalasca counts them (CCV_P2P / CCV_COLL: once per
 * receive, once per collective member). Wait times at violations are clipped, never negative.
 *
 * @param byKind count per kind; kinds with no violation are absent
 */
public record ClockViolations(Map<ViolationKind, Long> byKind) {
    public ClockViolations {
        EnumMap<ViolationKind, Long> copy = new EnumMap<>(ViolationKind.class);
        copy.putAll(byKind);
        byKind = Collections.unmodifiableMap(copy);
    }

    public static ClockViolations of(long[] counts) {
        Map<ViolationKind, Long> m = new EnumMap<>(ViolationKind.class);
        for (ViolationKind k : ViolationKind.values()) {
            if (counts[k.ordinal()] != 0) {
                m.put(k, counts[k.ordinal()]);
            }
        }
        return new ClockViolations(m);
    }

    public long count(ViolationKind k) {
        return byKind.getOrDefault(k, 0L);
    }

    /** Scalasca's "Point-to-point" count. */
    public long pointToPoint() {
        return byKind.entrySet().stream().filter(e -> e.getKey().pointToPoint()).mapToLong(Map.Entry::getValue).sum();
    }

    /** Scalasca's "Collective" count (Init/Finalize included, as Scalasca does). */
    public long collective() {
        return byKind.entrySet().stream().filter(e -> !e.getKey().pointToPoint()).mapToLong(Map.Entry::getValue).sum();
    }

    public long total() {
        return pointToPoint() + collective();
    }
}
