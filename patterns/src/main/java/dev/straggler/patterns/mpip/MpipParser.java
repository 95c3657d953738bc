package dev.straggler.patterns.mpip;

import dev.straggler.patterns.callsite.Callsite;
import dev.straggler.patterns.callsite.CallsiteEntry;
import dev.straggler.patterns.callsite.CallsiteStatistics;
import dev.straggler.patterns.callsite.Frame;
import dev.straggler.patterns.callsite.RankStats;
import dev.straggler.trace.TraceFormatException;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads mpiP reports ({@code *.mpiP}, mpiP 3.x, reference §5) into {@link CallsiteStatistics}.
 *
 * <p>What is read: the {@code @} header, {@code MPI Time (seconds)} (AppTime and MPITime per task),
 * {@code Callsites} (the stack of every callsite), {@code Aggregate Time} (for mpiP's own COV),
 * {@code Callsite Time statistics} in the verbose per-rank form or the concise form, and
 * {@code Callsite Message Sent statistics}. Every other section is skipped and listed.
 *
 * <p>mpiP prints per-rank mean times, not totals; a rank's total is count × mean, so it carries the report's three
 * significant digits. Per-rank rows under mpiP's print threshold ({@code -t}) are absent from the report; the
 * callsite's {@code *} row still gives its aggregate, which is then used as the All row.
 */
public final class MpipParser {
    private static final Pattern HEADING = Pattern.compile("^@--- (.*?) -*$");
    private static final Pattern HEADER = Pattern.compile("^@\\s*(.*?)\\s*:\\s?(.*)$");
    private static final double MS = 1e-3;

    private MpipParser() {
    }

    public static MpipReport parse(Path file) throws IOException {
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.ISO_8859_1)) {
            return parse(r, file.toString());
        }
    }

    /** @throws TraceFormatException naming origin and line for anything malformed */
    public static MpipReport parse(Reader in, String origin) throws IOException {
        return new State(origin).read(new BufferedReader(in));
    }

    private static final class State {
        final String origin;
        int lineNo;
        final Map<String, String> header = new LinkedHashMap<>();
        final TreeMap<Integer, String> hosts = new TreeMap<>();
        final TreeMap<Integer, double[]> taskTimes = new TreeMap<>();
        final TreeMap<Integer, List<Frame>> frames = new TreeMap<>();
        final Map<Integer, String> ops = new HashMap<>();
        final Map<Integer, Double> cov = new HashMap<>();
        final TreeMap<Integer, TreeMap<Integer, RankStats>> rows = new TreeMap<>();
        final Map<Integer, RankStats> allRows = new HashMap<>();
        final Map<Integer, Map<Integer, double[]>> sent = new HashMap<>();
        final Map<Integer, double[]> sentAll = new HashMap<>();
        final List<String> skipped = new ArrayList<>();
        final List<String> notes = new ArrayList<>();
        boolean sawMpiTime;
        boolean concise;

        State(String origin) {
            this.origin = origin;
        }

        TraceFormatException error(String msg) {
            return new TraceFormatException(origin + ":" + lineNo + ": " + msg);
        }

        MpipReport read(BufferedReader r) throws IOException {
            String section = null;
            boolean columnsSeen = false;
            String line;
            boolean any = false;
            while ((line = r.readLine()) != null) {
                lineNo++;
                any = true;
                if (line.startsWith("-----")) {
                    continue;
                }
                Matcher h = HEADING.matcher(line);
                if (h.matches()) {
                    section = h.group(1).trim();
                    columnsSeen = false;
                    if (!known(section)) {
                        skipped.add(section);
                    }
                    continue;
                }
                if (section == null) {
                    header(line);
                    continue;
                }
                String s = line.trim();
                if (s.isEmpty() || !known(section)) {
                    continue;
                }
                if (!columnsSeen) {
                    // The first non-blank line of a section is its column header.
                    columnsSeen = true;
                    continue;
                }
                row(section, s);
            }
            if (!any) {
                throw new TraceFormatException(origin + ": empty file, not an mpiP report");
            }
            if (!sawMpiTime) {
                throw new TraceFormatException(origin + ": no 'MPI Time (seconds)' section; is this an mpiP report?");
            }
            return build();
        }

        static boolean known(String section) {
            return section.equals("MPI Time (seconds)") || section.startsWith("Callsites:")
                    || section.startsWith("Aggregate Time") || section.startsWith("Callsite Time statistics")
                    // Derivable from the per-callsite sent statistics; read past without a note.
                    || section.startsWith("Aggregate Sent Message Size")
                    || section.equals("Callsite Message Sent statistics (all, sent bytes)")
                    || section.equals("End of Report");
        }

        void header(String line) {
            if (!line.startsWith("@")) {
                return;
            }
            Matcher m = HEADER.matcher(line);
            if (!m.matches()) {
                return;
            }
            String key = m.group(1);
            String value = m.group(2).trim();
            if (key.equals("MPI Task Assignment")) {
                String[] f = value.split("\\s+", 2);
                try {
                    hosts.put(Integer.parseInt(f[0]), f.length > 1 ? f[1] : "");
                } catch (NumberFormatException e) {
                    notes.add("line " + lineNo + ": unreadable task assignment '" + value + "'");
                }
            } else {
                header.put(key, value);
            }
        }

        void row(String section, String s) throws TraceFormatException {
            String[] f = s.split("\\s+");
            if (section.equals("MPI Time (seconds)")) {
                sawMpiTime = true;
                need(f, 4, "Task AppTime MPITime MPI%");
                if (!f[0].equals("*")) {
                    taskTimes.put(integer(f[0]), new double[]{number(f[1]), number(f[2])});
                }
            } else if (section.startsWith("Callsites:")) {
                callsiteFrame(f);
            } else if (section.startsWith("Aggregate Time")) {
                // Call Site Time App% MPI% Count [COV]
                need(f, 6, "Call Site Time App% MPI% Count");
                if (f.length >= 7) {
                    cov.put(integer(f[1]), number(f[6]));
                }
            } else if (section.startsWith("Callsite Time statistics (all callsites")) {
                // Concise: Name Site Tasks Max Mean Min MaxRnk MinRnk, where "Tasks" holds the call count.
                concise = true;
                need(f, 8, "Name Site Tasks Max Mean Min MaxRnk MinRnk");
                int site = integer(f[1]);
                ops.putIfAbsent(site, f[0]);
                long count = longInt(f[2]);
                allRows.put(site, new RankStats(RankStats.ALL, count, count * number(f[4]) * MS, number(f[3]) * MS,
                        number(f[5]) * MS, 0, 0, 0));
            } else if (section.startsWith("Callsite Time statistics")) {
                // Name Site Rank Count Max Mean Min App% MPI%
                need(f, 9, "Name Site Rank Count Max Mean Min App% MPI%");
                int site = integer(f[1]);
                ops.putIfAbsent(site, f[0]);
                long count = longInt(f[3]);
                double mean = number(f[5]) * MS;
                if (f[2].equals("*")) {
                    allRows.put(site, new RankStats(RankStats.ALL, count, count * mean, number(f[4]) * MS,
                            number(f[6]) * MS, 0, 0, 0));
                } else {
                    int rank = integer(f[2]);
                    rows.computeIfAbsent(site, k -> new TreeMap<>()).put(rank, new RankStats(rank, count, count * mean,
                            number(f[4]) * MS, number(f[6]) * MS, 0, 0, 0));
                }
            } else if (section.startsWith("Callsite Message Sent statistics")) {
                // Name Site Rank Count Max Mean Min Sum
                need(f, 8, "Name Site Rank Count Max Mean Min Sum");
                int site = integer(f[1]);
                double[] v = {number(f[7]), number(f[4]), number(f[6])};
                if (f[2].equals("*")) {
                    sentAll.put(site, v);
                } else {
                    sent.computeIfAbsent(site, k -> new HashMap<>()).put(integer(f[2]), v);
                }
            }
        }

        /** {@code ID Lev File Line Parent_Funct [MPI_Call]}, or {@code ID Lev Address Parent_Funct [MPI_Call]}. */
        void callsiteFrame(String[] f) throws TraceFormatException {
            need(f, 4, "ID Lev File/Address Line Parent_Funct MPI_Call");
            int id = integer(f[0]);
            int lev = integer(f[1]);
            String file = f[2];
            int next = 3;
            int line = 0;
            if (f[3].matches("\\d+")) {
                line = Integer.parseInt(f[3]);
                next = 4;
            }
            if (next >= f.length) {
                throw error("callsite " + id + " level " + lev + " has no function name");
            }
            int end = f.length;
            if (lev == 0) {
                // The MPI call is named on the innermost level only; function names may hold spaces (C++).
                if (end - next < 2) {
                    throw error("callsite " + id + " level 0 lacks the MPI call name");
                }
                ops.put(id, f[end - 1]);
                end--;
            }
            String function = String.join(" ", java.util.Arrays.copyOfRange(f, next, end));
            List<Frame> stack = frames.computeIfAbsent(id, k -> new ArrayList<>());
            if (lev != stack.size()) {
                throw error("callsite " + id + ": level " + lev + " follows level " + (stack.size() - 1));
            }
            stack.add(new Frame(function, file, line));
        }

        MpipReport build() {
            int ranks = taskTimes.isEmpty() ? 0 : taskTimes.lastKey() + 1;
            double[] app = new double[ranks];
            double[] mpi = new double[ranks];
            taskTimes.forEach((rank, v) -> {
                app[rank] = v[0];
                mpi[rank] = v[1];
            });
            if (taskTimes.size() != ranks) {
                notes.add("MPI Time lists " + taskTimes.size() + " of " + ranks + " tasks");
            }
            int depth = frames.values().stream().mapToInt(List::size).max().orElse(0);
            java.util.TreeSet<Integer> ids = new java.util.TreeSet<>(ops.keySet());
            List<CallsiteEntry> entries = new ArrayList<>();
            for (int id : ids) {
                Callsite site = new Callsite(id, ops.get(id), frames.getOrDefault(id, List.of()));
                List<RankStats> perRank = new ArrayList<>();
                Map<Integer, double[]> bytes = sent.getOrDefault(id, Map.of());
                for (RankStats rs : rows.getOrDefault(id, new TreeMap<>()).values()) {
                    double[] b = bytes.get(rs.rank());
                    perRank.add(b == null ? rs : new RankStats(rs.rank(), rs.count(), rs.total(), rs.max(), rs.min(),
                            b[0], b[1], b[2]));
                }
                RankStats all = allRows.get(id);
                if (all == null) {
                    all = CallsiteEntry.of(site, perRank).all();
                } else if (sentAll.containsKey(id)) {
                    double[] b = sentAll.get(id);
                    all = new RankStats(RankStats.ALL, all.count(), all.total(), all.max(), all.min(), b[0], b[1], b[2]);
                }
                entries.add(new CallsiteEntry(site, perRank, all, cov.getOrDefault(id, Double.NaN)));
            }
            if (concise) {
                notes.add("concise report (-c): no per-rank callsite rows");
            }
            if (depth == 0 && !ids.isEmpty()) {
                notes.add("no Callsites section: callsites are MPI operations (-k 0)");
            }
            for (String s : skipped) {
                notes.add("skipped section '" + s + "'");
            }
            List<String> hostList = new ArrayList<>(hosts.values());
            CallsiteStatistics stats = new CallsiteStatistics(origin, depth, app, mpi, entries, notes);
            return new MpipReport(header, hostList, stats, List.copyOf(skipped));
        }

        void need(String[] f, int n, String columns) throws TraceFormatException {
            if (f.length < n) {
                throw error("expected " + n + " columns (" + columns + "), got " + f.length + ": " + String.join(" ", f));
            }
        }

        int integer(String s) throws TraceFormatException {
            try {
                return Integer.parseInt(s);
            } catch (NumberFormatException e) {
                throw error("not an integer: '" + s + "'");
            }
        }

        long longInt(String s) throws TraceFormatException {
            try {
                return Long.parseLong(s);
            } catch (NumberFormatException e) {
                throw error("not an integer: '" + s + "'");
            }
        }

        double number(String s) throws TraceFormatException {
            try {
                return Double.parseDouble(s);
            } catch (NumberFormatException e) {
                throw error("not a number: '" + s + "'");
            }
        }
    }
}
