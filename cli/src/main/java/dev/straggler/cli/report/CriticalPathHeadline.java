package dev.straggler.cli.report;

import dev.straggler.patterns.cube.SeverityCube;

import java.util.ArrayList;
import java.util.List;

/**
 * The critical path in two or three sentences: its length and critical-path imbalance with the call path holding
 * most of it, and the call path with the largest critical imbalance impact. The two metrics are named as Scalasca's
 * metric documentation names them ({@link CriticalPathProfile#IMBALANCE}, {@link CriticalPathProfile#IMPACT}), and a
 * call path is named only for a metric it has a value of: the call path with the largest impact can have no
 * critical-path imbalance (NPB MG's MPI_Init: the impact compares its time on the path with each waiting rank's, the
 * imbalance with the average), and the answer then says so.
 */
final class CriticalPathHeadline {
    private CriticalPathHeadline() {
    }

    static List<CauseHeadline.Segment> of(CriticalPathProfile cp, SeverityCube cube) {
        List<CauseHeadline.Segment> out = new ArrayList<>();
        String word = PathLabels.threaded(cube) ? "location" : "rank";
        String imbalanceName = lower(CriticalPathProfile.IMBALANCE);
        String impactName = lower(CriticalPathProfile.IMPACT);
        PathLabels labels = new PathLabels(cube);
        double imbalance = cp.imbalanceTotal();
        int mostImbalanced = largest(cp.imbalanceExcl);
        if (imbalance > 0 && mostImbalanced >= 0) {
            out.add(CauseHeadline.Segment.text("The critical path is " + SummarySection.seconds(cp.length) + " long; "
                    + SummarySection.seconds(imbalance) + " ("
                    + CauseHeadline.percent(Shares.percent(imbalance, cp.length)) + ") of it is " + imbalanceName
                    + ", time call paths spend on it above their average per " + word + ", most in "));
            out.add(path(labels, mostImbalanced));
            out.add(CauseHeadline.Segment.text(" (" + SummarySection.seconds(cp.imbalanceExcl[mostImbalanced])
                    + ownPart(cp.imbalanceExcl, cp.imbalanceIncl, mostImbalanced) + ")."));
        } else {
            out.add(CauseHeadline.Segment.text("The critical path is " + SummarySection.seconds(cp.length)
                    + " long and has no " + imbalanceName + ": no call path spends more time on it than its average "
                    + "per " + word + "."));
        }
        int top = largest(cp.impactExcl);
        if (cp.impactTotal() > 0 && top >= 0) {
            out.add(CauseHeadline.Segment.text(" "));
            out.add(path(labels, top));
            out.add(CauseHeadline.Segment.text(" has the largest " + impactName + ": "
                    + SummarySection.seconds(cp.impactExcl[top]) + ownPart(cp.impactExcl, cp.impactIncl, top)
                    + " of waiting (" + CauseHeadline.percent(Shares.percent(cp.impactExcl[top], cp.impactTotal()))
                    + " of all " + impactName + ") is mapped onto it because it takes longer on the critical path "
                    + "than on the waiting " + word + "s."));
            if (cp.imbalanceExcl[top] == 0) {
                out.add(CauseHeadline.Segment.text(" On the path it takes no longer than its average per " + word
                        + ", so it has no " + imbalanceName + "."));
            }
        }
        return out;
    }

    private static CauseHeadline.Segment path(PathLabels labels, int p) {
        return new CauseHeadline.Segment(labels.label(p, CauseHeadline.LABEL_CHARS), true, labels.full(p));
    }

    /** The values in the tree include callees: a call path's own value is marked as such when they differ. */
    private static String ownPart(double[] excl, double[] incl, int p) {
        return incl[p] > excl[p] * (1 + Shares.RESIDUE) ? " of its own, without callees" : "";
    }

    /** The call path with the largest value (the first on ties), -1 when none is positive. */
    private static int largest(double[] v) {
        int best = -1;
        for (int p = 0; p < v.length; p++) {
            if (v[p] > 0 && (best < 0 || v[p] > v[best])) {
                best = p;
            }
        }
        return best;
    }

    /** A metric name inside a sentence: its first letter in lower case ("Critical-path imbalance" → "critical-..."). */
    static String lower(String name) {
        return name.isEmpty() ? name : Character.toLowerCase(name.charAt(0)) + name.substring(1);
    }
}
