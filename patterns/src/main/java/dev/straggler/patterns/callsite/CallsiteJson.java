package dev.straggler.patterns.callsite;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.straggler.patterns.algebra.DiffJson;

/** Callsite statistics (and, for traces, the communication profile and phases) as JSON, schema {@code straggler.callsites/1}. */
public final class CallsiteJson {
    public static final String SCHEMA = "straggler.callsites/1";
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private CallsiteJson() {
    }

    public static ObjectNode toJson(TraceProfile p) {
        ObjectNode o = toJson(p.callsites());
        ArrayNode comm = o.putArray("communication");
        o.put("phaseDepth", p.phases().phaseDepth());
        for (CommProfile.Entry e : p.communication().entries()) {
            ObjectNode n = comm.addObject();
            n.put("phase", e.phase());
            n.put("call", e.call());
            n.put("sizeBucket", e.sizeBucket());
            n.put("size", e.sizeLabel());
            n.put("partner", e.partner());
            n.put("count", e.count());
            n.put("time", e.time());
            n.put("bytes", e.bytes());
            n.put("ranks", e.ranks());
        }
        ObjectNode ph = o.putObject("phases");
        ph.put("depth", p.phases().phaseDepth());
        ph.put("imbalanceSource", p.phases().imbalanceSource());
        ArrayNode list = ph.putArray("phases");
        for (PhaseBreakdown.Phase x : p.phases().phases()) {
            ObjectNode n = list.addObject();
            ArrayNode path = n.putArray("path");
            x.path().forEach(path::add);
            n.put("total", x.totalSum());
            n.put("computation", x.computationSum());
            n.put("mpi", x.mpiSum());
            n.put("imbalance", x.imbalanceSum());
            array(n.putArray("totalPerRank"), x.total());
            array(n.putArray("mpiPerRank"), x.mpi());
            array(n.putArray("imbalancePerRank"), x.imbalance());
        }
        ArrayNode notes = o.withArray("notes");
        for (String s : p.notes()) {
            if (!p.callsites().notes().contains(s)) {
                notes.add(s);
            }
        }
        return o;
    }

    public static ObjectNode toJson(CallsiteStatistics s) {
        ObjectNode o = F.objectNode();
        o.put("schema", SCHEMA);
        o.put("origin", s.origin());
        o.put("depth", s.depth());
        o.put("ranks", s.ranks());
        array(o.putArray("appTime"), s.appTime());
        array(o.putArray("mpiTime"), s.mpiTime());
        o.put("appTimeTotal", s.appTotal());
        o.put("mpiTimeTotal", s.mpiTotal());
        ArrayNode sites = o.putArray("callsites");
        for (CallsiteEntry e : s.callsites()) {
            ObjectNode n = sites.addObject();
            n.put("id", e.site().id());
            n.put("call", e.site().mpiCall());
            n.put("key", e.site().key());
            ArrayNode frames = n.putArray("frames");
            for (Frame f : e.site().frames()) {
                ObjectNode fn = frames.addObject();
                fn.put("function", f.function());
                fn.put("file", f.file());
                fn.put("line", f.line());
            }
            DiffJson.num(n, "cov", e.cov(s.ranks()));
            n.set("all", stats(s, e.all()));
            ArrayNode ranks = n.putArray("perRank");
            e.perRank().forEach(r -> ranks.add(stats(s, r)));
        }
        ArrayNode notes = o.putArray("notes");
        s.notes().forEach(notes::add);
        return o;
    }

    private static ObjectNode stats(CallsiteStatistics s, RankStats r) {
        ObjectNode n = F.objectNode();
        if (r.rank() >= 0) {
            n.put("rank", r.rank());
        }
        n.put("count", r.count());
        n.put("total", r.total());
        n.put("max", r.max());
        n.put("mean", r.mean());
        n.put("min", r.min());
        n.put("bytes", r.bytes());
        n.put("bytesMax", r.bytesMax());
        n.put("bytesMin", r.bytesMin());
        n.put("appPercent", s.appPercent(r));
        n.put("mpiPercent", s.mpiPercent(r));
        return n;
    }

    private static void array(ArrayNode a, double[] v) {
        for (double x : v) {
            a.add(x);
        }
    }
}
