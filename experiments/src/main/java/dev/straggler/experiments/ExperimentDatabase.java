package dev.straggler.experiments;

import dev.straggler.patterns.CommunicatorWaits;
import dev.straggler.patterns.callsite.Callsite;
import dev.straggler.patterns.callsite.CallsiteEntry;
import dev.straggler.patterns.callsite.CallsiteStatistics;
import dev.straggler.patterns.callsite.Frame;
import dev.straggler.patterns.callsite.RankStats;
import dev.straggler.patterns.cube.CallPath;
import dev.straggler.patterns.cube.Metric;
import dev.straggler.patterns.cube.PathNames;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.patterns.cube.SystemLocation;
import dev.straggler.trace.Numbers;
import dev.straggler.trace.Paradigm;
import dev.straggler.trace.Region;
import dev.straggler.trace.RegionRole;

import java.io.IOException;
import java.io.Writer;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The experiment database: analyses of many runs, kept in embedded DuckDB (a file) or a shared PostgreSQL server,
 * with the tables and views of {@link Schema}. Adding runs happens in one transaction ({@link #add}), so a failed
 * add leaves the database as it was; the same run (same content, same application) is not added twice.
 */
public final class ExperimentDatabase implements AutoCloseable {
    private final Connection connection;
    private final String where;
    /** The schema version of the database as opened; {@link #add} brings it to {@link Schema#VERSION}. */
    private int version;

    /**
     * One run to add: its analysis, its callsite statistics and its wait states per communicator (each null when its
     * input has none: an analysis cube has no callsite statistics, a .cubex no communicator dimension) and provenance.
     */
    public record NewTrial(String application, String experiment, String name, int processes, SeverityCube cube,
                           CallsiteStatistics callsites, List<CommunicatorWaits> communicators,
                           Map<String, String> parameters, String source,
                           String sourceKind, long sourceBytes, String contentHash, boolean rootCauses,
                           String stragglerVersion, String commandLine) {
        public NewTrial {
            Objects.requireNonNull(application, "application");
            Objects.requireNonNull(experiment, "experiment");
            Objects.requireNonNull(cube, "cube");
            parameters = Map.copyOf(parameters);
            communicators = communicators == null ? null : List.copyOf(communicators);
        }
    }

    /** A trial as listed. */
    public record TrialInfo(int id, String application, String experiment, String name, int processes,
                            String machine, String addedAt, String source, Map<String, String> parameters) {
    }

    /** Whether a trial's wait states per communicator are in the database, and why not. */
    public enum Communicators {
        /** Stored with the trial. */
        STORED,
        /** The trial's input has no communicator dimension (a .cubex). */
        NOT_IN_INPUT,
        /** The trial was added before the database kept them (schema version 1); adding it again stores them. */
        ADDED_BEFORE_KEPT
    }

    /**
     * A trial loaded back: its analysis cube, its callsite statistics and wait states per communicator (each null
     * when not stored; {@code communicatorsStored} says why), and what kind of input it was added from
     * ({@code trace}, {@code cubex} or {@code analysis-json}).
     */
    public record LoadedTrial(TrialInfo info, SeverityCube cube, CallsiteStatistics callsites,
                              List<CommunicatorWaits> communicators, Communicators communicatorsStored,
                              String sourceKind) {
    }

    private ExperimentDatabase(Connection connection, String where) {
        this.connection = connection;
        this.where = where;
    }

    /**
     * Opens (creating where needed) the database {@code spec}: a {@code postgresql://host[:port]/db[?user=..]} or
     * {@code jdbc:postgresql:} URL for PostgreSQL, otherwise a DuckDB file.
     *
     * @throws IOException naming the database when it cannot be opened or has another schema version
     */
    public static ExperimentDatabase open(String spec) throws IOException {
        return open(spec, true);
    }

    /**
     * Opens a database that must exist already (to list, query, remove or read trials): a DuckDB file that is not
     * there is an error naming it, not a new empty database.
     */
    public static ExperimentDatabase openExisting(String spec) throws IOException {
        return open(spec, false);
    }

    /** Whether {@code spec} names a DuckDB file (rather than a PostgreSQL server). */
    public static boolean isFile(String spec) {
        return !spec.startsWith("postgresql://") && !spec.startsWith("postgres://") && !spec.startsWith("jdbc:");
    }

    private static ExperimentDatabase open(String spec, boolean create) throws IOException {
        String url;
        if (spec.startsWith("postgresql://") || spec.startsWith("postgres://")) {
            url = "jdbc:" + (spec.startsWith("postgres://") ? "postgresql://" + spec.substring("postgres://".length()) : spec);
        } else if (spec.startsWith("jdbc:postgresql:")) {
            url = spec;
        } else if (spec.startsWith("jdbc:")) {
            throw new IOException(spec + ": only DuckDB files and PostgreSQL URLs are supported");
        } else {
            Path file = Path.of(spec).toAbsolutePath();
            if (!create && !java.nio.file.Files.exists(file)) {
                throw new IOException(spec + ": no such experiment database (straggler db add --db " + spec
                        + " creates it)");
            }
            url = "jdbc:duckdb:" + file;
        }
        Connection c;
        try {
            c = DriverManager.getConnection(url);
        } catch (SQLException e) {
            throw new IOException(spec + ": cannot open the experiment database: " + oneLine(e), e);
        }
        ExperimentDatabase db = new ExperimentDatabase(c, spec);
        try {
            db.ensureSchema();
        } catch (SQLException | IOException e) {
            db.close();
            throw e instanceof IOException io ? io : new IOException(spec + ": " + oneLine((SQLException) e), e);
        }
        return db;
    }

    /** The first line of a driver's message (they can run over several). */
    static String oneLine(SQLException e) {
        String m = e.getMessage() == null ? e.toString() : e.getMessage();
        int nl = m.indexOf('\n');
        return (nl < 0 ? m : m.substring(0, nl)).trim();
    }

    /** The database's schema version: {@link Schema#VERSION}, or older until the first {@link #add} upgrades it. */
    public int schemaVersion() {
        return version;
    }

    private void ensureSchema() throws SQLException, IOException {
        boolean exists;
        try (ResultSet rs = connection.getMetaData().getTables(null, null, "schema_version", null)) {
            exists = rs.next();
        }
        if (!exists) {
            connection.setAutoCommit(false);
            try (Statement s = connection.createStatement()) {
                for (String ddl : Schema.TABLES) {
                    s.execute(ddl);
                }
                for (String ddl : Schema.VIEWS) {
                    s.execute(ddl);
                }
                s.execute("INSERT INTO schema_version VALUES (" + Schema.VERSION + ")");
                connection.commit();
                version = Schema.VERSION;
            } catch (SQLException e) {
                connection.rollback();
                throw e;
            } finally {
                connection.setAutoCommit(true);
            }
            return;
        }
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery("SELECT version FROM schema_version")) {
            int v = rs.next() ? rs.getInt(1) : -1;
            // an older version is read as it is and upgraded by the first add; a newer one has tables this
            // Straggler does not know, whose rows a removal or replacement would leave behind
            if (v < 1 || v > Schema.VERSION) {
                throw new IOException(where + ": experiment database of schema version " + v + "; this Straggler reads "
                        + "versions 1 to " + Schema.VERSION);
            }
            version = v;
        }
    }

    /** Brings an older database up to {@link Schema#VERSION} inside the caller's transaction (additions only). */
    private void upgrade() throws SQLException {
        try (Statement s = connection.createStatement()) {
            // read again: another writer of a shared server may have upgraded it since this one opened it
            try (ResultSet rs = s.executeQuery("SELECT version FROM schema_version")) {
                version = rs.next() ? rs.getInt(1) : version;
            }
            for (String ddl : Schema.upgrade(version)) {
                s.execute(ddl);
            }
        }
        version = Schema.VERSION;
    }

    /**
     * Adds the runs in one transaction.
     *
     * @param replace a run already stored (same application and content hash) is replaced instead of refused
     * @return the new trials' ids, in order
     * @throws IOException when a run is already stored (and not {@code replace}) or the database refuses; nothing is
     *                     added then
     */
    public List<Integer> add(List<NewTrial> trials, boolean replace) throws IOException {
        List<Integer> ids = new ArrayList<>();
        int opened = version;
        try {
            connection.setAutoCommit(false);
            // the upgrade belongs to the add: a failed add leaves the database at its old version too
            upgrade();
            for (NewTrial t : trials) {
                Integer existing = findDuplicate(t);
                if (existing != null) {
                    if (!replace) {
                        throw new IOException(where + ": " + t.source() + " is already stored as trial " + existing
                                + " of application " + t.application() + " (same content); --replace replaces it");
                    }
                    removeTrial(existing);
                }
                ids.add(insert(t));
            }
            connection.commit();
            return ids;
        } catch (SQLException | IOException | RuntimeException e) {
            version = opened;
            try {
                connection.rollback();
            } catch (SQLException ignored) {
                // the original failure is what matters
            }
            if (e instanceof IOException io) {
                throw io;
            }
            if (e instanceof SQLException sql) {
                throw new IOException(where + ": " + oneLine(sql), sql);
            }
            throw (RuntimeException) e;
        } finally {
            try {
                connection.setAutoCommit(true);
            } catch (SQLException ignored) {
                // nothing left to do
            }
        }
    }

    private Integer findDuplicate(NewTrial t) throws SQLException {
        try (PreparedStatement p = connection.prepareStatement("SELECT t.id FROM trials t JOIN experiments e ON "
                + "e.id = t.experiment_id JOIN applications a ON a.id = e.application_id WHERE a.name = ? AND t.content_hash = ?")) {
            p.setString(1, t.application());
            p.setString(2, t.contentHash());
            try (ResultSet rs = p.executeQuery()) {
                return rs.next() ? rs.getInt(1) : null;
            }
        }
    }

    private int nextId(String table) throws SQLException {
        try (Statement s = connection.createStatement();
             ResultSet rs = s.executeQuery("SELECT COALESCE(MAX(id), 0) + 1 FROM " + table)) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private int idOf(String table, String where, Object... keys) throws SQLException {
        try (PreparedStatement p = connection.prepareStatement("SELECT id FROM " + table + " WHERE " + where)) {
            for (int i = 0; i < keys.length; i++) {
                p.setObject(i + 1, keys[i]);
            }
            try (ResultSet rs = p.executeQuery()) {
                return rs.next() ? rs.getInt(1) : -1;
            }
        }
    }

    private int insert(NewTrial t) throws SQLException {
        int app = idOf("applications", "name = ?", t.application());
        if (app < 0) {
            app = nextId("applications");
            update("INSERT INTO applications (id, name) VALUES (?, ?)", app, t.application());
        }
        int exp = idOf("experiments", "application_id = ? AND name = ?", app, t.experiment());
        if (exp < 0) {
            exp = nextId("experiments");
            update("INSERT INTO experiments (id, application_id, name) VALUES (?, ?, ?)", exp, app, t.experiment());
        }
        int id = nextId("trials");
        SeverityCube c = t.cube();
        String machine = c.locations().isEmpty() || c.locations().get(0).host().isEmpty() ? null
                : c.locations().get(0).host().stream().map(n -> n.name()).reduce((a, b) -> a + "/" + b).orElse(null);
        update("INSERT INTO trials (id, experiment_id, name, processes, locations, machine, added_at, source, source_kind, "
                        + "source_bytes, content_hash, root_causes, straggler_version, command_line) "
                        + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", id, exp, t.name(), t.processes(),
                c.locations().size(), machine, new Timestamp(System.currentTimeMillis()), t.source(), t.sourceKind(),
                t.sourceBytes(), t.contentHash(), t.rootCauses(), t.stragglerVersion(), t.commandLine());
        try (PreparedStatement p = connection.prepareStatement("INSERT INTO trial_parameters VALUES (?, ?, ?)")) {
            for (Map.Entry<String, String> e : new java.util.TreeMap<>(t.parameters()).entrySet()) {
                p.setInt(1, id);
                p.setString(2, e.getKey());
                p.setString(3, e.getValue());
                p.addBatch();
            }
            p.executeBatch();
        }
        try (PreparedStatement p = connection.prepareStatement("INSERT INTO trial_attributes VALUES (?, ?, ?)")) {
            for (Map.Entry<String, String> e : c.attributes().entrySet()) {
                p.setInt(1, id);
                p.setString(2, e.getKey());
                p.setString(3, e.getValue());
                p.addBatch();
            }
            p.executeBatch();
        }
        insertCube(id, c);
        if (t.callsites() != null) {
            insertCallsites(id, t.callsites());
        }
        insertCommunicators(id, t.communicators());
        return id;
    }

    /** The trial's wait states per communicator; null (a .cubex) is stored as "the input has none". */
    private void insertCommunicators(int id, List<CommunicatorWaits> comms) throws SQLException {
        update("INSERT INTO communicator_runs (trial_id, has_communicators) VALUES (?, ?)", id, comms != null);
        if (comms == null) {
            return;
        }
        try (PreparedStatement c = connection.prepareStatement("INSERT INTO communicators VALUES (?, ?, ?)");
             PreparedStatement m = connection.prepareStatement("INSERT INTO communicator_members VALUES (?, ?, ?, ?)");
             PreparedStatement w = connection.prepareStatement("INSERT INTO communicator_waits VALUES (?, ?, ?, ?)")) {
            for (CommunicatorWaits x : comms) {
                c.setInt(1, id);
                c.setInt(2, x.id());
                c.setString(3, x.name());
                c.addBatch();
                int[] ranks = x.ranks();
                for (int i = 0; i < ranks.length; i++) {
                    m.setInt(1, id);
                    m.setInt(2, x.id());
                    m.setInt(3, i);
                    m.setInt(4, ranks[i]);
                    m.addBatch();
                }
                for (Map.Entry<String, Double> e : x.metrics().entrySet()) {
                    w.setInt(1, id);
                    w.setInt(2, x.id());
                    w.setString(3, e.getKey());
                    w.setDouble(4, e.getValue());
                    w.addBatch();
                }
            }
            c.executeBatch();
            m.executeBatch();
            w.executeBatch();
        }
    }

    private void insertCube(int id, SeverityCube c) throws SQLException {
        try (PreparedStatement p = connection.prepareStatement("INSERT INTO metrics VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
            for (int m = 0; m < c.metrics().size(); m++) {
                Metric x = c.metrics().get(m);
                p.setInt(1, id);
                p.setInt(2, m);
                p.setString(3, x.uniqueName());
                p.setString(4, x.displayName());
                p.setString(5, x.unit());
                p.setBoolean(6, x.integer());
                p.setString(7, x.parent());
                p.setString(8, x.description());
                p.addBatch();
            }
            p.executeBatch();
        }
        try (PreparedStatement p = connection.prepareStatement("INSERT INTO regions VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            for (int r = 0; r < c.regions().size(); r++) {
                Region x = c.regions().get(r);
                p.setInt(1, id);
                p.setInt(2, r);
                p.setString(3, x.name());
                p.setString(4, x.canonicalName());
                p.setString(5, x.sourceFile());
                p.setInt(6, x.beginLine());
                p.setInt(7, x.endLine());
                p.setString(8, x.paradigm().name());
                p.setString(9, x.role().name());
                p.addBatch();
            }
            p.executeBatch();
        }
        try (PreparedStatement p = connection.prepareStatement("INSERT INTO call_paths VALUES (?, ?, ?, ?, ?, ?, ?)")) {
            for (CallPath x : c.callPaths()) {
                p.setInt(1, id);
                p.setInt(2, x.id());
                p.setInt(3, x.parent());
                p.setInt(4, x.region());
                p.setInt(5, x.callsite());
                p.setInt(6, c.cnodeId(x.id()));
                p.setString(7, PathNames.join(c.pathNames(x.id())));
                p.addBatch();
            }
            p.executeBatch();
        }
        try (PreparedStatement p = connection.prepareStatement("INSERT INTO locations VALUES (?, ?, ?, ?, ?)")) {
            for (SystemLocation x : c.locations()) {
                p.setInt(1, id);
                p.setInt(2, x.index());
                p.setInt(3, x.rank());
                p.setInt(4, x.thread());
                p.setString(5, x.name());
                p.addBatch();
            }
            p.executeBatch();
        }
        try (PreparedStatement p = connection.prepareStatement("INSERT INTO severities VALUES (?, ?, ?, ?, ?)")) {
            int pending = 0;
            for (int m = 0; m < c.metrics().size(); m++) {
                for (int cp = 0; cp < c.callPaths().size(); cp++) {
                    double[] row = c.rowOrNull(m, cp);
                    if (row == null) {
                        continue;
                    }
                    for (int l = 0; l < row.length; l++) {
                        if (row[l] != 0) {
                            p.setInt(1, id);
                            p.setInt(2, m);
                            p.setInt(3, cp);
                            p.setInt(4, l);
                            p.setDouble(5, row[l]);
                            p.addBatch();
                            if (++pending == 10_000) {
                                p.executeBatch();
                                pending = 0;
                            }
                        }
                    }
                }
            }
            p.executeBatch();
        }
    }

    private void insertCallsites(int id, CallsiteStatistics s) throws SQLException {
        update("INSERT INTO callsite_runs VALUES (?, ?, ?)", id, s.origin(), s.depth());
        try (PreparedStatement p = connection.prepareStatement("INSERT INTO callsite_rank_times VALUES (?, ?, ?, ?)")) {
            for (int r = 0; r < s.appTime().length; r++) {
                p.setInt(1, id);
                p.setInt(2, r);
                p.setDouble(3, s.appTime()[r]);
                p.setDouble(4, s.mpiTime()[r]);
                p.addBatch();
            }
            p.executeBatch();
        }
        try (PreparedStatement sites = connection.prepareStatement("INSERT INTO callsites VALUES (?, ?, ?, ?)");
             PreparedStatement frames = connection.prepareStatement("INSERT INTO callsite_frames VALUES (?, ?, ?, ?, ?, ?)");
             PreparedStatement ranks = connection.prepareStatement(
                     "INSERT INTO callsite_ranks VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            for (CallsiteEntry e : s.callsites()) {
                Callsite site = e.site();
                sites.setInt(1, id);
                sites.setInt(2, site.id());
                sites.setString(3, site.mpiCall());
                sites.setString(4, site.key());
                sites.addBatch();
                for (int f = 0; f < site.frames().size(); f++) {
                    Frame fr = site.frames().get(f);
                    frames.setInt(1, id);
                    frames.setInt(2, site.id());
                    frames.setInt(3, f);
                    frames.setString(4, fr.function());
                    frames.setString(5, fr.file());
                    frames.setInt(6, fr.line());
                    frames.addBatch();
                }
                for (RankStats r : e.perRank()) {
                    ranks.setInt(1, id);
                    ranks.setInt(2, site.id());
                    ranks.setInt(3, r.rank());
                    ranks.setLong(4, r.count());
                    ranks.setDouble(5, r.total());
                    ranks.setDouble(6, r.max());
                    ranks.setDouble(7, r.min());
                    ranks.setDouble(8, r.bytes());
                    ranks.setDouble(9, r.bytesMax());
                    ranks.setDouble(10, r.bytesMin());
                    ranks.addBatch();
                }
            }
            sites.executeBatch();
            frames.executeBatch();
            ranks.executeBatch();
        }
    }

    private void update(String sql, Object... args) throws SQLException {
        try (PreparedStatement p = connection.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                p.setObject(i + 1, args[i]);
            }
            p.executeUpdate();
        }
    }

    /** Removes trials and everything stored for them, in one transaction; returns how many existed. */
    public int remove(List<Integer> trialIds) throws IOException {
        try {
            connection.setAutoCommit(false);
            int n = 0;
            for (int id : trialIds) {
                if (idOf("trials", "id = ?", id) < 0) {
                    throw new IOException(where + ": no trial " + id);
                }
                removeTrial(id);
                n++;
            }
            // experiments and applications left without trials go too
            update("DELETE FROM experiments WHERE id NOT IN (SELECT experiment_id FROM trials)");
            update("DELETE FROM applications WHERE id NOT IN (SELECT application_id FROM experiments)");
            connection.commit();
            return n;
        } catch (SQLException e) {
            rollback();
            throw new IOException(where + ": " + oneLine(e), e);
        } catch (IOException e) {
            rollback();
            throw e;
        } finally {
            try {
                connection.setAutoCommit(true);
            } catch (SQLException ignored) {
                // nothing left to do
            }
        }
    }

    private void rollback() {
        try {
            connection.rollback();
        } catch (SQLException ignored) {
            // the original failure is what matters
        }
    }

    private void removeTrial(int id) throws SQLException {
        for (String table : Schema.trialTables(version)) {
            update("DELETE FROM " + table + " WHERE trial_id = ?", id);
        }
        update("DELETE FROM trials WHERE id = ?", id);
    }

    /** Trials matching the selection, by id. */
    public List<TrialInfo> list(Selection s) throws IOException {
        StringBuilder sql = new StringBuilder("SELECT trial, application, experiment, trial_name, processes, machine, "
                + "CAST(added_at AS VARCHAR), source FROM trial_overview WHERE 1 = 1");
        List<Object> args = new ArrayList<>();
        if (s.application() != null) {
            sql.append(" AND application = ?");
            args.add(s.application());
        }
        if (s.experiment() != null) {
            sql.append(" AND experiment = ?");
            args.add(s.experiment());
        }
        if (s.processes() != null) {
            sql.append(" AND processes = ?");
            args.add(s.processes());
        }
        if (s.trial() != null) {
            sql.append(" AND trial = ?");
            args.add(s.trial());
        }
        for (Map.Entry<String, String> e : s.parameters().entrySet()) {
            sql.append(" AND trial IN (SELECT trial_id FROM trial_parameters WHERE name = ? AND value = ?)");
            args.add(e.getKey());
            args.add(e.getValue());
        }
        sql.append(" ORDER BY processes, trial");
        List<TrialInfo> out = new ArrayList<>();
        try (PreparedStatement p = connection.prepareStatement(sql.toString())) {
            for (int i = 0; i < args.size(); i++) {
                p.setObject(i + 1, args.get(i));
            }
            try (ResultSet rs = p.executeQuery()) {
                while (rs.next()) {
                    out.add(new TrialInfo(rs.getInt(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getInt(5),
                            rs.getString(6), rs.getString(7), rs.getString(8), parameters(rs.getInt(1))));
                }
            }
        } catch (SQLException e) {
            throw new IOException(where + ": " + oneLine(e), e);
        }
        return out;
    }

    private Map<String, String> parameters(int trial) throws SQLException {
        Map<String, String> out = new LinkedHashMap<>();
        try (PreparedStatement p = connection.prepareStatement(
                "SELECT name, value FROM trial_parameters WHERE trial_id = ? ORDER BY name")) {
            p.setInt(1, trial);
            try (ResultSet rs = p.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getString(1), rs.getString(2));
                }
            }
        }
        return out;
    }

    /** A trial's analysis and callsite statistics, as they were added. */
    public LoadedTrial load(TrialInfo info) throws IOException {
        int id = info.id();
        try {
            List<Metric> metrics = new ArrayList<>();
            query("SELECT unique_name, display_name, unit, is_integer, parent, description FROM metrics WHERE trial_id = ? "
                    + "ORDER BY id", id, rs -> metrics.add(new Metric(rs.getString(1), rs.getString(2), rs.getString(3),
                    rs.getBoolean(4), rs.getString(5), rs.getString(6))));
            List<Region> regions = new ArrayList<>();
            query("SELECT id, name, canonical_name, source_file, begin_line, end_line, paradigm, role FROM regions "
                    + "WHERE trial_id = ? ORDER BY id", id, rs -> regions.add(new Region(rs.getInt(1), rs.getString(2),
                    rs.getString(3), rs.getString(4), rs.getInt(5), rs.getInt(6), Paradigm.valueOf(rs.getString(7)),
                    RegionRole.valueOf(rs.getString(8)))));
            List<CallPath> paths = new ArrayList<>();
            List<Integer> cnodes = new ArrayList<>();
            query("SELECT id, parent_id, region_id, callsite_line, cnode_id FROM call_paths WHERE trial_id = ? ORDER BY id",
                    id, rs -> {
                        paths.add(new CallPath(rs.getInt(1), rs.getInt(2), rs.getInt(3), rs.getInt(4)));
                        cnodes.add(rs.getInt(5));
                    });
            List<SystemLocation> locations = new ArrayList<>();
            query("SELECT id, rank, thread, name FROM locations WHERE trial_id = ? ORDER BY id", id,
                    rs -> locations.add(new SystemLocation(rs.getInt(1), rs.getInt(2), rs.getInt(3), rs.getString(4))));
            Map<String, String> attrs = new LinkedHashMap<>();
            query("SELECT name, value FROM trial_attributes WHERE trial_id = ? ORDER BY name", id,
                    rs -> attrs.put(rs.getString(1), rs.getString(2)));
            SeverityCube cube = new SeverityCube(metrics, regions, paths, locations, attrs);
            query("SELECT metric_id, call_path_id, location_id, value FROM severities WHERE trial_id = ?", id,
                    rs -> cube.set(rs.getInt(1), rs.getInt(2), rs.getInt(3), rs.getDouble(4)));
            if (cnodes.stream().allMatch(x -> x >= 0)) {
                try {
                    cube.setCnodeIds(cnodes.stream().mapToInt(Integer::intValue).toArray());
                } catch (IllegalArgumentException e) {
                    // ids that are not a permutation: the writer numbers in tree order
                }
            }
            cube.freeze();
            String[] kind = new String[1];
            query("SELECT source_kind FROM trials WHERE id = ?", id, rs -> kind[0] = rs.getString(1));
            Communicators stored = communicatorsStored(id);
            return new LoadedTrial(info, cube, loadCallsites(id),
                    stored == Communicators.STORED ? loadCommunicators(id) : null, stored, kind[0]);
        } catch (SQLException e) {
            throw new IOException(where + ": trial " + id + ": " + oneLine(e), e);
        }
    }

    private Communicators communicatorsStored(int id) throws SQLException {
        if (version < 2) {
            return Communicators.ADDED_BEFORE_KEPT;
        }
        Boolean[] has = new Boolean[1];
        query("SELECT has_communicators FROM communicator_runs WHERE trial_id = ?", id, rs -> has[0] = rs.getBoolean(1));
        // no row: added while the database was at version 1, and upgraded since
        return has[0] == null ? Communicators.ADDED_BEFORE_KEPT
                : has[0] ? Communicators.STORED : Communicators.NOT_IN_INPUT;
    }

    /** The trial's communicators in id order (definition order for a trace), metrics in metric-tree order. */
    private List<CommunicatorWaits> loadCommunicators(int id) throws SQLException {
        Map<Integer, String> names = new LinkedHashMap<>();
        query("SELECT id, name FROM communicators WHERE trial_id = ? ORDER BY id", id,
                rs -> names.put(rs.getInt(1), rs.getString(2)));
        Map<Integer, List<Integer>> members = new LinkedHashMap<>();
        query("SELECT communicator_id, rank FROM communicator_members WHERE trial_id = ? ORDER BY communicator_id, position",
                id, rs -> members.computeIfAbsent(rs.getInt(1), k -> new ArrayList<>()).add(rs.getInt(2)));
        Map<Integer, Map<String, Double>> waits = new LinkedHashMap<>();
        // the metrics table's ids are the cube's metric-tree order, the order CommunicatorWaits keeps them in
        query("SELECT w.communicator_id, w.metric, w.seconds FROM communicator_waits w LEFT JOIN metrics m "
                        + "ON m.trial_id = w.trial_id AND m.unique_name = w.metric WHERE w.trial_id = ? "
                        + "ORDER BY w.communicator_id, m.id, w.metric", id,
                rs -> waits.computeIfAbsent(rs.getInt(1), k -> new LinkedHashMap<>()).put(rs.getString(2), rs.getDouble(3)));
        List<CommunicatorWaits> out = new ArrayList<>();
        for (Map.Entry<Integer, String> c : names.entrySet()) {
            int[] ranks = members.getOrDefault(c.getKey(), List.of()).stream().mapToInt(Integer::intValue).toArray();
            out.add(new CommunicatorWaits(c.getKey(), c.getValue(), ranks, waits.getOrDefault(c.getKey(), Map.of())));
        }
        return out;
    }

    private CallsiteStatistics loadCallsites(int id) throws SQLException {
        String[] origin = new String[1];
        int[] depth = new int[1];
        query("SELECT origin, depth FROM callsite_runs WHERE trial_id = ?", id, rs -> {
            origin[0] = rs.getString(1);
            depth[0] = rs.getInt(2);
        });
        if (origin[0] == null) {
            return null;
        }
        List<double[]> times = new ArrayList<>();
        query("SELECT app_time, mpi_time FROM callsite_rank_times WHERE trial_id = ? ORDER BY rank", id,
                rs -> times.add(new double[]{rs.getDouble(1), rs.getDouble(2)}));
        Map<Integer, String> calls = new LinkedHashMap<>();
        query("SELECT id, mpi_call FROM callsites WHERE trial_id = ? ORDER BY id", id,
                rs -> calls.put(rs.getInt(1), rs.getString(2)));
        Map<Integer, List<Frame>> frames = new LinkedHashMap<>();
        query("SELECT callsite_id, function_name, file, line FROM callsite_frames WHERE trial_id = ? "
                + "ORDER BY callsite_id, position", id, rs -> frames.computeIfAbsent(rs.getInt(1), k -> new ArrayList<>())
                .add(new Frame(rs.getString(2), rs.getString(3), rs.getInt(4))));
        Map<Integer, List<RankStats>> ranks = new LinkedHashMap<>();
        query("SELECT callsite_id, rank, calls, time, time_max, time_min, bytes, bytes_max, bytes_min FROM callsite_ranks "
                + "WHERE trial_id = ? ORDER BY callsite_id, rank", id, rs -> ranks.computeIfAbsent(rs.getInt(1),
                k -> new ArrayList<>()).add(new RankStats(rs.getInt(2), rs.getLong(3), rs.getDouble(4), rs.getDouble(5),
                rs.getDouble(6), rs.getDouble(7), rs.getDouble(8), rs.getDouble(9))));
        List<CallsiteEntry> entries = new ArrayList<>();
        for (Map.Entry<Integer, String> c : calls.entrySet()) {
            Callsite site = new Callsite(c.getKey(), c.getValue(), frames.getOrDefault(c.getKey(), List.of()));
            entries.add(CallsiteEntry.of(site, ranks.getOrDefault(c.getKey(), List.of())));
        }
        double[] app = new double[times.size()];
        double[] mpi = new double[times.size()];
        for (int r = 0; r < app.length; r++) {
            app[r] = times.get(r)[0];
            mpi[r] = times.get(r)[1];
        }
        return new CallsiteStatistics(origin[0], depth[0], app, mpi, entries, List.of());
    }

    @FunctionalInterface
    private interface Row {
        void accept(ResultSet rs) throws SQLException;
    }

    private void query(String sql, int trial, Row row) throws SQLException {
        try (PreparedStatement p = connection.prepareStatement(sql)) {
            p.setInt(1, trial);
            try (ResultSet rs = p.executeQuery()) {
                while (rs.next()) {
                    row.accept(rs);
                }
            }
        }
    }

    /**
     * Runs a query and writes its result as CSV (RFC 4180: a header line, fields quoted where they hold a comma,
     * quote or line break); returns the number of rows.
     */
    public long queryCsv(String sql, Writer out) throws IOException {
        // a query never changes the database: whatever the statement does is rolled back
        try {
            connection.setAutoCommit(false);
        } catch (SQLException e) {
            throw new IOException(where + ": " + oneLine(e), e);
        }
        long rows;
        try {
            rows = writeCsv(sql, out);
        } catch (IOException | RuntimeException e) {
            // the statement's own error is the one to report, also when undoing it fails too
            try {
                endQuery();
            } catch (SQLException rollback) {
                e.addSuppressed(rollback);
            }
            throw e;
        }
        try {
            endQuery();
        } catch (SQLException e) {
            throw new IOException(where + ": " + oneLine(e), e);
        }
        return rows;
    }

    private void endQuery() throws SQLException {
        try {
            connection.rollback();
        } finally {
            connection.setAutoCommit(true);
        }
    }

    private long writeCsv(String sql, Writer out) throws IOException {
        // prepared, not a plain Statement: DuckDB's JDBC driver (1.5) reports any statement a plain Statement fails to
        // run as "Attempting to execute an unsuccessful or closed pending query result", losing its own message
        // ("Catalog Error: Table with name x does not exist!"); preparing it reports that message
        try (PreparedStatement s = connection.prepareStatement(sql); ResultSet rs = s.executeQuery()) {
            ResultSetMetaData md = rs.getMetaData();
            int n = md.getColumnCount();
            for (int i = 1; i <= n; i++) {
                out.write((i > 1 ? "," : "") + csv(md.getColumnLabel(i)));
            }
            out.write("\n");
            long rows = 0;
            while (rs.next()) {
                for (int i = 1; i <= n; i++) {
                    Object v = rs.getObject(i);
                    out.write((i > 1 ? "," : "") + (v == null ? "" : csv(format(v))));
                }
                out.write("\n");
                rows++;
            }
            return rows;
        } catch (SQLException e) {
            throw new IOException(where + ": " + oneLine(e), e);
        }
    }

    /**
     * Numbers as the shortest text that reads back to the stored value ({@link Numbers}): doubles and floats to the
     * same double or float, decimals (DuckDB's DECIMAL, PostgreSQL's NUMERIC) to the same decimal, without the
     * trailing zeros of their scale; everything else as text.
     */
    static String format(Object v) {
        if (v instanceof Double d) {
            return Numbers.shortest(d);
        }
        if (v instanceof Float f) {
            return Numbers.shortest(f);
        }
        if (v instanceof BigDecimal d) {
            return Numbers.decimal(d);
        }
        return v.toString();
    }

    static String csv(String s) {
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) {
            return s;
        }
        return '"' + s.replace("\"", "\"\"") + '"';
    }

    /** Row counts of every table, for checking that a failed operation changed nothing. */
    public Map<String, Long> rowCounts() throws IOException {
        Map<String, Long> out = new LinkedHashMap<>();
        List<String> tables = new ArrayList<>(List.of("applications", "experiments", "trials"));
        tables.addAll(Schema.trialTables(version));
        try (Statement s = connection.createStatement()) {
            for (String t : tables) {
                try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + t)) {
                    rs.next();
                    out.put(t, rs.getLong(1));
                }
            }
        } catch (SQLException e) {
            throw new IOException(where + ": " + oneLine(e), e);
        }
        return out;
    }

    @Override
    public void close() {
        try {
            connection.close();
        } catch (SQLException ignored) {
            // closing a connection that failed: nothing to keep
        }
    }
}
