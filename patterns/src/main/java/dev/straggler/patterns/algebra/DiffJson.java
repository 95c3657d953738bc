package dev.straggler.patterns.algebra;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.straggler.patterns.algebra.DiffReport.CallNode;
import dev.straggler.patterns.algebra.DiffReport.CategoryChange;
import dev.straggler.patterns.algebra.DiffReport.Change;
import dev.straggler.patterns.algebra.DiffReport.Entry;
import dev.straggler.patterns.algebra.DiffReport.MetricChange;

/**
 * A {@link DiffReport} as JSON, schema {@code straggler.diff/1}. Non-finite numbers (a relative change against 0)
 * are written as null. {@code notes} lists what was not compared; {@code why} (present only when both operands
 * carry delay costs) holds {@link DelayCauses}.
 */
public final class DiffJson {
    public static final String SCHEMA = "straggler.diff/1";
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private DiffJson() {
    }

    public static ObjectNode toJson(DiffReport r) {
        return toJson(r, Integer.MAX_VALUE);
    }

    /**
     * Like {@link #toJson(DiffReport)} with at most {@code maxEntries} (metric, call path) entries: those with the
     * largest absolute difference, in report order; {@code entriesOmitted} says how many were left out.
     */
    public static ObjectNode toJson(DiffReport r, int maxEntries) {
        ObjectNode o = F.objectNode();
        o.put("schema", SCHEMA);
        o.put("minuend", r.minuend());
        o.put("subtrahend", r.subtrahend());
        o.put("minuendRanks", r.minuendRanks());
        o.put("subtrahendRanks", r.subtrahendRanks());
        o.put("systemCollapsed", r.collapsed());
        o.put("systemNote", r.systemNote());
        o.put("timeMetric", r.timeMetric());
        o.put("headline", r.headline());
        ArrayNode notes = o.putArray("notes");
        r.notes().forEach(notes::add);
        o.set("totalTime", change(r.totalTime()));
        // what every time share is of: an increase of the gross growth, a decrease of the gross reduction
        num(o, "grossGrowth", r.grossGrowth());
        num(o, "grossReduction", r.grossReduction());
        if (r.causes() != null) {
            o.set("why", causes(r.causes()));
        }
        if (r.topFinding() != null) {
            ObjectNode f = o.putObject("topFinding");
            f.put("metric", r.topFinding().metric());
            f.put("displayName", r.topFinding().displayName());
            f.put("caller", r.topFinding().caller());
            f.set("change", change(r.topFinding().change()));
        }
        ArrayNode cats = o.putArray("categories");
        for (CategoryChange c : r.categories()) {
            ObjectNode n = cats.addObject();
            n.put("kind", c.kind().name());
            n.put("description", c.kind().description());
            n.set("change", change(c.change()));
        }
        ArrayNode metrics = o.putArray("metrics");
        for (MetricChange m : r.metrics()) {
            ObjectNode n = metrics.addObject();
            n.put("metric", m.metric());
            n.put("displayName", m.displayName());
            n.put("unit", m.unit());
            n.put("depth", m.depth());
            n.set("change", change(m.change()));
        }
        ArrayNode tree = o.putArray("callTree");
        for (CallNode c : r.callTree()) {
            ObjectNode n = tree.addObject();
            n.put("id", c.id());
            n.put("parent", c.parent());
            n.put("region", c.region());
            n.set("path", path(c.path()));
            n.set("inclusive", change(c.change()));
        }
        java.util.List<Entry> kept = r.entries();
        if (kept.size() > maxEntries) {
            java.util.Set<Entry> largest = new java.util.HashSet<>(r.entries().stream()
                    .sorted(java.util.Comparator.comparingDouble((Entry e) -> Math.abs(e.change().diff())).reversed())
                    .limit(maxEntries).toList());
            kept = r.entries().stream().filter(largest::contains).toList();
        }
        o.put("entriesOmitted", r.entries().size() - kept.size());
        ArrayNode entries = o.putArray("entries");
        for (Entry e : kept) {
            ObjectNode n = entries.addObject();
            n.put("metric", e.metric());
            n.put("callPath", e.callPath());
            n.set("path", path(e.path()));
            n.set("change", change(e.change()));
        }
        return o;
    }

    /** The why: waiting and delay totals, the direction, and every cause with its parts and ranks. */
    static ObjectNode causes(DelayCauses c) {
        ObjectNode n = F.objectNode();
        n.put("sentence", c.sentence());
        n.put("direction", c.direction() > 0 ? "growth" : c.direction() < 0 ? "reduction" : "none");
        n.set("waiting", change(c.waiting()));
        n.set("delay", change(c.delay()));
        num(n, "moved", c.moved());
        num(n, "offset", c.offset());
        ArrayNode list = n.putArray("causes");
        for (DelayCauses.Cause x : c.causes()) {
            ObjectNode e = list.addObject();
            e.put("callPath", x.callPath());
            e.set("path", path(x.path()));
            e.put("label", x.label());
            num(e, "a", x.a());
            num(e, "b", x.b());
            num(e, "diff", x.diff());
            num(e, "shortTerm", x.shortTerm());
            num(e, "propagated", x.propagated());
            num(e, "share", x.share());
            ArrayNode ranks = e.putArray("ranks");
            x.ranks().forEach(ranks::add);
            e.put("ranksOf", x.ranksOf());
        }
        return n;
    }

    static ObjectNode change(Change c) {
        ObjectNode n = F.objectNode();
        num(n, "a", c.a());
        num(n, "b", c.b());
        num(n, "diff", c.diff());
        num(n, "relative", c.relative());
        num(n, "share", c.share());
        num(n, "aPerRank", c.aPerRank());
        num(n, "bPerRank", c.bPerRank());
        num(n, "perRankRelative", c.perRankRelative());
        return n;
    }

    static JsonNode path(java.util.List<String> names) {
        ArrayNode a = F.arrayNode();
        names.forEach(a::add);
        return a;
    }

    /** Writes a number, or null when it is NaN or infinite (JSON has neither). */
    public static void num(ObjectNode n, String key, double v) {
        if (Double.isFinite(v)) {
            n.put(key, v);
        } else {
            n.putNull(key);
        }
    }
}
