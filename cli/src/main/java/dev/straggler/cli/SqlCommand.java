package dev.straggler.cli;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.straggler.experiments.sql.SqlSession;
import dev.straggler.trace.Numbers;
import dev.straggler.trace.TraceSource;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.Writer;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/** {@code straggler sql}: SQL over a trace and its analysis, or over an experiment database (docs/sql.md). */
@Command(name = "sql", mixinStandardHelpOptions = true,
        description = "Asks your own questions in SQL (DuckDB) over a trace and what its analysis found: tables events, "
                + "regions, callpaths, locations, communicators, messages, collectives, wait_states (with the delay each "
                + "waited for), wait_state_delays, severities, metrics, communicator_waits (docs/sql.md); or over an experiment database (db:FILE). Without a query: an interactive prompt.")
final class SqlCommand implements Callable<Integer> {
    @Mixin
    ReadingOptions common;

    @Parameters(index = "0", paramLabel = "TRACE|STORE|db:FILE",
            description = "A trace (OTF2, store, text) or db:FILE, an experiment database (opened read-only).")
    String input;

    @Parameters(index = "1", arity = "0..1", paramLabel = "SQL", description = "The query; none: --query-file or the prompt.")
    String sql;

    @Option(names = "--query-file", paramLabel = "Q.sql", description = "Read the query from this file.")
    Path queryFile;

    @Option(names = "--csv", paramLabel = "FILE", description = "Write the result as CSV instead of a table.")
    Path csv;

    @Option(names = "--json", paramLabel = "FILE", description = "Write the result as JSON (an array of objects).")
    Path json;

    @Option(names = "--parquet", paramLabel = "FILE", description = "Write the result as Parquet (DuckDB's writer).")
    Path parquet;

    @Option(names = "--threads", defaultValue = "0",
            description = "Threads reading the events, and for the replay and analysis behind messages, collectives, "
                    + "wait_states and severities (default: all cores).")
    int threads;

    @Option(names = "--root-causes", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "The analysis behind wait_states, wait_state_delays and severities also finds why the "
            + "waiting happens: the delay each instance waited for, the delay costs (on by default, as in analyze; "
            + "--no-root-causes for the wait states alone, the delay columns then NULL).")
    boolean rootCauses = true;

    @Override
    public Integer call() throws IOException {
        int outputs = (csv != null ? 1 : 0) + (json != null ? 1 : 0) + (parquet != null ? 1 : 0);
        if (outputs > 1) {
            throw new IllegalArgumentException("give one of --csv, --json, --parquet");
        }
        if (sql != null && queryFile != null) {
            throw new IllegalArgumentException("give the query or --query-file, not both");
        }
        String query = queryFile != null ? Files.readString(queryFile, StandardCharsets.UTF_8) : sql;
        if (query == null && outputs > 0) {
            throw new IllegalArgumentException("--csv, --json and --parquet need a query (or --query-file)");
        }
        Ranges.between("--threads", threads, 0, 4096);
        int t = threads > 0 ? threads : Runtime.getRuntime().availableProcessors();
        if (input.startsWith("db:")) {
            try (SqlSession s = SqlSession.ofDatabase(Path.of(input.substring(3)))) {
                return run(s, query);
            }
        }
        try (TraceSource src = Inputs.open(Path.of(input), common); SqlSession s = SqlSession.ofTrace(src, t, rootCauses)) {
            try {
                return run(s, query);
            } finally {
                Inputs.reportSkipped(src);
            }
        }
    }

    private int run(SqlSession s, String query) throws IOException {
        if (query == null) {
            return prompt(s);
        }
        if (parquet != null) {
            long n = s.parquet(query, parquet);
            System.out.println("wrote " + parquet + " (" + n + " rows)");
        } else if (csv != null) {
            try (Writer w = Files.newBufferedWriter(csv, StandardCharsets.UTF_8)) {
                long n = s.query(query, new CsvSink(w));
                System.out.println("wrote " + csv + " (" + n + " rows)");
            }
        } else if (json != null) {
            try (JsonGenerator g = Numbers.shortestNumbers(new JsonFactory().createGenerator(json.toFile(),
                    JsonEncoding.UTF8))) {
                long n = s.query(query, new JsonSink(g));
                g.flush();
                System.out.println("wrote " + json + " (" + n + " rows)");
            }
        } else {
            TableSink table = new TableSink(System.out);
            s.query(query, table);
        }
        return 0;
    }

    /** Reads statements ending with ';' and prints each result; {@code .quit} or end of input ends. */
    private int prompt(SqlSession s) throws IOException {
        boolean terminal = System.console() != null;
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        StringBuilder pending = new StringBuilder();
        if (terminal) {
            System.out.println("SQL over " + input + " (docs/sql.md); end a statement with ';', .quit to leave");
        }
        while (true) {
            if (terminal) {
                System.out.print(pending.length() == 0 ? "sql> " : "...> ");
                System.out.flush();
            }
            String line = in.readLine();
            if (line == null || pending.length() == 0 && (line.strip().equals(".quit") || line.strip().equals(".exit"))) {
                return 0;
            }
            pending.append(line).append('\n');
            if (!line.strip().endsWith(";")) {
                continue;
            }
            String statement = pending.toString();
            pending.setLength(0);
            try {
                s.query(statement, new TableSink(System.out));
            } catch (IOException | IllegalArgumentException e) {
                // one line, as every error; the prompt goes on
                System.out.println("error: " + e.getMessage());
            }
        }
    }

