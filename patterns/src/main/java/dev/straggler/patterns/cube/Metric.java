package dev.straggler.patterns.cube;

import java.util.Objects;

/**
 * A metric of a severity cube: a node of the metric tree.
 *
 * <p>Cube's convention holds for every metric: a metric's value <em>includes</em> its child metrics
 * (Late Sender time is part of Point-to-point time), and values are <em>exclusive</em> along the call tree
 * (reference §1.2, §3).
 *
 * @param uniqueName  Scalasca/Cube unique name, e.g. {@code mpi_latesender}; the key metrics are matched by
 * @param displayName e.g. "Late Sender"
 * @param unit        {@code sec}, {@code occ} or {@code bytes}
 * @param integer     true for counts and bytes (Cube dtype INTEGER), false for times (FLOAT)
 * @param parent      unique name of the parent metric, null for a root
 * @param description one sentence for reports and Cube's info panel
 */
public record Metric(String uniqueName, String displayName, String unit, boolean integer, String parent,
                     String description) {
    public Metric {
        Objects.requireNonNull(uniqueName, "uniqueName");
        Objects.requireNonNull(displayName, "displayName");
        Objects.requireNonNull(unit, "unit");
        description = description == null ? "" : description;
    }

    public static Metric time(String uniqueName, String displayName, String parent, String description) {
        return new Metric(uniqueName, displayName, "sec", false, parent, description);
    }

    public static Metric count(String uniqueName, String displayName, String parent, String description) {
        return new Metric(uniqueName, displayName, "occ", true, parent, description);
    }

    public static Metric bytes(String uniqueName, String displayName, String parent, String description) {
        return new Metric(uniqueName, displayName, "bytes", true, parent, description);
    }
}
