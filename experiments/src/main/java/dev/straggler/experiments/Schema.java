package dev.straggler.experiments;

import java.util.List;

/**
 * The experiment database's tables and views (docs/experiment-database.md), in SQL that DuckDB and PostgreSQL both
 * accept. PerfDMF's hierarchy (the TAU paper, reference §9.2): applications hold experiments (a study: one code on
 * one machine, say), experiments hold trials (one run each, with its parameters and provenance); a trial holds its
 * analysis as Straggler computes it (metric × call path × location, only non-zero values) and, for traces and mpiP
 * reports, its callsite statistics.
 *
 * <p>Versions: 1 had no per-communicator waiting; 2 added {@link #ADDED_IN_2}. A database of an older version opens
 * as it is (its trials simply lack what later versions keep) and is brought up to {@link #VERSION} by the first
 * {@code add}, in that add's transaction: upgrades only create tables and views, so they never drop or rewrite a row.
 *
 * <p>There are no foreign-key constraints: DuckDB cannot delete a referenced row in the transaction that deleted the
 * rows referring to it, so the writer keeps the references whole instead (a removal deletes a trial's rows, children
 * first, in one transaction).
 */
final class Schema {
    private Schema() {
    }

    /**
     * Bumped with every change of the tables. An older database is read as it is and upgraded when written to
     * ({@link #upgrade}); a newer one is refused with a clear message.
     */
    static final int VERSION = 2;

    /** The tables of version 1. */
    private static final List<String> TABLES_1 = List.of(
            "CREATE TABLE schema_version (version INTEGER NOT NULL)",
            "CREATE TABLE applications (id INTEGER PRIMARY KEY, name VARCHAR NOT NULL UNIQUE)",
            "CREATE TABLE experiments (id INTEGER PRIMARY KEY, application_id INTEGER NOT NULL, "
                    + "name VARCHAR NOT NULL, UNIQUE (application_id, name))",
            "CREATE TABLE trials (id INTEGER PRIMARY KEY, experiment_id INTEGER NOT NULL, "
                    + "name VARCHAR NOT NULL, processes INTEGER NOT NULL, locations INTEGER NOT NULL, machine VARCHAR, "
                    + "added_at TIMESTAMP NOT NULL, source VARCHAR NOT NULL, source_kind VARCHAR NOT NULL, "
                    + "source_bytes BIGINT NOT NULL, content_hash VARCHAR NOT NULL, root_causes BOOLEAN NOT NULL, "
                    + "straggler_version VARCHAR NOT NULL, command_line VARCHAR NOT NULL)",
            "CREATE TABLE trial_parameters (trial_id INTEGER NOT NULL, name VARCHAR NOT NULL, "
                    + "value VARCHAR NOT NULL, PRIMARY KEY (trial_id, name))",
            "CREATE TABLE trial_attributes (trial_id INTEGER NOT NULL, name VARCHAR NOT NULL, "
                    + "value VARCHAR NOT NULL, PRIMARY KEY (trial_id, name))",
            "CREATE TABLE metrics (trial_id INTEGER NOT NULL, id INTEGER NOT NULL, "
                    + "unique_name VARCHAR NOT NULL, display_name VARCHAR NOT NULL, unit VARCHAR NOT NULL, "
                    + "is_integer BOOLEAN NOT NULL, parent VARCHAR, description VARCHAR NOT NULL, PRIMARY KEY (trial_id, id))",
            "CREATE TABLE regions (trial_id INTEGER NOT NULL, id INTEGER NOT NULL, name VARCHAR NOT NULL, "
                    + "canonical_name VARCHAR NOT NULL, source_file VARCHAR NOT NULL, begin_line INTEGER NOT NULL, "
                    + "end_line INTEGER NOT NULL, paradigm VARCHAR NOT NULL, role VARCHAR NOT NULL, PRIMARY KEY (trial_id, id))",
            "CREATE TABLE call_paths (trial_id INTEGER NOT NULL, id INTEGER NOT NULL, "
                    + "parent_id INTEGER NOT NULL, region_id INTEGER NOT NULL, callsite_line INTEGER NOT NULL, "
                    + "cnode_id INTEGER NOT NULL, path VARCHAR NOT NULL, PRIMARY KEY (trial_id, id))",
            "CREATE TABLE locations (trial_id INTEGER NOT NULL, id INTEGER NOT NULL, "
                    + "rank INTEGER NOT NULL, thread INTEGER NOT NULL, name VARCHAR NOT NULL, PRIMARY KEY (trial_id, id))",
            "CREATE TABLE severities (trial_id INTEGER NOT NULL, metric_id INTEGER NOT NULL, "
                    + "call_path_id INTEGER NOT NULL, location_id INTEGER NOT NULL, value DOUBLE PRECISION NOT NULL)",
            "CREATE TABLE callsite_runs (trial_id INTEGER NOT NULL PRIMARY KEY, origin VARCHAR NOT NULL, "
                    + "depth INTEGER NOT NULL)",
            "CREATE TABLE callsite_rank_times (trial_id INTEGER NOT NULL, rank INTEGER NOT NULL, "
                    + "app_time DOUBLE PRECISION NOT NULL, mpi_time DOUBLE PRECISION NOT NULL, PRIMARY KEY (trial_id, rank))",
            "CREATE TABLE callsites (trial_id INTEGER NOT NULL, id INTEGER NOT NULL, "
                    + "mpi_call VARCHAR NOT NULL, site_key VARCHAR NOT NULL, PRIMARY KEY (trial_id, id))",
            "CREATE TABLE callsite_frames (trial_id INTEGER NOT NULL, callsite_id INTEGER NOT NULL, "
                    + "position INTEGER NOT NULL, function_name VARCHAR NOT NULL, file VARCHAR NOT NULL, line INTEGER NOT NULL, "
                    + "PRIMARY KEY (trial_id, callsite_id, position))",
            "CREATE TABLE callsite_ranks (trial_id INTEGER NOT NULL, callsite_id INTEGER NOT NULL, "
                    + "rank INTEGER NOT NULL, calls BIGINT NOT NULL, time DOUBLE PRECISION NOT NULL, "
                    + "time_max DOUBLE PRECISION NOT NULL, time_min DOUBLE PRECISION NOT NULL, bytes DOUBLE PRECISION NOT NULL, "
                    + "bytes_max DOUBLE PRECISION NOT NULL, bytes_min DOUBLE PRECISION NOT NULL, "
                    + "PRIMARY KEY (trial_id, callsite_id, rank))",
            "CREATE INDEX severities_by_trial ON severities (trial_id, metric_id)");