    /** A value as text: numbers as the shortest text that reads back to the same value (docs: README). */
    static String text(Object v) {
        if (v == null) {
            return "";
        }
        if (v instanceof Double d) {
            return Numbers.shortest(d);
        }
        if (v instanceof Float f) {
            return Numbers.shortest(f);
        }
        if (v instanceof BigDecimal d) {
            return Numbers.decimal(d);
        }
        if (v instanceof java.sql.Array a) {
            try {
                Object[] items = (Object[]) a.getArray();
                List<String> parts = new ArrayList<>();
                for (Object o : items) {
                    parts.add(text(o));
                }
                return "[" + String.join(", ", parts) + "]";
            } catch (java.sql.SQLException e) {
                return v.toString();
            }
        }
        return v.toString();
    }

    static final class CsvSink implements SqlSession.RowSink {
        private final Writer out;
        private int n;

        CsvSink(Writer out) {
            this.out = out;
        }

        @Override
        public void columns(List<String> names, List<String> types) throws IOException {
            n = names.size();
            for (int i = 0; i < n; i++) {
                out.write((i > 0 ? "," : "") + quote(names.get(i)));
            }
            out.write("\n");
        }

        @Override
        public void row(Object[] values) throws IOException {
            for (int i = 0; i < n; i++) {
                out.write((i > 0 ? "," : "") + (values[i] == null ? "" : quote(text(values[i]))));
            }
            out.write("\n");
        }

        private static String quote(String s) {
            if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) {
                return s;
            }
            return '"' + s.replace("\"", "\"\"") + '"';
        }
    }

    static final class JsonSink implements SqlSession.RowSink {
        private final JsonGenerator g;
        private List<String> names;

        JsonSink(JsonGenerator g) {
            this.g = g;
        }

        @Override
        public void columns(List<String> names, List<String> types) throws IOException {
            this.names = names;
            g.writeStartArray();
        }

        @Override
        public void row(Object[] values) throws IOException {
            g.writeStartObject();
            for (int i = 0; i < values.length; i++) {
                g.writeFieldName(names.get(i));
                Object v = values[i];
                if (v == null) {
                    g.writeNull();
                } else if (v instanceof Integer x) {
                    g.writeNumber(x);
                } else if (v instanceof Long x) {
                    g.writeNumber(x);
                } else if (v instanceof Short x) {
                    g.writeNumber(x);
                } else if (v instanceof Byte x) {
                    g.writeNumber(x);
                } else if (v instanceof Double x) {
                    g.writeNumber(x);
                } else if (v instanceof Float x) {
                    g.writeNumber(x);
                } else if (v instanceof BigInteger x) {
                    g.writeNumber(x);
                } else if (v instanceof BigDecimal x) {
                    g.writeNumber(x.stripTrailingZeros());
                } else if (v instanceof Boolean x) {
                    g.writeBoolean(x);
                } else {
                    g.writeString(text(v));
                }
            }
            g.writeEndObject();
        }

        @Override
        public void end() throws IOException {
            g.writeEndArray();
            g.writeRaw('\n');
        }
    }

    /**
     * An aligned table: the widths come from the first {@value #MEASURED} rows; later rows longer than that are
     * printed whole (never cut), and the row count closes the table.
     */
    static final class TableSink implements SqlSession.RowSink {
        static final int MEASURED = 1000;
        private final PrintStream out;
        private final List<String[]> held = new ArrayList<>();
        private List<String> names;
        private boolean[] numeric;
        private int[] width;
        private long rows;

        TableSink(PrintStream out) {
            this.out = out;
        }

        @Override
        public void columns(List<String> names, List<String> types) {
            this.names = names;
            numeric = new boolean[names.size()];
            for (int i = 0; i < names.size(); i++) {
                String t = types.get(i).toUpperCase(Locale.ROOT);
                numeric[i] = t.contains("INT") || t.equals("DOUBLE") || t.equals("FLOAT") || t.startsWith("DECIMAL")
                        || t.equals("REAL");
            }
        }

        @Override
        public void row(Object[] values) {
            String[] r = new String[values.length];
            for (int i = 0; i < values.length; i++) {
                r[i] = values[i] == null ? "NULL" : text(values[i]);
            }
            rows++;
            if (width == null) {
                held.add(r);
                if (held.size() == MEASURED) {
                    flushHeld();
                }
            } else {
                print(r);
            }
        }

        private void flushHeld() {
            width = new int[names.size()];
            for (int i = 0; i < width.length; i++) {
                width[i] = names.get(i).length();
            }
            for (String[] r : held) {
                for (int i = 0; i < r.length; i++) {
                    width[i] = Math.max(width[i], r[i].length());
                }
            }
            StringBuilder head = new StringBuilder();
            StringBuilder rule = new StringBuilder();
            for (int i = 0; i < width.length; i++) {
                head.append(i > 0 ? "  " : "").append(pad(names.get(i), width[i], numeric[i]));
                rule.append(i > 0 ? "  " : "").append("-".repeat(width[i]));
            }
            out.println(head.toString().stripTrailing());
            out.println(rule);
            for (String[] r : held) {
                print(r);
            }
            held.clear();
        }

        private void print(String[] r) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < r.length; i++) {
                sb.append(i > 0 ? "  " : "").append(pad(r[i], width[i], numeric[i]));
            }
            out.println(sb.toString().stripTrailing());
        }

        private static String pad(String s, int w, boolean right) {
            if (s.length() >= w) {
                return s;
            }
            String fill = " ".repeat(w - s.length());
            return right ? fill + s : s + fill;
        }

        @Override
        public void end() {
            if (width == null) {
                flushHeld();
            }
            out.println("(" + rows + (rows == 1 ? " row)" : " rows)"));
        }
    }
}
