package dev.straggler.spark;

import dev.straggler.patterns.AnalysisEngine;
import dev.straggler.patterns.AnalysisOptions;
import dev.straggler.patterns.AnalysisResult;
import org.apache.spark.SparkConf;
import org.apache.spark.sql.SparkSession;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code straggler analyze TRACE --engine spark}: connects to the master given ({@code --master}), else to the one
 * spark-submit configured ({@code spark.master}), else runs Spark in this process on every core ({@code local[*]}).
 */
public final class SparkEngine implements AnalysisEngine {
    @Override
    public String name() {
        return "spark";
    }

    @Override
    public Outcome analyze(Path trace, boolean lenient, AnalysisOptions options, Map<String, String> settings)
            throws IOException {
        SparkConf conf = new SparkConf();
        String master = settings.get("master");
        if (master != null) {
            conf.setMaster(master);
        } else if (!conf.contains("spark.master")) {
            conf.setMaster("local[*]");
        }
        requireClusterManager(conf.get("spark.master"));
        conf.setIfMissing("spark.app.name", "straggler analyze " + trace.getFileName());
        // executors on other machines need Straggler's classes: ship the jar this engine was loaded from (spark-submit
        // has set spark.jars already)
        String jar = ownJar();
        if (jar != null && !conf.get("spark.master").startsWith("local")) {
            conf.setIfMissing("spark.jars", jar);
        }
        // Straggler shows its own progress; Spark's console bar would write over it
        conf.setIfMissing("spark.ui.showConsoleProgress", "false");
        // the record schemas have more fields than Spark prints by default, and it warns about that
        conf.setIfMissing("spark.sql.debug.maxToStringFields", "64");
        int partitions = Integer.parseInt(settings.getOrDefault("partitions", "0"));
        // a session that already runs in this JVM (an application embedding Straggler) is used and left running
        boolean own = SparkSession.getDefaultSession().isEmpty();
        SparkSession spark;
        try {
            spark = SparkSession.builder().config(conf).getOrCreate();
        } catch (IllegalArgumentException e) {
            IOException advice = heapAdvice(e, System.getProperty("SPARK_SUBMIT") != null);
            if (advice != null) {
                throw advice;
            }
            throw e;
        }
        if (!Boolean.parseBoolean(settings.getOrDefault("quiet", "false"))) {
            System.err.println("straggler: Spark " + spark.version() + " at " + spark.sparkContext().master() + ", "
                    + spark.sparkContext().defaultParallelism() + " cores");
        }
        try {
            String cube = settings.get(CUBE_FILE);
            SparkAnalysis.Detailed detailed = cube == null
                    ? SparkAnalysis.runDetailed(spark, trace, lenient, options, partitions)
                    : SparkAnalysis.runWritingCube(spark, trace, lenient, options, partitions, Path.of(cube));
            AnalysisResult result = detailed.result();
            boolean matrix = Boolean.parseBoolean(settings.getOrDefault(COMMUNICATION_MATRIX, "false"));
            return new Outcome(result, matrix ? SparkAnalysis.communicationMatrix(spark, trace, lenient, partitions)
                    : null, detailed.skipped());
        } finally {
            if (own) {
                spark.stop();
            }
        }
    }

    /**
     * YARN and Kubernetes masters need Spark modules that only a cluster's Spark distribution brings; say so instead
     * of Spark's "Could not parse Master URL".
     */
    static void requireClusterManager(String master) throws IOException {
        String needed = master.startsWith("yarn") ? "org.apache.spark.scheduler.cluster.YarnClusterManager"
                : master.startsWith("k8s://") ? "org.apache.spark.scheduler.cluster.k8s.KubernetesClusterManager"
                : null;
        if (needed == null) {
            return;
        }
        try {
            Class.forName(needed, false, SparkEngine.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            String kind = master.startsWith("yarn") ? "YARN" : "Kubernetes";
            throw new IOException("--master " + master + " needs Spark's " + kind + " support, which is not on this "
                    + "class path: submit straggler-spark.jar with your cluster's spark-submit --master " + master
                    + " --class dev.straggler.spark.SubmitMain");
        }
    }

    private static final Pattern TOO_SMALL = Pattern.compile("System memory (\\d+) must be at least (\\d+)");

    /**
     * Spark refuses a heap below 1.5 times the 300 MiB it reserves for itself, in two lines that advise spark-submit's
     * {@code --driver-memory}, which straggler does not have: its launcher takes the heap from STRAGGLER_HEAP. Under
     * spark-submit (which sets the system property SPARK_SUBMIT) Spark's advice is the right one and is kept: null
     * then, and for any other failure.
     */
    static IOException heapAdvice(Throwable e, boolean underSparkSubmit) {
        String m = String.valueOf(e.getMessage());
        if (underSparkSubmit || !m.contains("--driver-memory")) {
            return null;
        }
        Matcher x = TOO_SMALL.matcher(m);
        String sizes = x.find() ? String.format(java.util.Locale.ROOT, " of at least %d MiB, and this one has %d MiB",
                Long.parseLong(x.group(2)) >> 20, Long.parseLong(x.group(1)) >> 20) : "";
        return new IOException("Spark needs a heap" + sizes + ": set STRAGGLER_HEAP (e.g. STRAGGLER_HEAP=16g), the "
                + "launcher's -Xmx", e);
    }

    /** The jar holding this class, or null when it was loaded from a directory (tests). */
    private static String ownJar() {
        try {
            var src = SparkEngine.class.getProtectionDomain().getCodeSource();
            if (src == null) {
                return null;
            }
            Path p = Path.of(src.getLocation().toURI());
            return p.toString().endsWith(".jar") ? p.toString() : null;
        } catch (java.net.URISyntaxException | SecurityException e) {
            return null;
        }
    }
}
