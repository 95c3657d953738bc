package dev.straggler.cli.report;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.straggler.patterns.cube.SeverityCube;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The one-sentence answer to "why do processes wait here": which share of a wait-state kind's waiting its largest
 * cause explains, where that cause is, and how much of it acted directly (short-term) or through other waiting
 * (propagated), e.g. "62.0 % of all Late Sender waiting (3.10 s) is caused by {@code …/x_solve/compute_rhs} on
 * ranks 3 and 7 (2.40 s short-term, 0.70 s propagated)."
 */
final class CauseHeadline {
    /** A run of the sentence: plain text, or a call path (with its full name as {@code title}). */
    record Segment(String text, boolean path, String title) {
        static Segment text(String s) {
            return new Segment(s, false, null);
        }
    }

    /** The locations named are the fewest holding this share of the cause; more than this many are summarised. */
    private static final double MOST = 0.8;
    private static final int NAMED = 3;
    /** Longest call-path label in a sentence; tables use {@link #ROW_LABEL_CHARS}. */
    static final int LABEL_CHARS = 60;
    static final int ROW_LABEL_CHARS = 42;

    private CauseHeadline() {
    }

    static List<Segment> of(WaitCauses.View v, SeverityCube cube) {
        List<Segment> out = new ArrayList<>();
        String what = v.kind().displayName + " waiting (" + SummarySection.seconds(v.waiting()) + ")";
        if (v.causes().isEmpty()) {
            out.add(Segment.text("None of the " + what + " could be traced back to a delay."));
            return out;
        }
        WaitCauses.Cause top = v.causes().get(0);
        out.add(Segment.text(percent(Shares.percent(top.total(), v.waiting())) + " of all " + what
                + " is caused by "));
        PathLabels labels = new PathLabels(cube);
        out.add(new Segment(labels.label(top.path(), LABEL_CHARS), true, labels.full(top.path())));
        String how;
        if (top.longTerm() == 0) {
            how = "all short-term";
        } else if (top.shortTerm() == 0) {
            how = "all propagated";
        } else {
            how = SummarySection.seconds(top.shortTerm()) + " short-term, " + SummarySection.seconds(top.longTerm())
                    + " propagated";
        }
        out.add(Segment.text(" on " + locations(top.perLocation(), cube) + " (" + how + ")."));
        return out;
    }

    /** Writes a sentence as the field "answer": an array of {"text"} and {"path", "title"} objects. */
    static void write(JsonGenerator g, List<Segment> sentence) throws IOException {
        g.writeArrayFieldStart("answer");
        for (Segment s : sentence) {
            g.writeStartObject();
            g.writeStringField(s.path() ? "path" : "text", s.text());
            if (s.title() != null) {
                g.writeStringField("title", s.title());
            }
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    /** "12.5 %", one decimal, "<0.1 %" for what would round to 0; the value is already a share in [0, 100]. */
    static String percent(double share) {
        return share > 0 && share < 0.05 ? "<0.1 %" : String.format(Locale.ROOT, "%.1f %%", share);
    }

    /**
     * The locations that hold most of a cause: "rank 3", "ranks 3 and 7", "ranks 3, 7 and 5", or when the cause is
     * spread wider "all 16 ranks, most on 3, 7 and 5".
     */
    static String locations(double[] perLocation, SeverityCube cube) {
        boolean threaded = PathLabels.threaded(cube);
        List<Integer> order = new ArrayList<>();
        double total = 0;
        for (int l = 0; l < perLocation.length; l++) {
            if (perLocation[l] > 0) {
                order.add(l);
                total += perLocation[l];
            }
        }
        order.sort(Comparator.comparingDouble((Integer l) -> -perLocation[l]).thenComparingInt(l -> l));
        int needed = 0;
        double held = 0;
        while (needed < order.size() && held < MOST * total) {
            held += perLocation[order.get(needed++)];
        }
        String one = threaded ? "location" : "rank";
        String many = threaded ? "locations" : "ranks";
        List<String> names = new ArrayList<>();
        for (int i = 0; i < Math.min(NAMED, needed); i++) {
            names.add(PathLabels.location(cube.locations().get(order.get(i)), threaded));
        }
        if (needed <= NAMED) {
            return (names.size() == 1 ? one : many) + " " + list(names);
        }
        String count = order.size() == perLocation.length ? "all " + order.size() : Integer.toString(order.size());
        return count + " " + many + ", most on " + list(names);
    }

    private static String list(List<String> names) {
        if (names.size() == 1) {
            return names.get(0);
        }
        return String.join(", ", names.subList(0, names.size() - 1)) + " and " + names.get(names.size() - 1);
    }
}
