package dev.straggler.spark;

import dev.straggler.testdata.Scenarios;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The analysis on a real Spark standalone cluster: Spark's own master and worker started from the jars Maven
 * resolved (laid out as a Spark distribution), executors in JVMs of their own, the driver submitted as a cluster user
 * would run it ({@link SubmitMain}). Everything that crosses JVMs — closures, the broadcast plan, persisted location
 * records, blocks, outcomes — is serialized for real, and the JSON result must equal the local engine's.
 */
class StandaloneClusterTest {
    private static final List<String> SPARK_JVM = List.of("--add-opens=java.base/java.lang=ALL-UNNAMED",
            "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED", "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
            "--add-opens=java.base/java.io=ALL-UNNAMED", "--add-opens=java.base/java.net=ALL-UNNAMED",
            "--add-opens=java.base/java.nio=ALL-UNNAMED", "--add-opens=java.base/java.util=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED", "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-opens=java.base/sun.nio.cs=ALL-UNNAMED", "--add-opens=java.base/sun.security.action=ALL-UNNAMED",
            "--add-opens=java.base/sun.util.calendar=ALL-UNNAMED", "-Djdk.reflect.useDirectMethodHandle=false",
            "-Dio.netty.tryReflectionSetAccessible=true", "-Darrow.enable_unsafe_memory_access=true");

    @TempDir
    static Path home;
    private static final List<Process> daemons = new ArrayList<>();
    private static String master;

