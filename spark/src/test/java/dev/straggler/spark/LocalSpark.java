package dev.straggler.spark;

import org.apache.spark.sql.SparkSession;

/** One local Spark session for all tests of this JVM (starting one takes seconds), with {@code local[2]} as CI has. */
final class LocalSpark {
    private static SparkSession session;

    private LocalSpark() {
    }

    static synchronized SparkSession get() {
        if (session == null) {
            session = SparkSession.builder().master("local[2]").appName("straggler-tests")
                    .config("spark.ui.enabled", "false")
                    .config("spark.sql.shuffle.partitions", "4")
                    .config("spark.driver.host", "127.0.0.1")
                    .config("spark.driver.bindAddress", "127.0.0.1")
                    .getOrCreate();
            session.sparkContext().setLogLevel("WARN");
        }
        return session;
    }
}
