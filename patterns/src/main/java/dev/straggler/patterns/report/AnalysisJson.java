package dev.straggler.patterns.report;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.AnalysisResult;
import dev.straggler.patterns.ClockViolations;
import dev.straggler.patterns.CommunicatorWaits;
import dev.straggler.patterns.DelayCause;
import dev.straggler.patterns.Instance;
import dev.straggler.patterns.TraceSummary;
import dev.straggler.patterns.ViolationKind;
import dev.straggler.patterns.cube.CallPath;
import dev.straggler.patterns.cube.Metric;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.patterns.cube.SystemLocation;
import dev.straggler.trace.Numbers;
import dev.straggler.trace.Paradigm;
import dev.straggler.trace.Region;
import dev.straggler.trace.RegionRole;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads and writes an {@link AnalysisResult} as JSON with the stable schema {@value #SCHEMA}, documented in
 * {@code docs/analysis-json.md}. Values follow Cube's conventions: a metric's value includes its child metrics,
 * values are exclusive along the call tree; only non-zero values are written. Writing streams, so memory does
 * not grow with the output.
 */
public final class AnalysisJson {
    public static final String SCHEMA = "straggler.analysis/1";

    private AnalysisJson() {
    }

    public static void write(AnalysisResult r, Path file) throws IOException {
        try (OutputStream out = Files.newOutputStream(file)) {
            write(r, out);
        }
    }

    public static void write(AnalysisResult r, OutputStream out) throws IOException {
        // numbers as the shortest text that reads back to the same double, as in the CSV (Java 17's own text is not
        // always the shortest, and uses E notation below 1e-3)
        try (JsonGenerator g = Numbers.shortestNumbers(new JsonFactory().createGenerator(out, JsonEncoding.UTF8))) {
            g.useDefaultPrettyPrinter();
            SeverityCube c = r.cube();
            g.writeStartObject();
            g.writeStringField("schema", SCHEMA);
            writeSummary(g, r.summary());
            // whether the root-cause metrics were computed: zeros otherwise mean "not analysed", not "no causes"
            g.writeBooleanField("rootCauses", Analysis.rootCausesAnalysed(r.cube()));
            g.writeObjectFieldStart("clockViolations");
            g.writeNumberField("pointToPoint", r.violations().pointToPoint());
            g.writeNumberField("collective", r.violations().collective());
            g.writeObjectFieldStart("byKind");
            for (Map.Entry<ViolationKind, Long> e : r.violations().byKind().entrySet()) {
                g.writeNumberField(e.getKey().name(), e.getValue());
            }
            g.writeEndObject();
            g.writeEndObject();
            g.writeArrayFieldStart("warnings");
            for (String w : r.warnings()) {
                g.writeString(w);
            }
            g.writeEndArray();
            writeCommunicators(g, r.communicators());

            g.writeArrayFieldStart("metrics");
            for (int m = 0; m < c.metrics().size(); m++) {
                Metric mt = c.metrics().get(m);
                g.writeStartObject();
                g.writeStringField("name", mt.uniqueName());
                g.writeStringField("title", mt.displayName());
                g.writeStringField("unit", mt.unit());
                g.writeStringField("parent", mt.parent());
                writeNumber(g, "total", c.total(m), mt.integer());
                g.writeStringField("description", mt.description());
                g.writeEndObject();
            }
            g.writeEndArray();

            g.writeArrayFieldStart("regions");
            for (Region reg : c.regions()) {
                g.writeStartObject();
                g.writeNumberField("id", reg.id());
                g.writeStringField("name", reg.name());
                g.writeStringField("canonicalName", reg.canonicalName());
                g.writeStringField("file", reg.sourceFile());
                g.writeNumberField("beginLine", reg.beginLine());
                g.writeNumberField("endLine", reg.endLine());
                g.writeStringField("paradigm", reg.paradigm().name());
                g.writeStringField("role", reg.role().name());
                g.writeEndObject();
            }
            g.writeEndArray();

            g.writeArrayFieldStart("callpaths");
            for (CallPath cp : c.callPaths()) {
                g.writeStartObject();
                g.writeNumberField("id", cp.id());
                g.writeNumberField("parent", cp.parent());
                g.writeStringField("region", c.regions().get(cp.region()).name());
                g.writeNumberField("regionId", cp.region());
                g.writeArrayFieldStart("path");
                for (String n : c.pathNames(cp.id())) {
                    g.writeString(n);
                }
                g.writeEndArray();
                g.writeEndObject();
            }
            g.writeEndArray();

            g.writeArrayFieldStart("locations");
            for (SystemLocation l : c.locations()) {
                g.writeStartObject();
                g.writeNumberField("index", l.index());
                g.writeNumberField("rank", l.rank());
                g.writeNumberField("thread", l.thread());
                g.writeStringField("name", l.name());
                g.writeEndObject();
            }
            g.writeEndArray();

            g.writeArrayFieldStart("values");
            for (int m = 0; m < c.metrics().size(); m++) {
                Metric mt = c.metrics().get(m);
                for (int p = 0; p < c.callPaths().size(); p++) {
                    double[] row = c.rowOrNull(m, p);
                    if (row == null) {
                        continue;
                    }
                    for (int l = 0; l < row.length; l++) {
                        if (row[l] != 0) {
                            g.writeStartObject();
                            g.writeStringField("metric", mt.uniqueName());
                            g.writeNumberField("callpath", p);
                            g.writeNumberField("location", l);
                            g.writeNumberField("rank", c.locations().get(l).rank());
                            g.writeNumberField("thread", c.locations().get(l).thread());
                            writeNumber(g, "value", row[l], mt.integer());
                            g.writeEndObject();
                        }
                    }
                }
            }
            g.writeEndArray();

            g.writeArrayFieldStart("instances");
            for (Instance i : r.mostSevere()) {
                g.writeStartObject();
                g.writeStringField("metric", i.metric());
                g.writeNumberField("severity", i.severity());
                g.writeNumberField("callpath", i.callPath());
                g.writeNumberField("rank", i.rank());
                g.writeNumberField("thread", i.thread());
                g.writeNumberField("partnerRank", i.partnerRank());
                g.writeNumberField("waitingRanks", i.waitingRanks());
                g.writeNumberField("start", i.start());
                g.writeNumberField("end", i.end());
                g.writeNumberField("duration", i.duration());
                DelayCause why = r.causeOf(i);
                if (why != null) {
                    g.writeObjectFieldStart("cause");
                    writeCause(g, why, null);
                    g.writeEndObject();
                }
                g.writeEndObject();
            }
            g.writeEndArray();

            g.writeObjectFieldStart("instanceCounts");
            for (Map.Entry<String, Long> e : r.instanceCounts().entrySet()) {
                g.writeNumberField(e.getKey(), e.getValue());
            }
            g.writeEndObject();
            g.writeEndObject();
        }
    }

    private static void writeNumber(JsonGenerator g, String field, double v, boolean integer) throws IOException {
        if (integer && v == Math.rint(v) && Math.abs(v) < 9.0e15) {
            g.writeNumberField(field, (long) v);
        } else {
            g.writeNumberField(field, v);
        }
    }

    private static void writeSummary(JsonGenerator g, TraceSummary s) throws IOException {
        g.writeObjectFieldStart("trace");
        g.writeStringField("origin", s.origin());
        g.writeStringField("application", s.application());
        g.writeNumberField("ranks", s.ranks());
        g.writeNumberField("locations", s.locations());
        g.writeNumberField("events", s.events());
        g.writeNumberField("durationSeconds", s.durationSeconds());
        g.writeNumberField("ticksPerSecond", s.ticksPerSecond());
        g.writeBooleanField("hasMpi", s.hasMpi());
        g.writeNumberField("callPaths", s.callPaths());
        g.writeNumberField("messages", s.messages());
        g.writeNumberField("unmatchedSends", s.unmatchedSends());
        g.writeNumberField("unmatchedReceives", s.unmatchedReceives());
        g.writeNumberField("collectiveOperations", s.collectiveOperations());
        g.writeNumberField("unmatchedCollectives", s.unmatchedCollectives());
        g.writeNumberField("communicationRecordBytes", s.communicationRecordBytes());
        g.writeObjectFieldStart("anomalies");
        for (Map.Entry<String, Long> e : s.anomalies().entrySet()) {
            g.writeNumberField(e.getKey(), e.getValue());
        }
        g.writeEndObject();
        g.writeEndObject();
    }

    public static AnalysisResult read(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return read(in, file.toString());
        }
    }

    /**
     * @param name used in error messages
     * @throws IOException when the document is not {@value #SCHEMA} or is inconsistent (the message says where)
     */
    public static AnalysisResult read(InputStream in, String name) throws IOException {
        JsonNode root;
        try {
            root = new ObjectMapper().readTree(in);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw dev.straggler.trace.JsonErrors.format(name, e);
        }
        if (root == null || !SCHEMA.equals(root.path("schema").asText())) {
            throw new IOException(name + ": not a " + SCHEMA + " document (schema is '"
                    + (root == null ? "" : root.path("schema").asText()) + "')");
        }
        List<Metric> metrics = new ArrayList<>();
        for (JsonNode m : root.path("metrics")) {
            String unit = m.path("unit").asText();
            metrics.add(new Metric(m.path("name").asText(), m.path("title").asText(), unit, !unit.equals("sec"),
                    m.path("parent").isNull() ? null : m.path("parent").asText(null), m.path("description").asText()));
        }
        List<Region> regions = new ArrayList<>();
        for (JsonNode x : root.path("regions")) {
            regions.add(new Region(x.path("id").asInt(), x.path("name").asText(), x.path("canonicalName").asText(),
                    x.path("file").asText(), x.path("beginLine").asInt(), x.path("endLine").asInt(),
                    Paradigm.valueOf(x.path("paradigm").asText("UNKNOWN")), RegionRole.valueOf(x.path("role").asText("UNKNOWN"))));
        }
        List<CallPath> paths = new ArrayList<>();
        for (JsonNode x : root.path("callpaths")) {
            paths.add(new CallPath(x.path("id").asInt(), x.path("parent").asInt(), x.path("regionId").asInt(), 0));
        }
        List<SystemLocation> locations = new ArrayList<>();
        Map<Long, Integer> locationOf = new LinkedHashMap<>();
        for (JsonNode x : root.path("locations")) {
            SystemLocation l = new SystemLocation(x.path("index").asInt(), x.path("rank").asInt(),
                    x.path("thread").asInt(), x.path("name").asText());
            locations.add(l);
            locationOf.put(((long) l.rank() << 32) | l.thread(), l.index());
        }
        JsonNode t = root.path("trace");
        Map<String, String> attrs = new LinkedHashMap<>();
        attrs.put("origin", t.path("origin").asText());
        attrs.put("application", t.path("application").asText());
        if (root.path("rootCauses").asBoolean(false)) {
            attrs.put(Analysis.ROOT_CAUSES_ATTRIBUTE, Analysis.ROOT_CAUSES_ANALYSED);
        }
        SeverityCube cube;
        try {
            cube = new SeverityCube(metrics, regions, paths, locations, attrs);
        } catch (IllegalArgumentException e) {
            throw new IOException(name + ": inconsistent definitions: " + e.getMessage(), e);
        }
        int k = 0;
        for (JsonNode v : root.path("values")) {
            int m = cube.metricIndex(v.path("metric").asText());
            Integer l = v.has("location") ? Integer.valueOf(v.path("location").asInt())
                    : locationOf.get(((long) v.path("rank").asInt() << 32) | v.path("thread").asInt());
            if (l != null && (l < 0 || l >= locations.size())) {
                l = null;
            }
            int p = v.path("callpath").asInt(-1);
            if (m < 0 || l == null || p < 0 || p >= paths.size()) {
                throw new IOException(name + ": values[" + k + "] names an unknown metric, call path or location");
            }
            cube.set(m, p, l, v.path("value").asDouble());
            k++;
        }
        cube.freeze();
        Map<String, Long> anomalies = new LinkedHashMap<>();
        t.path("anomalies").fields().forEachRemaining(e -> anomalies.put(e.getKey(), e.getValue().asLong()));
        TraceSummary summary = new TraceSummary(t.path("origin").asText(), t.path("application").asText(),
                t.path("ranks").asInt(), t.path("locations").asInt(), t.path("events").asLong(),
                t.path("durationSeconds").asDouble(), t.path("ticksPerSecond").asLong(), t.path("hasMpi").asBoolean(),
                t.path("callPaths").asInt(), t.path("messages").asLong(), t.path("unmatchedSends").asLong(),
                t.path("unmatchedReceives").asLong(), t.path("collectiveOperations").asLong(),
                t.path("unmatchedCollectives").asLong(), t.path("communicationRecordBytes").asLong(), anomalies);
        Map<ViolationKind, Long> byKind = new EnumMap<>(ViolationKind.class);
        root.path("clockViolations").path("byKind").fields()
                .forEachRemaining(e -> byKind.put(ViolationKind.valueOf(e.getKey()), e.getValue().asLong()));
        List<String> warnings = new ArrayList<>();
        root.path("warnings").forEach(w -> warnings.add(w.asText()));
        List<Instance> instances = new ArrayList<>();
        List<DelayCause> causes = new ArrayList<>();
        for (JsonNode i : root.path("instances")) {
            Instance inst = new Instance(i.path("metric").asText(), i.path("severity").asDouble(),
                    i.path("callpath").asInt(), i.path("rank").asInt(), i.path("thread").asInt(),
                    i.path("partnerRank").asInt(), i.path("waitingRanks").asInt(), i.path("start").asDouble(),
                    i.path("end").asDouble());
            instances.add(inst);
            JsonNode w = i.path("cause");
            if (w.isObject()) {
                List<DelayCause.Part> parts = new ArrayList<>();
                for (JsonNode p : w.path("callpaths")) {
                    parts.add(new DelayCause.Part(p.path("callpath").asInt(), p.path("seconds").asDouble()));
                }
                causes.add(new DelayCause(inst, w.path("rank").asInt(), w.path("thread").asInt(),
                        w.path("from").asDouble(), w.path("to").asDouble(), w.path("delay").asDouble(),
                        w.path("propagated").asDouble(), parts));
            }
        }
        Map<String, Long> counts = new LinkedHashMap<>();
        root.path("instanceCounts").fields().forEachRemaining(e -> counts.put(e.getKey(), e.getValue().asLong()));
        return new AnalysisResult(cube, summary, new ClockViolations(byKind), instances, warnings, counts,
                readCommunicators(root), causes);
    }

    /**
     * The fields of an instance's {@code cause} (docs/analysis-json.md): the delaying location, the stretch, the delay,
     * the waiting propagated and the call paths' parts, each call path also by name when {@code pathNames} is given.
     */
    public static void writeCause(JsonGenerator g, DelayCause why, java.util.function.IntFunction<String> pathNames)
            throws IOException {
        g.writeNumberField("rank", why.rank());
        g.writeNumberField("thread", why.thread());
        g.writeNumberField("from", why.from());
        g.writeNumberField("to", why.to());
        g.writeNumberField("delay", why.delay());
        g.writeNumberField("propagated", why.propagated());
        g.writeArrayFieldStart("callpaths");
        for (DelayCause.Part part : why.callPaths()) {
            g.writeStartObject();
            g.writeNumberField("callpath", part.callPath());
            if (pathNames != null) {
                g.writeStringField("path", pathNames.apply(part.callPath()));
            }
            g.writeNumberField("seconds", part.seconds());
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    /** {@code communicators}: every communicator with its wait states (seconds per unique metric name). */
    private static void writeCommunicators(JsonGenerator g, List<CommunicatorWaits> comms) throws IOException {
        g.writeArrayFieldStart("communicators");
        for (CommunicatorWaits c : comms) {
            g.writeStartObject();
            g.writeNumberField("id", c.id());
            g.writeStringField("name", c.name());
            g.writeNumberField("size", c.size());
            g.writeArrayFieldStart("ranks");
            for (int r : c.ranks()) {
                g.writeNumber(r);
            }
            g.writeEndArray();
            g.writeObjectFieldStart("metrics");
            for (Map.Entry<String, Double> e : c.metrics().entrySet()) {
                g.writeNumberField(e.getKey(), e.getValue());
            }
            g.writeEndObject();
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    /** Documents written before the per-communicator view have none. */
    private static List<CommunicatorWaits> readCommunicators(JsonNode root) {
        List<CommunicatorWaits> out = new ArrayList<>();
        for (JsonNode c : root.path("communicators")) {
            int[] ranks = new int[c.path("ranks").size()];
            for (int i = 0; i < ranks.length; i++) {
                ranks[i] = c.path("ranks").get(i).asInt();
            }
            Map<String, Double> metrics = new LinkedHashMap<>();
            c.path("metrics").fields().forEachRemaining(e -> metrics.put(e.getKey(), e.getValue().asDouble()));
            out.add(new CommunicatorWaits(c.path("id").asInt(out.size()), c.path("name").asText(""), ranks, metrics));
        }
        return out;
    }
}
