package dev.straggler.trace.otf2;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/** Compares an archive read by {@link Otf2Archive} with otf2-print, location by location, event by event. */
final class EventComparison {
    private EventComparison() {
    }

    /** Asserts identical model events and identical counts of every record type; returns the events compared. */
    static long assertSameAsOtf2Print(Path anchor) throws IOException {
        long compared = 0;
        try (Otf2Archive a = Otf2Archive.open(anchor)) {
            for (int i = 0; i < a.definitions().locations().size(); i++) {
                long id = a.locationId(i);
                Otf2Print.Printed printed = Otf2Print.location(anchor, id);
                List<String> ours = Otf2Print.ours(a, i);
                assertSameList(printed.model(), ours, anchor + " location " + Long.toUnsignedString(id));
                long[] counts = a.recordCounts(i);
                Map<String, Long> byName = new TreeMap<>();
                for (int t = 0; t < counts.length; t++) {
                    if (counts[t] > 0) {
                        // otf2-print calls every record of an unknown type UNKNOWN
                        byName.merge(Otf2Format.eventName(t).replaceAll("^UNKNOWN\\(.*", "UNKNOWN"), counts[t],
                                Long::sum);
                    }
                }
                assertEquals(printed.counts(), byName, "record counts of location " + Long.toUnsignedString(id));
                assertEquals(printed.attributeLists(), a.attributeLists(i),
                        "attribute lists of location " + Long.toUnsignedString(id));
                compared += printed.events();
            }
        }
        return compared;
    }

    static void assertSameList(List<String> expected, List<String> actual, String what) {
        int n = Math.min(expected.size(), actual.size());
        for (int i = 0; i < n; i++) {
            if (!expected.get(i).equals(actual.get(i))) {
                fail(what + ": event " + i + " differs\n  otf2-print: " + expected.get(i) + "\n  ours:       "
                        + actual.get(i) + (i > 0 ? "\n  (previous:  " + expected.get(i - 1) + ")" : ""));
            }
        }
        assertEquals(expected.size(), actual.size(), what + ": number of model events");
    }
}
