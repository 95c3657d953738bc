package dev.straggler.experiments.sql;

import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.AnalysisOptions;
import dev.straggler.patterns.AnalysisResult;
import dev.straggler.patterns.DelayCause;
import dev.straggler.patterns.cube.CallPath;
import dev.straggler.patterns.cube.Metric;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.replay.CallTree;
import dev.straggler.replay.CollectiveMatching;
import dev.straggler.replay.CollectiveTable;
import dev.straggler.replay.LocationData;
import dev.straggler.replay.MessageMatching;
import dev.straggler.replay.RecvTable;
import dev.straggler.replay.RegionTable;
import dev.straggler.replay.Replay;
import dev.straggler.replay.ReplayOptions;
import dev.straggler.replay.SendTable;
import dev.straggler.trace.Clock;
import dev.straggler.trace.CollectiveOp;
import dev.straggler.trace.Communicator;
import dev.straggler.trace.Location;
import dev.straggler.trace.Region;
import dev.straggler.trace.TraceDefinitions;
import dev.straggler.trace.TraceSource;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;
import org.duckdb.DuckDBResultSetMetaData;
import org.duckdb.StatementReturnType;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * SQL over one trace and what its analysis found, or over an experiment database, in DuckDB (docs/sql.md).
 *
 * <p>For a trace, the tables a statement names are made when first named: the small ones from the definitions (and,
 * for {@code messages}, {@code collectives}, {@code severities} and {@code wait_states}, from the replay or the
 * analysis) as tables of an in-memory database; {@code events} as an Arrow stream read location by location for
 * every statement, so that no statement holds the events. Only statements that return rows run (SELECT, WITH,
 * DESCRIBE, EXPLAIN, ...): nothing a statement does can change the trace, and a database is opened read-only.
 */
public final class SqlSession implements AutoCloseable {
    /** The tables of a trace, as docs/sql.md lists them. */
    public enum Table {
        EVENTS, REGIONS, CALLPATHS, LOCATIONS, COMMUNICATORS, MESSAGES, COLLECTIVES, WAIT_STATES, WAIT_STATE_DELAYS,
        SEVERITIES, METRICS, COMMUNICATOR_WAITS;

        String sqlName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private static final Pattern WORD = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private final DuckDBConnection connection;
    private final String where;
    private final TraceSource source;
    private final int threads;
    private final boolean rootCauses;
    private final BufferAllocator allocator;
    private final Set<Table> made = EnumSet.noneOf(Table.class);
    private final List<ArrowArrayStream> streams = new ArrayList<>();
    private RegionTable regions;
    private CallPaths paths;
    private Replay replay;
    private AnalysisResult analysis;

    private SqlSession(DuckDBConnection connection, String where, TraceSource source, int threads,
                       boolean rootCauses) {
        this.connection = connection;
        this.where = where;
        this.source = source;
        this.threads = Math.max(1, threads);
        this.rootCauses = rootCauses;
        this.allocator = source == null ? null : new RootAllocator();
    }

    /**
     * A session over a trace whose analysis runs with root causes: its tables are made when a statement first names
     * them.
     */
    public static SqlSession ofTrace(TraceSource source, int threads) throws IOException {
        return ofTrace(source, threads, true);
    }

    /**
     * A session over a trace: its tables are made when a statement first names them. With {@code rootCauses} the
     * analysis behind the wait-state tables also finds the delay behind each instance (and the cube's delay costs);
     * without, those columns are NULL.
     */
    public static SqlSession ofTrace(TraceSource source, int threads, boolean rootCauses) throws IOException {
        try {
            DuckDBConnection c = (DuckDBConnection) DriverManager.getConnection("jdbc:duckdb:");
            return new SqlSession(c, source.origin(), source, threads, rootCauses);
        } catch (SQLException e) {
            throw new IOException("cannot start DuckDB: " + oneLine(e), e);
        }
    }