    @BeforeAll
    static void startCluster() throws Exception {
        // a Spark distribution's layout: RELEASE and jars/, here every jar of this test's class path plus this
        // module's classes (executors load Straggler from there, as from a jar shipped with spark.jars)
        Path jars = Files.createDirectories(home.resolve("jars"));
        Files.writeString(home.resolve("RELEASE"), "Spark 4.2.0 from Maven Central\n");
        for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            Path p = Path.of(entry);
            if (entry.contains("slf4j-nop")) {
                continue; // a distribution logs through log4j; the silent binding would hide the daemons' logs
            }
            if (entry.endsWith(".jar") && Files.isRegularFile(p)) {
                Path link = jars.resolve(p.getFileName());
                if (!Files.exists(link)) {
                    Files.createSymbolicLink(link, p);
                }
            } else if (Files.isDirectory(p)) {
                jarUp(p, jars.resolve("classes-" + jars.toFile().list().length + ".jar"));
            }
        }
        int port = freePort();
        master = "spark://127.0.0.1:" + port;
        daemons.add(start("org.apache.spark.deploy.master.Master", "--host", "127.0.0.1", "--port",
                Integer.toString(port), "--webui-port", Integer.toString(freePort())));
        waitForPort(port);
        daemons.add(start("org.apache.spark.deploy.worker.Worker", "--host", "127.0.0.1", "--cores", "2",
                "--memory", "2g", "--webui-port", Integer.toString(freePort()), master));
    }

    @AfterAll
    static void stopCluster() throws IOException {
        daemons.forEach(Process::destroyForcibly);
        // the links to Maven's jars go before JUnit deletes the directory, which would warn about each of them
        Path jars = home.resolve("jars");
        if (Files.isDirectory(jars)) {
            try (Stream<Path> files = Files.list(jars)) {
                for (Path link : (Iterable<Path>) files.filter(Files::isSymbolicLink)::iterator) {
                    Files.delete(link);
                }
            }
        }
    }

    @Test
    void aSubmittedAnalysisOnAStandaloneClusterEqualsTheLocalOne() throws Exception {
        Path trace = SparkAnalysisTest.generate(home, Scenarios.byName("imbalance-delay-sends"), 6);
        Path json = home.resolve("cluster.json");
        Process driver = start("dev.straggler.spark.SubmitMain", trace.toString(), "--quiet", "--no-root-causes",
                "--master", master, "--json", json.toString());
        byte[] log = driver.getInputStream().readAllBytes();
        driver.waitFor(300, TimeUnit.SECONDS);
        assertEquals(0, driver.exitValue(), new String(log, java.nio.charset.StandardCharsets.UTF_8));
        byte[] local = Results.json(SparkAnalysisTest.local(trace)).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        assertArrayEquals(local, Files.readAllBytes(json));
        String worker = Files.readString(home.resolve("Worker.log"));
        org.junit.jupiter.api.Assertions.assertTrue(worker.contains("launch executor"),
                "the worker ran no executor:\n" + worker);
    }

    @Test
    void rootCausesOnExecutorsInSeparateJvmsEqualTheLocalOnes() throws Exception {
        // one core per executor: the worker starts two executor JVMs, and the backward replay's two tasks hand their
        // costs and collective arrivals to each other across them; a submission computes root causes unless told not
        // to, so no flag asks for them; on the hybrid trace each task holds whole processes, whose threads meet at
        // forks and barriers within it while MPI costs cross the JVMs
        for (String scenario : List.of("late-sender-chain", "hybrid-omp-to-late-sender")) {
            Path trace = SparkAnalysisTest.generate(home, Scenarios.byName(scenario), 6);
            Path json = home.resolve("cluster-root-causes-" + scenario + ".json");
            Process driver = start(List.of("-Dspark.executor.cores=1", "-Dspark.cores.max=2"),
                    "dev.straggler.spark.SubmitMain", trace.toString(), "--quiet", "--master", master,
                    "--partitions", "2", "--json", json.toString());
            byte[] log = driver.getInputStream().readAllBytes();
            driver.waitFor(300, TimeUnit.SECONDS);
            assertEquals(0, driver.exitValue(), new String(log, java.nio.charset.StandardCharsets.UTF_8));
            byte[] local = Results.json(SparkRootCausesTest.local(trace))
                    .getBytes(java.nio.charset.StandardCharsets.UTF_8);
            assertArrayEquals(local, Files.readAllBytes(json), scenario);
        }
    }

    @Test
    void aCubeAloneIsWrittenByExecutorsInSeparateJvmsAsTheLocalOne() throws Exception {
        // two executor JVMs write the rows of the cube (root causes included) beside it; the driver copies them in
        Path trace = SparkAnalysisTest.generate(home, Scenarios.byName("late-sender-chain"), 6);
        Path cube = home.resolve("cluster.cubex");
        Process driver = start(List.of("-Dspark.executor.cores=1", "-Dspark.cores.max=2"),
                "dev.straggler.spark.SubmitMain", trace.toString(), "--master", master, "--partitions", "2",
                "--cube", cube.toString());
        byte[] log = driver.getInputStream().readAllBytes();
        driver.waitFor(300, TimeUnit.SECONDS);
        String out = new String(log, java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(0, driver.exitValue(), out);
        org.junit.jupiter.api.Assertions.assertTrue(out.contains("is written by the spark workers"), out);
        Path local = home.resolve("local.cubex");
        dev.straggler.patterns.cubex.CubexWriter.write(SparkRootCausesTest.local(trace).cube(), local);
        assertEquals(SparkCommandTest.tarMembers(local), SparkCommandTest.tarMembers(cube));
    }

    private static Process start(String main, String... args) throws IOException {
        return start(List.of(), main, args);
    }

    private static Process start(List<String> properties, String main, String... args) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(SPARK_JVM);
        cmd.add("-Xmx1g");
        cmd.addAll(properties);
        if (main.contains("SubmitMain")) {
            // the driver as bin/straggler runs it: warnings only (the daemons log at Spark's default level)
            cmd.add("-Dlog4j2.configurationFile=" + Path.of("src/main/resources/dev/straggler/spark/log4j2-cli.properties")
                    .toAbsolutePath());
        } else {
            cmd.add("-Dlog4j2.configurationFile=org/apache/spark/log4j2-defaults.properties");
        }
        cmd.add("-cp");
        cmd.add(home.resolve("jars") + "/*");
        cmd.add(main);
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        if (!main.contains("SubmitMain")) {
            pb.redirectOutput(home.resolve(main.substring(main.lastIndexOf('.') + 1) + ".log").toFile());
        }
        pb.environment().put("SPARK_HOME", home.toString());
        pb.environment().put("SPARK_SCALA_VERSION", "2.13");
        pb.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
        return pb.start();
    }

    private static void jarUp(Path dir, Path jar) throws IOException {
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(out);
             Stream<Path> files = Files.walk(dir)) {
            for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                j.putNextEntry(new JarEntry(dir.relativize(f).toString().replace('\\', '/')));
                Files.copy(f, j);
                j.closeEntry();
            }
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static void waitForPort(int port) throws InterruptedException {
        for (int i = 0; i < 300; i++) {
            try {
                new java.net.Socket("127.0.0.1", port).close();
                return;
            } catch (IOException notYet) {
                Thread.sleep(100);
            }
        }
        throw new IllegalStateException("Spark master did not start on port " + port + "; see " + home);
    }
}
