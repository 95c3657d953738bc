package dev.straggler.cli.report;

import dev.straggler.patterns.cube.SeverityCube;

import java.util.ArrayList;
import java.util.List;

/**
 * The critical path in one or two sentences: its length, how much of it is imbalance, and the activity whose
 * imbalance causes the most waiting elsewhere (or, without impact values, the most imbalanced activity).
 */
final class CriticalPathHeadline {
    private CriticalPathHeadline() {
    }

    static List<CauseHeadline.Segment> of(CriticalPathProfile cp, SeverityCube cube) {
        List<CauseHeadline.Segment> out = new ArrayList<>();
        String word = PathLabels.threaded(cube) ? "location" : "rank";
        double imbalance = cp.imbalanceTotal();
        if (!(imbalance > 0)) {
            out.add(CauseHeadline.Segment.text("The critical path is " + SummarySection.seconds(cp.length)
                    + " long and balanced: no activity takes longer on it than on average per " + word + "."));
            return out;
        }
        out.add(CauseHeadline.Segment.text("The critical path is " + SummarySection.seconds(cp.length) + " long; "
                + SummarySection.seconds(imbalance) + " ("
                + CauseHeadline.percent(Shares.percent(imbalance, cp.length)) + ") of it is imbalance, time its "
                + "activities take above their average per " + word + ". "));
        List<Integer> hot = cp.hot();
        if (hot.isEmpty()) {
            return out;
        }
        int top = hot.get(0);
        PathLabels labels = new PathLabels(cube);
        out.add(new CauseHeadline.Segment(labels.label(top, CauseHeadline.LABEL_CHARS), true, labels.full(top)));
        if (cp.impactTotal() > 0) {
            out.add(CauseHeadline.Segment.text(" has the largest imbalance impact: "
                    + SummarySection.seconds(cp.impactExcl[top]) + " of waiting ("
                    + CauseHeadline.percent(Shares.percent(cp.impactExcl[top], cp.impactTotal()))
                    + " of all imbalance impact) arises because it takes longer on the critical path than on the "
                    + "waiting " + word + "s."));
        } else {
            out.add(CauseHeadline.Segment.text(" is the most imbalanced activity ("
                    + SummarySection.seconds(cp.imbalanceExcl[top]) + ")."));
        }
        return out;
    }
}