    /**
     * Version 2: the wait states per communicator of a trial (the study's "waiting by communicator size", the KOJAK
     * paper's per-communicator question, reference §9.2), as {@code dev.straggler.patterns.CommunicatorWaits} holds
     * them. {@code communicator_runs} has a row for every trial added since version 2, so that "the input has no
     * communicator dimension" (a .cubex: {@code has_communicators} false) and "stored before the database kept them"
     * (no row) stay apart.
     */
    static final List<String> ADDED_IN_2 = List.of(
            "CREATE TABLE communicator_runs (trial_id INTEGER NOT NULL PRIMARY KEY, has_communicators BOOLEAN NOT NULL)",
            "CREATE TABLE communicators (trial_id INTEGER NOT NULL, id INTEGER NOT NULL, name VARCHAR NOT NULL, "
                    + "PRIMARY KEY (trial_id, id))",
            "CREATE TABLE communicator_members (trial_id INTEGER NOT NULL, communicator_id INTEGER NOT NULL, "
                    + "position INTEGER NOT NULL, rank INTEGER NOT NULL, PRIMARY KEY (trial_id, communicator_id, position))",
            "CREATE TABLE communicator_waits (trial_id INTEGER NOT NULL, communicator_id INTEGER NOT NULL, "
                    + "metric VARCHAR NOT NULL, seconds DOUBLE PRECISION NOT NULL, "
                    + "PRIMARY KEY (trial_id, communicator_id, metric))",
            // one row per trial, communicator and wait-state metric with a value, with the communicator's size
            "CREATE VIEW communicator_totals AS SELECT o.trial, o.application, o.experiment, o.processes, "
                    + "c.id AS communicator, c.name, s.size, w.metric, w.seconds FROM communicators c "
                    + "JOIN trial_overview o ON o.trial = c.trial_id "
                    + "JOIN (SELECT trial_id, communicator_id, COUNT(*) AS size FROM communicator_members "
                    + "GROUP BY trial_id, communicator_id) s ON s.trial_id = c.trial_id AND s.communicator_id = c.id "
                    + "JOIN communicator_waits w ON w.trial_id = c.trial_id AND w.communicator_id = c.id");

