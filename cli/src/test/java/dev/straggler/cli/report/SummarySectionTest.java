package dev.straggler.cli.report;

import dev.straggler.patterns.cube.CallPath;
import dev.straggler.patterns.cube.Metric;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.patterns.cube.SystemLocation;
import dev.straggler.trace.Paradigm;
import dev.straggler.trace.Region;
import dev.straggler.trace.RegionRole;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** "Where the time goes" with more parts than the table lists. */
class SummarySectionTest {
    /**
     * time with fourteen sub-metrics part1..part14 of 1..14 s and 15 s of its own: 120 s in all, partitioned into 15
     * parts. The ten largest (time itself, part14..part6) hold 15 + 14 + ... + 6 = 105 s; part5..part1 the other 15 s.
     */
    private static SeverityCube fifteenParts() {
        List<Metric> metrics = new ArrayList<>();
        metrics.add(Metric.time("time", "Time", null, "Total time"));
        for (int k = 1; k <= 14; k++) {
            metrics.add(Metric.time("part" + k, "Part " + k, "time", "part " + k));
        }
        List<Region> regions = List.of(new Region(0, "main", "main", "app.c", 1, 9, Paradigm.USER, RegionRole.FUNCTION));
        SeverityCube c = new SeverityCube(metrics, regions, List.of(new CallPath(0, -1, 0, 0)),
                List.of(new SystemLocation(0, 0, 0, "Master thread")), Map.of());
        c.set(0, 0, 0, 120);
        for (int k = 1; k <= 14; k++) {
            c.set(k, 0, 0, k);
        }
        return c.freeze();
    }

    /** The rows of the "Where the time goes" table: label text and the share in percent. */
    private static List<String[]> rows(String html) {
        int from = html.indexOf("<caption>Where the time goes");
        assertTrue(from >= 0, html);
        String table = html.substring(from, html.indexOf("</table>", from));
        Matcher m = Pattern.compile("<tr[^>]*><td>(.*?)</td><td class=\"num\">[^<]*</td><td class=\"num\">([-0-9.]+) %</td>")
                .matcher(table);
        List<String[]> out = new ArrayList<>();
        while (m.find()) {
            out.add(new String[] {m.group(1).replaceAll("<[^>]+>", ""), m.group(2)});
        }
        return out;
    }

    @Test
    void sharesOfACutTableAddUpToAllTheTimeWithARowForTheRest() {
        List<String[]> rows = rows(HtmlReport.of(fifteenParts()).render());
        double sum = rows.stream().mapToDouble(r -> Double.parseDouble(r[1])).sum();
        // each share is rounded to 0.1 %
        assertEquals(100.0, sum, 0.05 * rows.size(), "shares of the rows listed");
        assertEquals(11, rows.size(), "ten parts and one for the rest");
    }

    @Test
    void theRowForTheRestSaysHowManyPartsItHolds() {
        List<String[]> rows = rows(HtmlReport.of(fifteenParts()).render());
        String[] last = rows.get(rows.size() - 1);
        assertTrue(last[0].startsWith("5 more parts"), last[0]);
        assertEquals("12.5", last[1], "15 of 120 s");
    }
}