    /** A session over an experiment database (a DuckDB file), opened read-only. */
    public static SqlSession ofDatabase(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new IOException(file + ": no such experiment database");
        }
        Properties p = new Properties();
        p.setProperty("duckdb.read_only", "true");
        try {
            DuckDBConnection c = (DuckDBConnection) DriverManager.getConnection("jdbc:duckdb:" + file.toAbsolutePath(), p);
            return new SqlSession(c, file.toString(), null, 1, false);
        } catch (SQLException e) {
            throw new IOException(file + ": cannot open the experiment database: " + oneLine(e), e);
        }
    }

    /** The trace's tables a statement names (by word, case-insensitive; a word in a string literal counts too). */
    static Set<Table> named(String sql) {
        Set<Table> out = EnumSet.noneOf(Table.class);
        Matcher m = WORD.matcher(sql);
        while (m.find()) {
            String w = m.group().toLowerCase(Locale.ROOT);
            for (Table t : Table.values()) {
                if (t.sqlName().equals(w)) {
                    out.add(t);
                }
            }
        }
        return out;
    }

    /** Receives a statement's result. */
    public interface RowSink {
        void columns(List<String> names, List<String> types) throws IOException;

        void row(Object[] values) throws IOException;

        default void end() throws IOException {
        }
    }

    /**
     * Runs one statement and hands its rows to {@code sink}; returns the number of rows.
     *
     * @throws IOException in one line, naming the trace or database, when the statement fails or would change data
     */
    public long query(String sql, RowSink sink) throws IOException {
        String s = strip(sql);
        prepareTables(s);
        try (PreparedStatement ps = readOnly(s); ResultSet rs = ps.executeQuery()) {
            var md = rs.getMetaData();
            int n = md.getColumnCount();
            List<String> names = new ArrayList<>(n);
            List<String> types = new ArrayList<>(n);
            for (int i = 1; i <= n; i++) {
                names.add(md.getColumnLabel(i));
                types.add(md.getColumnTypeName(i));
            }
            sink.columns(names, types);
            long rows = 0;
            Object[] row = new Object[n];
            while (rs.next()) {
                for (int i = 0; i < n; i++) {
                    row[i] = rs.getObject(i + 1);
                }
                sink.row(row);
                rows++;
            }
            sink.end();
            return rows;
        } catch (SQLException e) {
            throw new IOException(where + ": " + oneLine(e), e);
        } finally {
            releaseStreams();
        }
    }

    /** Runs one statement and writes its result as Parquet (DuckDB's writer); returns the number of rows. */
    public long parquet(String sql, Path out) throws IOException {
        String s = strip(sql);
        prepareTables(s);
        try {
            readOnly(s).close();
            // the stream was bound by the check: a fresh one for the statement that runs
            releaseStreams();
            prepareTables(s);
            try (Statement st = connection.createStatement()) {
                String target = out.toAbsolutePath().toString().replace("'", "''");
                return st.executeUpdate("COPY (" + s + ") TO '" + target + "' (FORMAT parquet)");
            }
        } catch (SQLException e) {
            throw new IOException(where + ": " + oneLine(e), e);
        } finally {
            releaseStreams();
        }
    }

    /** Prepares a statement, refusing one that does not only return rows. */
    private PreparedStatement readOnly(String sql) throws SQLException, IOException {
        PreparedStatement ps = connection.prepareStatement(sql);
        StatementReturnType t = ((DuckDBResultSetMetaData) ps.getMetaData()).getReturnType();
        if (t != StatementReturnType.QUERY_RESULT) {
            ps.close();
            throw new IOException(where + ": only queries run here (SELECT, WITH, DESCRIBE, EXPLAIN, ...): this "
                    + "statement returns no rows, it would change something");
        }
        return ps;
    }

    private static String strip(String sql) {
        String s = sql.strip();
        while (s.endsWith(";")) {
            s = s.substring(0, s.length() - 1).strip();
        }
        if (s.isEmpty()) {
            throw new IllegalArgumentException("empty SQL statement");
        }
        return s;
    }

    private void prepareTables(String sql) throws IOException {
        if (source == null) {
            return;
        }
        try {
            for (Table t : named(sql)) {
                if (t == Table.EVENTS) {
                    registerEvents();
                } else if (made.add(t)) {
                    make(t);
                }
            }
        } catch (SQLException e) {
            throw new IOException(where + ": " + oneLine(e), e);
        }
    }

