package dev.straggler.cli.report;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.straggler.patterns.cube.SeverityCube;

import java.io.IOException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Why processes wait: for the selected wait-state kind, its effect (where the waiting happens, per call path and
 * rank, split direct/indirect and terminal/propagating for point-to-point waiting) beside its causes (the call
 * paths and ranks holding the delay costs of that kind, short-term and long-term, as a share of the waiting they
 * explain), with a per-rank chart that sets delay caused against waiting, and a one-sentence answer on top
 * ({@link CauseHeadline}).
 *
 * <p>Embedded data: per kind its totals, per-location totals of waiting and delay, and the largest
 * {@value #ROWS} call paths of each side with their per-location values (the rest summed up). All values are
 * cleaned ({@link WaitCauses}); shares are in [0, 100].
 */
public final class WaitCauseSection implements HtmlSection {
    static final int ROWS = 12;

    private final SeverityCube cube;
    private final List<WaitCauses.View> views;
    private final PathLabels labels;

    private WaitCauseSection(SeverityCube cube, List<WaitCauses.View> views) {
        this.cube = cube;
        this.views = views;
        this.labels = new PathLabels(cube);
    }

    /** The section, or null when the cube holds no delay costs (root causes not analysed, or nothing found). */
    public static WaitCauseSection forCube(SeverityCube cube) {
        List<WaitCauses.View> views = WaitCauses.of(cube);
        return WaitCauses.anyCause(views) ? new WaitCauseSection(cube, views) : null;
    }

    @Override
    public String id() {
        return "causes";
    }

    @Override
    public String title() {
        return "Why processes wait";
    }

    @Override
    public void writeBody(Appendable h) throws IOException {
        h.append("<p class=\"hint\">Pick a wait state. Left: where processes wait. Right: the delays that cause "
                + "that waiting \u2014 extra time on the process waited for, charged to the call path and rank "
                + "where it was spent. <b>Short-term</b> delays caused the waiting directly, <b>propagated</b> "
                + "(long-term) ones through waiting in between.</p>\n"
                + "<div class=\"rc-tabs\" id=\"causes-tabs\" role=\"tablist\"></div>\n"
                + "<p class=\"rc-answer\" id=\"causes-answer\"></p>\n"
                + "<div class=\"rc-facts\" id=\"causes-facts\"></div>\n"
                + "<div class=\"rc-grid\">\n"
                + "<div class=\"pane\"><div class=\"pane-head\">Effect: where processes wait</div>"
                + "<div class=\"rc-table\" id=\"causes-effects\"></div></div>\n"
                + "<div class=\"pane\"><div class=\"pane-head\">Cause: which delays make them wait"
                + "<span class=\"info\" title=\"Delay costs are summed per wait-state kind: Scalasca links the "
                + "waiting of a kind to the delays that caused it as a whole, not each wait to its own delay.\">"
                + "i</span></div><div class=\"rc-table\" id=\"causes-causes\"></div></div>\n"
                + "</div>\n<div class=\"pane wide\"><div class=\"pane-head\"><span>Per "
                + (PathLabels.threaded(cube) ? "location" : "rank") + ": <i class=\"sw short\"></i>"
                + "delay caused (up) and <i class=\"sw wait\"></i>waiting (down)</span><span class=\"opt\" id=\"causes-chart-what\"></span></div>"
                + "<div id=\"causes-chart\" class=\"chart\"></div></div>\n"
                + "<p class=\"footnote\">Delay costs are attributed per wait-state kind (as in Scalasca): the "
                + "right side explains the selected kind's waiting as a whole; click a row to see it per "
                + (PathLabels.threaded(cube) ? "location" : "rank") + ".</p>");
    }

    @Override
    public boolean hasData() {
        return true;
    }

    @Override
    public String scriptResource() {
        return "causes.js";
    }

    @Override
    public void writeData(JsonGenerator g) throws IOException {
        boolean threaded = PathLabels.threaded(cube);
        g.writeStartObject();
        g.writeStringField("word", threaded ? "location" : "rank");
        g.writeArrayFieldStart("locations");
        for (var l : cube.locations()) {
            g.writeString(PathLabels.location(l, threaded));
        }
        g.writeEndArray();
        g.writeArrayFieldStart("kinds");
        for (WaitCauses.View v : views) {
            writeKind(g, v);
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    private void writeKind(JsonGenerator g, WaitCauses.View v) throws IOException {
        List<WaitCauses.Effect> effects = v.effects().subList(0, Math.min(ROWS, v.effects().size()));
        List<WaitCauses.Cause> causes = v.causes().subList(0, Math.min(ROWS, v.causes().size()));
        Set<Integer> shown = new LinkedHashSet<>();
        effects.forEach(e -> shown.add(e.path()));
        causes.forEach(c -> shown.add(c.path()));
        Map<Integer, String> names = labels.distinct(shown, CauseHeadline.ROW_LABEL_CHARS);
        g.writeStartObject();
        g.writeStringField("id", v.kind().waiting);
        g.writeStringField("name", v.kind().displayName);
        g.writeNumberField("waiting", v.waiting());
        g.writeNumberField("shortTerm", v.shortTerm());
        g.writeNumberField("longTerm", v.longTerm());
        g.writeNumberField("explained", Shares.percent(v.delay(), v.waiting()));
        g.writeBooleanField("classified", v.classified());
        if (v.classified()) {
            g.writeNumberField("indirect", v.indirect());
            g.writeNumberField("propagating", v.propagating());
        }
        CauseHeadline.write(g, CauseHeadline.of(v, cube));
        writeFloats(g, "waitingPerLocation", v.waitingPerLocation());
        writeFloats(g, "delayPerLocation", v.delayPerLocation());

        g.writeArrayFieldStart("effects");
        for (WaitCauses.Effect e : effects) {
            g.writeStartObject();
            writePath(g, e.path(), names);
            g.writeNumberField("waiting", e.waiting());
            g.writeNumberField("share", Shares.percent(e.waiting(), v.waiting()));
            if (v.classified()) {
                g.writeNumberField("indirect", e.indirect());
                g.writeNumberField("propagating", e.propagating());
            }
            writeFloats(g, "perLocation", e.perLocation());
            g.writeEndObject();
        }
        g.writeEndArray();
        writeRest(g, "moreEffects", v.effects().stream().skip(ROWS).mapToDouble(WaitCauses.Effect::waiting).toArray(),
                v.waiting());

        g.writeArrayFieldStart("causes");
        for (WaitCauses.Cause c : causes) {
            g.writeStartObject();
            writePath(g, c.path(), names);
            g.writeNumberField("shortTerm", c.shortTerm());
            g.writeNumberField("longTerm", c.longTerm());
            g.writeNumberField("share", Shares.percent(c.total(), v.waiting()));
            writeFloats(g, "perLocation", c.perLocation());
            g.writeEndObject();
        }
        g.writeEndArray();
        writeRest(g, "moreCauses", v.causes().stream().skip(ROWS).mapToDouble(WaitCauses.Cause::total).toArray(),
                v.waiting());
        g.writeEndObject();
    }

    private void writePath(JsonGenerator g, int path, Map<Integer, String> names) throws IOException {
        g.writeStringField("label", names.get(path));
        g.writeStringField("title", labels.full(path));
    }

    /** The rows left out: how many, their sum and its share of the kind's waiting. */
    private static void writeRest(JsonGenerator g, String name, double[] rest, double waiting) throws IOException {
        double sum = 0;
        for (double v : rest) {
            sum += v;
        }
        g.writeObjectFieldStart(name);
        g.writeNumberField("count", rest.length);
        g.writeNumberField("value", sum);
        g.writeNumberField("share", Shares.percent(sum, waiting));
        g.writeEndObject();
    }

    /** Drawn as strips and bars: single precision is plenty and halves the page size. */
    private static void writeFloats(JsonGenerator g, String name, double[] v) throws IOException {
        g.writeArrayFieldStart(name);
        for (double x : v) {
            g.writeNumber((float) x);
        }
        g.writeEndArray();
    }
}
