package dev.straggler.experiments;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * A real PostgreSQL server for the tests, started from Debian's {@code postgresql} package in a temporary directory
 * on a free local port and stopped when the JVM ends. As root, the server runs as the package's {@code postgres}
 * user (PostgreSQL refuses to run as root). Skips the calling test when the package is not installed.
 */
final class PostgresServer {
    private static PostgresServer instance;
    private static final AtomicInteger DATABASES = new AtomicInteger();

    private final Path dir;
    private final int port;
    private final Path bin;
    private final boolean asPostgres;

    private PostgresServer(Path dir, int port, Path bin, boolean asPostgres) {
        this.dir = dir;
        this.port = port;
        this.bin = bin;
        this.asPostgres = asPostgres;
    }

    /** The running server, started on first use; skips the test when PostgreSQL is not installed. */
    static synchronized PostgresServer get() throws Exception {
        if (instance == null) {
            instance = start();
            PostgresServer s = instance;
            Runtime.getRuntime().addShutdownHook(new Thread(s::stop));
        }
        return instance;
    }

    private static Path binaries() throws IOException {
        Path root = Path.of("/usr/lib/postgresql");
        if (!Files.isDirectory(root)) {
            return null;
        }
        try (Stream<Path> s = Files.list(root)) {
            return s.map(p -> p.resolve("bin")).filter(p -> Files.isExecutable(p.resolve("initdb")))
                    .max(Comparator.comparing(Path::toString)).orElse(null);
        }
    }

    private static PostgresServer start() throws Exception {
        Path bin = binaries();
        Assumptions.assumeTrue(bin != null, "PostgreSQL is not installed (apt-get install postgresql); PostgreSQL tests skipped");
        boolean root = "root".equals(System.getProperty("user.name"));
        Path dir = Files.createTempDirectory("straggler-pg");
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        if (root) {
            run(List.of("chown", "-R", "postgres:postgres", dir.toString()));
        }
        PostgresServer s = new PostgresServer(dir, port, bin, root);
        s.asUser(List.of(bin.resolve("initdb").toString(), "-D", dir.resolve("data").toString(), "-A", "trust",
                "-U", "postgres", "--no-sync", "-E", "UTF8"));
        s.asUser(List.of(bin.resolve("pg_ctl").toString(), "-D", dir.resolve("data").toString(), "-w", "-l",
                dir.resolve("log").toString(), "-o", "-p " + port + " -k " + dir + " -c listen_addresses=127.0.0.1 -c fsync=off",
                "start"));
        return s;
    }

    private void asUser(List<String> command) throws Exception {
        List<String> c = new ArrayList<>();
        if (asPostgres) {
            c.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        c.addAll(command);
        run(c);
    }

    private static void run(List<String> command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " failed: " + out);
        }
    }

    /** A fresh, empty database on the server, as a URL {@link ExperimentDatabase#open} takes. */
    String newDatabase() throws SQLException {
        String name = "straggler_" + ProcessHandle.current().pid() + "_" + DATABASES.incrementAndGet();
        try (Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/postgres?user=postgres");
             Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name);
        }
        return "postgresql://127.0.0.1:" + port + "/" + name + "?user=postgres";
    }

    private void stop() {
        try {
            asUser(List.of(bin.resolve("pg_ctl").toString(), "-D", dir.resolve("data").toString(), "-m", "immediate", "stop"));
        } catch (Exception e) {
            // the JVM is ending: a server left behind is killed with its temporary directory by the OS cleanup
        }
    }
}
