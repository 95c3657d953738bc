package dev.straggler.trace.otf2;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What otf2-print reported for a shared trace, as summarised beside it: {@code OTF2_STATS.txt} (the six origin
 * traces) or {@code otf2_counts.txt} (the real/ traces). The two files lay sections out differently; both are read.
 */
final class StatsFile {
    String version;
    long locations = -1;
    String creator;
    long ticksPerSecond = -1;
    long globalOffset = -1;
    long traceLength = -1;
    long totalEvents = -1;
    long firstTimestamp = -1;
    long lastTimestamp = -1;
    long p2pBytesSent = -1;
    final Map<String, Long> eventCounts = new LinkedHashMap<>();
    final Map<String, Long> eventsPerLocation = new LinkedHashMap<>();
    final Map<String, Long> collectiveOps = new LinkedHashMap<>();
    final Map<String, Long> regionsEntered = new LinkedHashMap<>();

    private static final Pattern CLOCK = Pattern.compile(
            "Ticks per Seconds: (\\d+), Global Offset: (\\d+), Length: (\\d+)");

    static StatsFile read(Path traceDir) throws IOException {
        Path f = traceDir.resolve("otf2_counts.txt");
        if (!Files.exists(f)) {
            f = traceDir.resolve("OTF2_STATS.txt");
        }
        StatsFile s = new StatsFile();
        String section = "";
        List<String> lines = Files.readAllLines(f);
        for (String line : lines) {
            String t = line.trim();
            if (t.startsWith("--")) {
                section = t;
                if (t.startsWith("-- total events:")) {
                    s.totalEvents = Long.parseLong(t.substring(t.indexOf(':') + 1).trim());
                } else if (t.startsWith("-- first/last timestamp:")) {
                    String[] v = t.substring(t.indexOf(':') + 1).trim().split("\\s+");
                    s.firstTimestamp = Long.parseLong(v[0]);
                    s.lastTimestamp = Long.parseLong(v[1]);
                } else if (t.startsWith("-- point-to-point bytes sent")) {
                    s.p2pBytesSent = Long.parseLong(t.substring(t.lastIndexOf(':') + 1).trim());
                }
                continue;
            }
            if (t.isEmpty()) {
                continue;
            }
            if (t.startsWith("Version ")) {
                s.version = t.substring(8).trim();
            } else if (t.startsWith("Number of locations")) {
                s.locations = Long.parseLong(t.substring(19).trim());
            } else if (t.startsWith("Creator ")) {
                s.creator = t.substring(8).trim();
            } else if (t.startsWith("CLOCK_PROPERTIES")) {
                Matcher m = CLOCK.matcher(t);
                if (m.find()) {
                    s.ticksPerSecond = Long.parseLong(m.group(1));
                    s.globalOffset = Long.parseLong(m.group(2));
                    s.traceLength = Long.parseLong(m.group(3));
                }
            } else if (section.startsWith("-- event record counts")) {
                String[] v = t.split("\\s+");
                if (v[0].matches("\\d+")) {
                    s.eventCounts.put(v[1], Long.parseLong(v[0]));
                } else {
                    s.eventCounts.put(v[0], Long.parseLong(v[1]));
                }
            } else if (section.startsWith("-- events per location")) {
                if (t.contains(";")) {
                    for (String pair : t.split(";")) {
                        String[] v = pair.trim().split("\\s+");
                        if (v.length == 2) {
                            s.eventsPerLocation.put(v[1], Long.parseLong(v[0]));
                        }
                    }
                } else {
                    String[] v = t.split("\\s+");
                    s.eventsPerLocation.put(v[0], Long.parseLong(v[1]));
                }
            } else if (section.startsWith("-- MPI collective ops")) {
                String[] v = t.split("\\s+");
                if (v[0].matches("\\d+")) {
                    s.collectiveOps.put(v[v.length - 1], Long.parseLong(v[0]));
                } else {
                    s.collectiveOps.put(v[0], Long.parseLong(v[1]));
                }
            } else if (section.contains("regions entered")) {
                Matcher m = Pattern.compile("^(\\d+)\\s+(?:Region: \"(.*)\"|(.*))$").matcher(t);
                if (m.matches()) {
                    String name = m.group(2) != null ? m.group(2) : m.group(3);
                    s.regionsEntered.merge(name, Long.parseLong(m.group(1)), Long::sum);
                }
            }
        }
        return s;
    }
}
