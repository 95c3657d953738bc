package dev.straggler.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.straggler.trace.Communicator;
import dev.straggler.trace.Location;
import dev.straggler.trace.Region;
import dev.straggler.trace.TraceDefinitions;
import dev.straggler.trace.PlausibleTrace;
import dev.straggler.trace.TraceSource;
import dev.straggler.trace.TraceStatistics;
import dev.straggler.trace.otf2.Otf2Archive;
import dev.straggler.trace.otf2.Otf2Statistics;
import dev.straggler.trace.store.StoreReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;

@Command(name = "info", mixinStandardHelpOptions = true,
        description = "Summarises a trace: ranks, locations, events by kind, duration, regions by paradigm, communicators, collectives.")
final class InfoCommand implements Callable<Integer> {
    @Mixin
    ReadingOptions common;

    @Parameters(index = "0", paramLabel = "TRACE")
    Path trace;

    @Option(names = "--json", description = "Print JSON instead of text.")
    boolean json;

    @Override
    public Integer call() throws IOException {
        try (TraceSource src = Inputs.open(trace, common)) {
            try {
                Map<String, Object> info = summarise(src, common.quiet);
                if (json) {
                    System.out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(info));
                } else {
                    printText(info);
                }
            } finally {
                Inputs.reportSkipped(src);
            }
        }
        return 0;
    }

    /** The summary as ordered key/values; the JSON output is exactly this map. */
    static Map<String, Object> summarise(TraceSource src, boolean quiet) throws IOException {
        TraceStatistics s;
        try (Progress p = Progress.start("scan", src.eventCount(), "events", quiet)) {
            s = TraceStatistics.compute(src, p);
        }
        // after the scan: an OTF2 archive learns its skipped records only by reading every location
        TraceDefinitions d = src.definitions();
        Otf2Statistics otf2 = PlausibleTrace.unwrap(src) instanceof Otf2Archive a ? a.scanStatistics() : null;
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("trace", src.origin());
        m.put("application", d.experiment().application());
        if (!d.experiment().parameters().isEmpty()) {
            m.put("parameters", d.experiment().parameters());
        }
        m.put("ranks", d.rankCount());
        m.put("locations", d.locations().size());
        Map<String, Long> byType = new TreeMap<>();
        for (Location l : d.locations()) {
            byType.merge(l.type().name(), 1L, Long::sum);
        }
        m.put("locationsByType", byType);
        long skipped = d.totalSkippedRecords();
        m.put("events", s.totalEvents() + skipped);
        m.put("analysedEvents", s.totalEvents());
        Map<String, Long> byKind = new LinkedHashMap<>(s.eventsByKindName());
        m.put("eventsByKind", byKind);
        m.put("skippedRecords", d.skippedRecords());
        m.put("skippedRecordCount", skipped);
        if (otf2 != null) {
            Otf2Archive a = (Otf2Archive) PlausibleTrace.unwrap(src);
            m.put("format", "OTF2 " + a.anchor().version());
            m.put("creator", a.anchor().creator());
            m.put("eventsByRecord", otf2.eventsByRecord());
            m.put("attributeLists", otf2.attributeLists());
            if (otf2.events() != s.totalEvents() + skipped) {
                throw new IllegalStateException("event count mismatch: " + otf2.events() + " records, "
                        + (s.totalEvents() + skipped) + " delivered or skipped");
            }
        }
        m.put("timerResolution", d.clock().ticksPerSecond());
        m.put("globalOffset", d.clock().globalOffset());
        m.put("durationSeconds", s.totalEvents() == 0 ? 0.0 : d.clock().seconds(s.lastTime() - s.firstTime()));
        Map<String, Long> paradigms = new TreeMap<>();
        for (Region r : d.regions()) {
            paradigms.merge(r.paradigm().name(), 1L, Long::sum);
        }
        m.put("regions", d.regions().size());
        m.put("regionsByParadigm", paradigms);
        List<Map<String, Object>> comms = d.communicators().stream().map(c -> {
            Map<String, Object> cm = new LinkedHashMap<>();
            cm.put("id", c.id());
            cm.put("name", c.name());
            cm.put("size", c.size());
            return cm;
        }).toList();
        m.put("communicators", comms);
        m.put("collectivesByOp", s.collectivesByOpName());
        m.put("messagesSent", s.messagesSent());
        m.put("bytesSent", s.bytesSent());
        if (PlausibleTrace.unwrap(src) instanceof StoreReader r) {
            long bytes = r.manifest().locations().stream().mapToLong(f -> f.bytes()).sum();
            m.put("storeCompression", r.manifest().compression());
            m.put("storeEventBytes", bytes);
            m.put("storeBytesPerEvent", s.totalEvents() == 0 ? 0.0 : bytes / (double) s.totalEvents());
        }
        return m;
    }

    @SuppressWarnings("unchecked")
    private static void printText(Map<String, Object> m) {
        System.out.printf("trace            %s%n", m.get("trace"));
        if (m.containsKey("format")) {
            System.out.printf("format           %s (%s)%n", m.get("format"), m.get("creator"));
        }
        System.out.printf("application      %s%n", m.get("application").toString().isEmpty() ? "(unknown)" : m.get("application"));
        if (m.containsKey("parameters")) {
            System.out.printf("parameters       %s%n", m.get("parameters"));
        }
        System.out.printf("ranks            %d%n", m.get("ranks"));
        System.out.printf("locations        %d %s%n", m.get("locations"), m.get("locationsByType"));
        System.out.printf("duration         %.6f s (timer %,d ticks/s)%n", m.get("durationSeconds"), m.get("timerResolution"));
        long skippedRecords = (Long) m.get("skippedRecordCount");
        long analysed = (Long) m.get("events") - skippedRecords;
        System.out.printf("events           %,d%s%n", analysed, skippedRecords > 0
                ? String.format(" read by the analysis (of %,d records; the %,d others are listed below)",
                (Long) m.get("events"), skippedRecords) : "");
        ((Map<String, Long>) m.get("eventsByKind")).forEach((k, v) -> System.out.printf("  %-24s %,14d%n", k, v));
        long skipped = (Long) m.get("skippedRecordCount");
        if (skipped > 0) {
            System.out.printf("skipped records  %,d (not used by the analysis)%n", skipped);
            ((Map<String, Long>) m.get("skippedRecords")).forEach((k, v) -> System.out.printf("  %-24s %,14d%n", k, v));
        }
        System.out.printf("regions          %d %s%n", m.get("regions"), m.get("regionsByParadigm"));
        List<Map<String, Object>> comms = (List<Map<String, Object>>) m.get("communicators");
        System.out.printf("communicators    %d%n", comms.size());
        comms.stream().limit(10).forEach(c -> System.out.printf("  %3d %-24s size %d%n", c.get("id"), c.get("name"), c.get("size")));
        if (comms.size() > 10) {
            System.out.printf("  ... %d more%n", comms.size() - 10);
        }
        Map<String, Long> coll = (Map<String, Long>) m.get("collectivesByOp");
        if (!coll.isEmpty()) {
            System.out.println("collective calls (records summed over all ranks)");
            coll.forEach((k, v) -> System.out.printf("  %-24s %,14d%n", k, v));
        }
        System.out.printf("messages sent    %,d (%,d bytes)%n", m.get("messagesSent"), m.get("bytesSent"));
        if (m.containsKey("storeCompression")) {
            System.out.printf("store            %s, %,d bytes of events, %.2f bytes/event%n", m.get("storeCompression"),
                    m.get("storeEventBytes"), m.get("storeBytesPerEvent"));
        }
    }
}
