package dev.straggler.patterns.reduce;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code scorep-score -r} listing as Score-P prints it: the type groups (ALL, USR, MPI, COM, SCOREP, ...) and one
 * line per region with type, max_buf[B], visits, time[s], time[%], time/visit[us] and the name.
 */
record ScorepScoreFile(List<Line> groups, List<Line> regions) {

    record Line(char flt, String type, long maxBuf, long visits, double time, double timePerVisitUs, String name) {
    }

    private static final Pattern LINE = Pattern.compile(
            "^\\s*([+\\-*])?\\s*([A-Z]+)\\s+([\\d,]+)\\s+([\\d,]+)\\s+([\\d.]+)\\s+([\\d.]+)\\s+([\\d.]+)\\s+(.+)$");

    static ScorepScoreFile read(Path file) throws IOException {
        List<Line> groups = new ArrayList<>();
        List<Line> regions = new ArrayList<>();
        boolean inTable = false;
        boolean inRegions = false;
        for (String l : Files.readAllLines(file)) {
            if (l.startsWith("flt")) {
                inTable = true;
                continue;
            }
            if (!inTable) {
                continue;
            }
            if (l.isBlank()) {
                inRegions = !groups.isEmpty();
                continue;
            }
            Matcher m = LINE.matcher(l);
            if (!m.matches()) {
                throw new IOException(file + ": unreadable line: " + l);
            }
            Line line = new Line(m.group(1) == null ? ' ' : m.group(1).charAt(0), m.group(2), num(m.group(3)),
                    num(m.group(4)), Double.parseDouble(m.group(5)), Double.parseDouble(m.group(7)), m.group(8).strip());
            (inRegions ? regions : groups).add(line);
        }
        return new ScorepScoreFile(groups, regions);
    }

    private static long num(String s) {
        return Long.parseLong(s.replace(",", ""));
    }

    Line group(String type) {
        return groups.stream().filter(g -> g.type().equals(type)).findFirst().orElse(null);
    }
}
