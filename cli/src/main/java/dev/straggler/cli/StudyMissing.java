package dev.straggler.cli;

import dev.straggler.experiments.ExperimentDatabase;
import dev.straggler.patterns.Analysis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What some runs of a study lack (the root causes, the wait states per communicator) and why, as one line each for
 * the terminal, the HTML sections and the JSON document: a section left empty without saying why reads as "nothing
 * there", which is a different statement.
 */
final class StudyMissing {
    private StudyMissing() {
    }

    /** The reason a database trial has no root causes although its trace could give them (the wording). */
    static final String STORED_WITHOUT_ROOT_CAUSES =
            "trials stored with --no-root-causes: add them again with db add --replace";

    /** The reason a database trial has no wait states per communicator although its input could give them. */
    static final String STORED_BEFORE_COMMUNICATORS = "trials stored before the database kept per-communicator "
            + "waiting: add them again with db add --replace";

    /**
     * Why runs lack root causes, or null when every run has them.
     *
     * @param rootCauses whether traces were analysed with root causes in this study
     * @param skipNotAnalysed leave out the runs analysed here with --no-root-causes (the terminal names them in its
     *                        own line)
     */
    static String rootCauses(List<Experiments.Run> runs, boolean rootCauses, boolean skipNotAnalysed) {
        Map<String, List<String>> why = new LinkedHashMap<>();
        for (Experiments.Run r : runs) {
            if (Analysis.rootCausesAnalysed(r.cube())) {
                continue;
            }
            String reason;
            if (r.stored() != null) {
                reason = r.stored().fromTrace() ? STORED_WITHOUT_ROOT_CAUSES
                        : "trials stored from " + kind(r.stored().sourceKind()) + " made without root causes";
            } else if (Experiments.isCube(r.path())) {
                reason = kind(r.path().toString().endsWith(".json") ? "analysis-json" : "cubex")
                        + " made without root causes";
            } else if (!rootCauses) {
                if (skipNotAnalysed) {
                    continue;
                }
                reason = "analysed with --no-root-causes";
            } else {
                // Analysis runs the root-cause stage only on traces with MPI
                reason = "a trace without MPI has no wait states to explain";
            }
            why.computeIfAbsent(reason, k -> new ArrayList<>()).add(r.label());
        }
        return line("Root causes missing", why, runs.size());
    }

    /** Whether some of the runs are traces analysed here with --no-root-causes. */
    static boolean analysedWithoutRootCauses(List<Experiments.Run> runs, boolean rootCauses) {
        return !rootCauses && runs.stream().anyMatch(r -> r.stored() == null && !Experiments.isCube(r.path())
                && !Analysis.rootCausesAnalysed(r.cube()));
    }

    /** Why runs lack wait states per communicator, or null when every run has them. */
    static String communicators(List<Experiments.Run> runs) {
        Map<String, List<String>> why = new LinkedHashMap<>();
        for (Experiments.Run r : runs) {
            if (r.communicators() != null) {
                continue;
            }
            String reason;
            if (r.stored() != null && r.stored().communicators() == ExperimentDatabase.Communicators.ADDED_BEFORE_KEPT) {
                reason = STORED_BEFORE_COMMUNICATORS;
            } else if (r.stored() != null) {
                reason = "trials stored from " + kind(r.stored().sourceKind()) + ", which has no communicator dimension";
            } else {
                reason = "a .cubex has no communicator dimension";
            }
            why.computeIfAbsent(reason, k -> new ArrayList<>()).add(r.label());
        }
        return line("Waiting by communicator size missing", why, runs.size());
    }

    private static String kind(String sourceKind) {
        return switch (sourceKind == null ? "" : sourceKind) {
            case "cubex" -> "a .cubex";
            case "analysis-json" -> "analysis JSON";
            case "trace" -> "a trace";
            default -> "a " + sourceKind + " input";
        };
    }

    /** "WHAT for all 4 runs (REASON)" or "WHAT for a, b (REASON); c (REASON)." */
    private static String line(String what, Map<String, List<String>> why, int runs) {
        if (why.isEmpty()) {
            return null;
        }
        List<String> parts = new ArrayList<>();
        for (Map.Entry<String, List<String>> e : why.entrySet()) {
            List<String> labels = e.getValue();
            String who = labels.size() == runs ? (runs == 1 ? "the run" : String.format(Locale.ROOT, "all %d runs", runs))
                    : String.join(", ", labels);
            parts.add(who + " (" + e.getKey() + ")");
        }
        return what + " for " + String.join("; ", parts) + ".";
    }
}
