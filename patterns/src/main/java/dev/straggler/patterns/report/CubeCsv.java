package dev.straggler.patterns.report;

import dev.straggler.patterns.cube.Metric;
import dev.straggler.patterns.cube.PathNames;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.patterns.cube.SystemLocation;
import dev.straggler.trace.Numbers;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The severity cube as one flat table, for pandas, Pipit or Thicket users: one row per non-zero value,
 * {@code metric,metric_name,unit,call_path,rank,thread,value}. Values are as the cube stores them: inclusive along
 * the metric tree (a metric's rows hold all of it, its sub-metrics' share included) and exclusive along the call
 * tree (a call path's row leaves out its callees), so summing a metric's rows gives its total.
 * The call path is its region names joined by {@code "/"} ({@link PathNames}). RFC 4180 quoting: {@code pandas.read_csv(FILE)} reads it.
 * Values are the shortest text that reads back to the stored double ({@link Numbers#shortest(double)}).
 */
public final class CubeCsv {
    public static final String HEADER = "metric,metric_name,unit,call_path,rank,thread,value";

    private CubeCsv() {
    }

    public static void write(SeverityCube c, Path file) throws IOException {
        try (Writer w = new BufferedWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8), 1 << 16)) {
            write(c, w);
        }
    }

    public static void write(SeverityCube c, Writer w) throws IOException {
        w.write(HEADER);
        w.write('\n');
        String[] paths = new String[c.callPaths().size()];
        for (int p = 0; p < paths.length; p++) {
            paths[p] = quote(PathNames.join(c.pathNames(p)));
        }
        for (int m = 0; m < c.metrics().size(); m++) {
            Metric mt = c.metrics().get(m);
            String head = quote(mt.uniqueName()) + ',' + quote(mt.displayName()) + ',' + quote(mt.unit()) + ',';
            for (int p = 0; p < paths.length; p++) {
                double[] row = c.rowOrNull(m, p);
                if (row == null) {
                    continue;
                }
                for (int l = 0; l < row.length; l++) {
                    if (row[l] == 0) {
                        continue;
                    }
                    SystemLocation loc = c.locations().get(l);
                    w.write(head);
                    w.write(paths[p]);
                    w.write(',');
                    w.write(Integer.toString(loc.rank()));
                    w.write(',');
                    w.write(Integer.toString(loc.thread()));
                    w.write(',');
                    w.write(Numbers.shortest(row[l]));
                    w.write('\n');
                }
            }
        }
    }

    /** RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled. */
    static String quote(String s) {
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) {
            return s;
        }
        return '"' + s.replace("\"", "\"\"") + '"';
    }
}