    /** The tables of a new database (views apart, which follow in {@link #VIEWS}). */
    static final List<String> TABLES = concat(TABLES_1, ADDED_IN_2.stream().filter(s -> s.startsWith("CREATE TABLE")).toList());

    /** The views for the common questions; every one names application, experiment, trial and processes. */
    static final List<String> VIEWS = concat(List.of(
            "CREATE VIEW trial_overview AS SELECT t.id AS trial, a.name AS application, e.name AS experiment, "
                    + "t.name AS trial_name, t.processes, t.locations, t.machine, t.added_at, t.source, t.root_causes "
                    + "FROM trials t JOIN experiments e ON e.id = t.experiment_id JOIN applications a ON a.id = e.application_id",
            // one row per trial and metric of its tree: the metric summed over call paths and locations (0 where none)
            "CREATE VIEW metric_totals AS SELECT o.trial, o.application, o.experiment, o.processes, m.unique_name AS metric, "
                    + "m.display_name, m.unit, COALESCE(SUM(s.value), 0) AS value "
                    + "FROM trial_overview o JOIN metrics m ON m.trial_id = o.trial "
                    + "LEFT JOIN severities s ON s.trial_id = m.trial_id AND s.metric_id = m.id "
                    + "GROUP BY o.trial, o.application, o.experiment, o.processes, m.id, m.unique_name, m.display_name, m.unit",
            // one row per trial, metric and call path with a value: the call path's value summed over locations
            "CREATE VIEW callpath_totals AS SELECT o.trial, o.application, o.experiment, o.processes, m.unique_name AS metric, "
                    + "c.path AS call_path, SUM(s.value) AS value FROM severities s "
                    + "JOIN trial_overview o ON o.trial = s.trial_id JOIN metrics m ON m.trial_id = s.trial_id AND m.id = s.metric_id "
                    + "JOIN call_paths c ON c.trial_id = s.trial_id AND c.id = s.call_path_id "
                    + "GROUP BY o.trial, o.application, o.experiment, o.processes, m.unique_name, c.path",
            // mpiP's aggregate callsite statistics per trial, with the share of the run's MPI time
            "CREATE VIEW callsite_totals AS SELECT o.trial, o.application, o.experiment, o.processes, cs.site_key AS callsite, "
                    + "cs.mpi_call, SUM(r.calls) AS calls, SUM(r.time) AS time, SUM(r.bytes) AS bytes, "
                    + "SUM(r.time) / NULLIF((SELECT SUM(t.mpi_time) FROM callsite_rank_times t WHERE t.trial_id = o.trial), 0) "
                    + "AS share_of_mpi FROM callsites cs JOIN trial_overview o ON o.trial = cs.trial_id "
                    + "JOIN callsite_ranks r ON r.trial_id = cs.trial_id AND r.callsite_id = cs.id "
                    + "GROUP BY o.trial, o.application, o.experiment, o.processes, cs.id, cs.site_key, cs.mpi_call"),
            ADDED_IN_2.stream().filter(s -> s.startsWith("CREATE VIEW")).toList());

    /**
     * The statements bringing a database of {@code version} up to {@link #VERSION}, the version's own update last.
     *
     * @throws IllegalArgumentException for a version this Straggler does not know
     */
    static List<String> upgrade(int version) {
        if (version == VERSION) {
            return List.of();
        }
        if (version != 1) {
            throw new IllegalArgumentException("no upgrade from schema version " + version);
        }
        return concat(ADDED_IN_2, List.of("UPDATE schema_version SET version = " + VERSION));
    }

    /** Tables holding a trial's rows in a database of {@code version}, children first (the order a removal deletes in). */
    static List<String> trialTables(int version) {
        // version 2 added the communicator tables, and only them
        return version >= 2 ? TRIAL_TABLES : TRIAL_TABLES.stream().filter(t -> !t.startsWith("communicator")).toList();
    }

    /** Tables holding a trial's rows, children first (the order a removal deletes in). */
    static final List<String> TRIAL_TABLES = List.of("communicator_waits", "communicator_members", "communicators",
            "communicator_runs", "callsite_ranks", "callsite_frames", "callsites",
            "callsite_rank_times", "callsite_runs", "severities", "locations", "call_paths", "regions", "metrics",
            "trial_attributes", "trial_parameters");

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> out = new java.util.ArrayList<>(a);
        out.addAll(b);
        return List.copyOf(out);
    }
}