    /** Name of the i-th of the streams behind the {@code events} view. */
    private static String partName(int i) {
        return "straggler_events_" + i;
    }

    /** Streams behind {@code events} (the view over them exists once made), or 0 before the first statement. */
    private int eventParts;

    /**
     * Registers the statement's {@code events}: one stream per analysis thread, each over its share of the locations
     * (the largest first, each to the share with the fewest events so far), behind a view {@code events} that is their
     * UNION ALL, so that DuckDB scans them side by side (one stream is one scan, on one DuckDB thread).
     */
    private void registerEvents() throws IOException, SQLException {
        CallPaths tree = callPaths();
        int n = source.definitions().locations().size();
        // one stream or several, always behind the view: a statement reads events alike for any thread count
        int parts = Math.max(1, Math.min(threads, n));
        Integer[] byEvents = new Integer[n];
        for (int l = 0; l < n; l++) {
            byEvents[l] = l;
        }
        long[] events = new long[n];
        for (int l = 0; l < n; l++) {
            events[l] = Math.max(0, source.definitions().locations().get(l).events());
        }
        java.util.Arrays.sort(byEvents, (a, b) -> events[a] != events[b] ? Long.compare(events[b], events[a])
                : Integer.compare(a, b));
        it.unimi.dsi.fastutil.ints.IntArrayList[] share = new it.unimi.dsi.fastutil.ints.IntArrayList[parts];
        long[] load = new long[parts];
        for (int i = 0; i < parts; i++) {
            share[i] = new it.unimi.dsi.fastutil.ints.IntArrayList();
        }
        for (int l : byEvents) {
            int least = 0;
            for (int i = 1; i < parts; i++) {
                if (load[i] < load[least]) {
                    least = i;
                }
            }
            share[least].add(l);
            load[least] += Math.max(1, events[l]);
        }
        for (int i = 0; i < parts; i++) {
            ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator);
            Data.exportArrayStream(allocator, new EventStream(allocator, source, tree, 1, share[i].toIntArray()),
                    stream);
            streams.add(stream);
            connection.registerArrowStream(partName(i), stream);
        }
        if (eventParts != parts) {
            StringBuilder view = new StringBuilder("CREATE OR REPLACE TEMP VIEW " + Table.EVENTS.sqlName() + " AS ");
            for (int i = 0; i < parts; i++) {
                view.append(i > 0 ? " UNION ALL " : "").append("SELECT * FROM ").append(partName(i));
            }
            try (Statement st = connection.createStatement()) {
                st.execute(view.toString());
            }
            eventParts = parts;
        }
    }

    private void releaseStreams() {
        for (ArrowArrayStream s : streams) {
            s.close();
        }
        streams.clear();
    }

    private RegionTable regions() {
        if (regions == null) {
            regions = RegionTable.of(source.definitions());
        }
        return regions;
    }

    /** The call tree, from one pass over the events (the analysis' numbering, {@link CallPaths}). */
    public CallPaths callPaths() throws IOException {
        if (paths == null) {
            paths = CallPaths.of(source, regions(), threads);
        }
        return paths;
    }

    private Replay replay() throws IOException {
        if (replay == null) {
            replay = Replay.run(source, ReplayOptions.defaults().withThreads(threads));
        }
        return replay;
    }

    /**
     * The analysis of the trace (with root causes unless the session was opened without), keeping every wait-state
     * instance and, with root causes, the delay behind each one that has it; run once when a statement first needs it.
     */
    public AnalysisResult analysis() throws IOException {
        if (analysis == null) {
            analysis = Analysis.run(source, AnalysisOptions.defaults().withThreads(threads)
                    .withTopInstances(AnalysisOptions.ALL_INSTANCES).withRootCauses(rootCauses));
        }
        return analysis;
    }

    /**
     * The delay behind each instance of {@code r.mostSevere()}, by the instance itself (the causes refer to the very
     * instances of the list; {@link AnalysisResult#causeOf} would search the list once per instance).
     */
    private static java.util.Map<dev.straggler.patterns.Instance, DelayCause> causesByInstance(AnalysisResult r) {
        java.util.Map<dev.straggler.patterns.Instance, DelayCause> out = new java.util.IdentityHashMap<>();
        for (DelayCause c : r.causes()) {
            out.put(c.instance(), c);
        }
        return out;
    }

    private void make(Table t) throws SQLException, IOException {
        switch (t) {
            case REGIONS -> makeRegions();
            case CALLPATHS -> makeCallPaths();
            case LOCATIONS -> makeLocations();
            case COMMUNICATORS -> makeCommunicators();
            case MESSAGES -> makeMessages();
            case COLLECTIVES -> makeCollectives();
            case SEVERITIES -> makeSeverities();
            case METRICS -> makeMetrics();
            case WAIT_STATES -> makeWaitStates();
            case WAIT_STATE_DELAYS -> makeWaitStateDelays();
            case COMMUNICATOR_WAITS -> makeCommunicatorWaits();
            default -> throw new IllegalStateException(t.toString());
        }
    }

    private void create(String ddl) throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.execute(ddl);
        }
    }

    private DuckDBAppender appender(String table) throws SQLException {
        return connection.createAppender(DuckDBConnection.DEFAULT_SCHEMA, table);
    }

    private void makeRegions() throws SQLException {
        create("CREATE TABLE regions (id INTEGER, name VARCHAR, canonical_name VARCHAR, source_file VARCHAR, "
                + "begin_line INTEGER, end_line INTEGER, paradigm VARCHAR, role VARCHAR, artificial BOOLEAN)");
        RegionTable r = regions();
        try (DuckDBAppender a = appender("regions")) {
            for (int i = 0; i < r.size(); i++) {
                Region g = r.region(i);
                a.beginRow().append(g.id()).append(g.name()).append(g.canonicalName()).append(g.sourceFile())
                        .append(g.beginLine()).append(g.endLine()).append(g.paradigm().name()).append(g.role().name())
                        .append(i >= r.traceRegionCount()).endRow();
            }
        }
    }

    private void makeCallPaths() throws SQLException, IOException {
        create("CREATE TABLE callpaths (id INTEGER, parent INTEGER, region INTEGER, name VARCHAR, depth INTEGER, "
                + "path VARCHAR)");
        CallPaths p = callPaths();
        CallTree tree = p.tree();
        int[] depth = new int[tree.size()];
        try (DuckDBAppender a = appender("callpaths")) {
            for (int n = 0; n < tree.size(); n++) {
                int parent = tree.parent(n);
                depth[n] = parent < 0 ? 0 : depth[parent] + 1;
                a.beginRow().append(n);
                if (parent < 0) {
                    a.appendNull();
                } else {
                    a.append(parent);
                }
                a.append(tree.region(n)).append(regions().region(tree.region(n)).name()).append(depth[n])
                        .append(p.path(n)).endRow();
            }
        }
    }

    private void makeLocations() throws SQLException {
        create("CREATE TABLE locations (id INTEGER, source_id BIGINT, rank INTEGER, thread INTEGER, name VARCHAR, "
                + "type VARCHAR, events BIGINT)");
        try (DuckDBAppender a = appender("locations")) {
            for (Location l : source.definitions().locations()) {
                a.beginRow().append(l.index()).append(l.id()).append(l.rank()).append(l.thread()).append(l.name())
                        .append(l.type().name());
                if (l.events() < 0) {
                    a.appendNull();
                } else {
                    a.append(l.events());
                }
                a.endRow();
            }
        }
    }

    private void makeCommunicators() throws SQLException {
        create("CREATE TABLE communicators (id INTEGER, name VARCHAR, size INTEGER, members INTEGER[], parent INTEGER)");
        try (PreparedStatement ps = connection.prepareStatement(
                "INSERT INTO communicators VALUES (?, ?, ?, CAST(? AS INTEGER[]), ?)")) {
            for (Communicator c : source.definitions().communicators()) {
                ps.setInt(1, c.id());
                ps.setString(2, c.name());
                ps.setInt(3, c.size());
                ps.setString(4, java.util.Arrays.toString(c.members()));
                if (c.parent() < 0) {
                    ps.setNull(5, java.sql.Types.INTEGER);
                } else {
                    ps.setInt(5, c.parent());
                }
                ps.executeUpdate();
            }
        }
    }

    /** Maps the replay's (or the cube's) call-path ids to this session's, by parent and region. */
    private int[] translate(int size, java.util.function.IntUnaryOperator parent,
                            java.util.function.IntUnaryOperator region) throws IOException {
        CallPaths p = callPaths();
        int[] out = new int[size];
        for (int n = 0; n < size; n++) {
            int par = parent.applyAsInt(n);
            // parents precede children in both numberings
            out[n] = par >= 0 && out[par] < 0 ? -1 : p.child(par < 0 ? -1 : out[par], region.applyAsInt(n));
        }
        return out;
    }

    private int[] replayPaths() throws IOException {
        CallTree t = replay().callTree();
        return translate(t.size(), t::parent, t::region);
    }

    private double seconds(long tick) {
        return source.definitions().clock().secondsSinceStart(tick);
    }

    private static void appendPath(DuckDBAppender a, int[] map, int local, LocationData d) throws SQLException {
        int g = local < 0 ? -1 : map[d.globalCallPath(local)];
        if (g < 0) {
            a.appendNull();
        } else {
            a.append(g);
        }
    }

    private void makeMessages() throws SQLException, IOException {
        create("CREATE TABLE messages (sender INTEGER, receiver INTEGER, send_location INTEGER, recv_location INTEGER, "
                + "communicator INTEGER, tag INTEGER, bytes BIGINT, send_enter DOUBLE, send_time DOUBLE, "
                + "send_complete_enter DOUBLE, send_complete_leave DOUBLE, send_complete_callpath INTEGER, "
                + "recv_request_enter DOUBLE, recv_enter DOUBLE, recv_time DOUBLE, recv_leave DOUBLE, "
                + "recv_callpath INTEGER)");
        Replay r = replay();
        int[] map = replayPaths();
        MessageMatching mm = r.messages();
        try (DuckDBAppender a = appender("messages")) {
            for (LocationData recvLoc : r.locations()) {
                RecvTable recvs = recvLoc.receives();
                MessageMatching.ReceiveCursor cur = mm.receiveCursor(recvLoc.location());
                for (int i = 0; i < recvs.size(); i++) {
                    int j = cur.partner(i);
                    if (j < 0) {
                        continue;
                    }
                    LocationData sendLoc = r.location(cur.partnerLocation());
                    SendTable sends = sendLoc.sends();
                    a.beginRow().append(sendLoc.rank()).append(recvLoc.rank()).append(sendLoc.location())
                            .append(recvLoc.location()).append(recvs.comm(i)).append(recvs.tag(i))
                            .append(sends.bytes(j)).append(seconds(sends.enter(j))).append(seconds(sends.time(j)));
                    if (sends.completion(j) == SendTable.CMP_NONE) {
                        a.appendNull().appendNull().appendNull();
                    } else {
                        a.append(seconds(sends.cmpEnter(j))).append(seconds(sends.cmpLeave(j)));
                        appendPath(a, map, sends.cmpCallPath(j), sendLoc);
                    }
                    a.append(seconds(recvs.reqEnter(i))).append(seconds(recvs.enter(i))).append(seconds(recvs.time(i)))
                            .append(seconds(recvs.leave(i)));
                    appendPath(a, map, recvs.callPath(i), recvLoc);
                    a.endRow();
                }
            }
        }
    }

    private void makeCollectives() throws SQLException, IOException {
        create("CREATE TABLE collectives (communicator INTEGER, instance INTEGER, op VARCHAR, member INTEGER, "
                + "rank INTEGER, location INTEGER, begin_time DOUBLE, end_time DOUBLE, root INTEGER, bytes_sent BIGINT, "
                + "bytes_received BIGINT, callpath INTEGER)");
        Replay r = replay();
        int[] map = replayPaths();
        CollectiveMatching cm = r.collectives();
        TraceDefinitions defs = source.definitions();
        try (DuckDBAppender a = appender("collectives")) {
            for (int c = 0; c < defs.communicators().size(); c++) {
                Communicator comm = defs.communicator(c);
                for (int k = 0; k < cm.instances(c); k++) {
                    for (int m = 0; m < cm.size(c); m++) {
                        LocationData d = r.location(cm.memberLocation(c, m));
                        CollectiveTable t = d.collectives();
                        int i = cm.record(c, k, m);
                        a.beginRow().append(c).append(k).append(CollectiveOp.isValidCode(t.op(i))
                                        ? CollectiveOp.of(t.op(i)).name() : "UNKNOWN").append(m).append(d.rank())
                                .append(d.location()).append(seconds(t.begin(i))).append(seconds(t.end(i)));
                        int root = t.root(i);
                        if (root < 0 || root >= comm.size()) {
                            a.appendNull();
                        } else {
                            a.append(comm.members()[root]);
                        }
                        a.append(t.sent(i)).append(t.received(i));
                        appendPath(a, map, t.callPath(i), d);
                        a.endRow();
                    }
                }
            }
        }
    }

    private int[] cubePaths(SeverityCube cube) throws IOException {
        List<CallPath> cps = cube.callPaths();
        return translate(cps.size(), n -> cps.get(n).parent(), n -> cps.get(n).region());
    }

    private void makeMetrics() throws SQLException, IOException {
        create("CREATE TABLE metrics (name VARCHAR, display_name VARCHAR, unit VARCHAR, parent VARCHAR, "
                + "description VARCHAR)");
        SeverityCube cube = analysis().cube();
        try (DuckDBAppender a = appender("metrics")) {
            for (Metric m : cube.metrics()) {
                a.beginRow().append(m.uniqueName()).append(m.displayName()).append(m.unit());
                if (m.parent() == null) {
                    a.appendNull();
                } else {
                    a.append(m.parent());
                }
                a.append(m.description()).endRow();
            }
        }
    }

    private void makeSeverities() throws SQLException, IOException {
        create("CREATE TABLE severities (metric VARCHAR, callpath INTEGER, location INTEGER, value DOUBLE)");
        SeverityCube cube = analysis().cube();
        int[] map = cubePaths(cube);
        int locations = cube.locations().size();
        try (DuckDBAppender a = appender("severities")) {
            for (int m = 0; m < cube.metrics().size(); m++) {
                if (cube.isOmitted(m)) {
                    continue;
                }
                String name = cube.metrics().get(m).uniqueName();
                for (int c = 0; c < cube.callPaths().size(); c++) {
                    double[] row = cube.rowOrNull(m, c);
                    if (row == null) {
                        continue;
                    }
                    for (int l = 0; l < locations; l++) {
                        if (row[l] != 0) {
                            a.beginRow().append(name);
                            if (map[c] < 0) {
                                a.appendNull();
                            } else {
                                a.append(map[c]);
                            }
                            a.append(cube.locations().get(l).index()).append(row[l]).endRow();
                        }
                    }
                }
            }
        }
    }

    private void makeWaitStates() throws SQLException, IOException {
        create("CREATE TABLE wait_states (id INTEGER, pattern VARCHAR, location INTEGER, rank INTEGER, thread INTEGER, "
                + "callpath INTEGER, start_time DOUBLE, end_time DOUBLE, severity DOUBLE, partner_rank INTEGER, "
                + "waiting_ranks INTEGER, delay_rank INTEGER, delay_thread INTEGER, delay_from DOUBLE, delay_to DOUBLE, "
                + "delay DOUBLE, propagated DOUBLE, delay_callpath INTEGER)");
        AnalysisResult r = analysis();
        int[] map = cubePaths(r.cube());
        java.util.Map<dev.straggler.patterns.Instance, DelayCause> causes = causesByInstance(r);
        java.util.Map<Long, Integer> locationOf = new java.util.HashMap<>();
        for (Location l : source.definitions().locations()) {
            locationOf.putIfAbsent(((long) l.rank() << 32) | l.thread(), l.index());
        }
        List<dev.straggler.patterns.Instance> all = r.mostSevere();
        try (DuckDBAppender a = appender("wait_states")) {
            for (int k = 0; k < all.size(); k++) {
                dev.straggler.patterns.Instance i = all.get(k);
                a.beginRow().append(k).append(i.metric())
                        .append(locationOf.get(((long) i.rank() << 32) | i.thread())).append(i.rank()).append(i.thread());
                appendPath(a, map, i.callPath());
                a.append(i.start()).append(i.end()).append(i.severity());
                if (i.partnerRank() < 0) {
                    a.appendNull();
                } else {
                    a.append(i.partnerRank());
                }
                a.append(i.waitingRanks());
                DelayCause c = causes.get(i);
                if (c == null) {
                    // no cause: root causes off or not computable, an OpenMP instance, or none booked
                    for (int n = 0; n < 7; n++) {
                        a.appendNull();
                    }
                } else {
                    a.append(c.rank()).append(c.thread()).append(c.from()).append(c.to()).append(c.delay())
                            .append(c.propagated());
                    if (c.callPaths().isEmpty()) {
                        a.appendNull();
                    } else {
                        // the parts come largest first (DelayCause)
                        appendPath(a, map, c.callPaths().get(0).callPath());
                    }
                }
                a.endRow();
            }
        }
    }

    /** One row per wait-state instance and call path of its delay: {@link DelayCause#callPaths()}. */
    private void makeWaitStateDelays() throws SQLException, IOException {
        create("CREATE TABLE wait_state_delays (wait_state INTEGER, callpath INTEGER, seconds DOUBLE)");
        AnalysisResult r = analysis();
        int[] map = cubePaths(r.cube());
        java.util.Map<dev.straggler.patterns.Instance, DelayCause> causes = causesByInstance(r);
        List<dev.straggler.patterns.Instance> all = r.mostSevere();
        try (DuckDBAppender a = appender("wait_state_delays")) {
            for (int k = 0; k < all.size(); k++) {
                DelayCause c = causes.get(all.get(k));
                if (c == null) {
                    continue;
                }
                for (DelayCause.Part p : c.callPaths()) {
                    a.beginRow().append(k);
                    appendPath(a, map, p.callPath());
                    a.append(p.seconds()).endRow();
                }
            }
        }
    }

    private static void appendPath(DuckDBAppender a, int[] map, int cubePath) throws SQLException {
        if (cubePath < 0 || cubePath >= map.length || map[cubePath] < 0) {
            a.appendNull();
        } else {
            a.append(map[cubePath]);
        }
    }

    private void makeCommunicatorWaits() throws SQLException, IOException {
        create("CREATE TABLE communicator_waits (communicator INTEGER, name VARCHAR, size INTEGER, metric VARCHAR, "
                + "seconds DOUBLE)");
        try (DuckDBAppender a = appender("communicator_waits")) {
            for (dev.straggler.patterns.CommunicatorWaits c : analysis().communicators()) {
                for (java.util.Map.Entry<String, Double> e : c.metrics().entrySet()) {
                    a.beginRow().append(c.id()).append(c.name()).append(c.size()).append(e.getKey())
                            .append(e.getValue()).endRow();
                }
            }
        }
    }

    /** The clock of the trace (times in every table are seconds since its start). */
    public Clock clock() {
        return source.definitions().clock();
    }

    @Override
    public void close() {
        releaseStreams();
        try {
            connection.close();
        } catch (SQLException ignored) {
            // closing: nothing left to keep
        }
        if (allocator != null) {
            allocator.close();
        }
    }

    static String oneLine(SQLException e) {
        String m = e.getMessage() == null ? e.toString() : e.getMessage();
        if (m.contains("stream has been released") || m.contains(EventStream.SECOND_READ)) {
            // DuckDB's words for a second scan of the statement's events stream (or the stream's own refusal)
            return EventStream.SECOND_READ;
        }
        int nl = m.indexOf('\n');
        return (nl < 0 ? m : m.substring(0, nl)).trim();
    }
}
