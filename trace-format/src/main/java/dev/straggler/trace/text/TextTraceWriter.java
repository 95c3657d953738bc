package dev.straggler.trace.text;

import dev.straggler.trace.CollectiveOp;
import dev.straggler.trace.Communicator;
import dev.straggler.trace.EventBatch;
import dev.straggler.trace.EventKind;
import dev.straggler.trace.Paradigm;
import dev.straggler.trace.Location;
import dev.straggler.trace.LocationReader;
import dev.straggler.trace.ProcessDef;
import dev.straggler.trace.Region;
import dev.straggler.trace.TraceDefinitions;
import dev.straggler.trace.TraceSource;

import java.io.IOException;
import java.io.Writer;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Writes a trace in the text format (docs/text-format.md): definitions first, then each location's events in
 * order. What it writes, {@link TextTraceReader} reads back to the same definitions and events.
 */
public final class TextTraceWriter {
    private final Writer out;
    private final TraceDefinitions defs;
    private final Map<String, Integer> nameCount = new HashMap<>();

    private TextTraceWriter(Writer out, TraceDefinitions defs) {
        this.out = out;
        this.defs = defs;
        for (Region r : defs.regions()) {
            nameCount.merge(r.name(), 1, Integer::sum);
        }
    }

    /** Writes the whole trace. */
    public static void write(TraceSource trace, Writer out) throws IOException {
        TextTraceWriter w = new TextTraceWriter(out, trace.definitions());
        w.writeDefinitions();
        for (Location l : trace.definitions().locations()) {
            w.writeLocation(trace, l.index(), Long.MIN_VALUE, Long.MAX_VALUE);
        }
        out.flush();
    }

    /** Writes the events of one location whose time lies in {@code [from, to]}, without definitions. */
    public static void writeEvents(TraceSource trace, int location, long from, long to, Writer out) throws IOException {
        new TextTraceWriter(out, trace.definitions()).writeLocation(trace, location, from, to);
        out.flush();
    }

    /** Writes only the definitions part (header included). */
    public static void writeDefinitions(TraceDefinitions defs, Writer out) throws IOException {
        new TextTraceWriter(out, defs).writeDefinitions();
        out.flush();
    }

    private void writeDefinitions() throws IOException {
        out.write(TextTraceReader.MAGIC + " " + TextTraceReader.VERSION + "\n");
        var c = defs.clock();
        out.write("clock resolution=" + c.ticksPerSecond() + " offset=" + c.globalOffset() + " length=" + c.traceLength() + "\n");
        var e = defs.experiment();
        out.write("experiment application=" + TextTokens.quote(e.application()) + " processes=" + e.processes() + "\n");
        for (var p : e.parameters().entrySet()) {
            out.write("param " + TextTokens.quote(p.getKey()) + "=" + TextTokens.quote(p.getValue()) + "\n");
        }
        for (Region r : defs.regions()) {
            out.write("region " + r.id() + " " + TextTokens.quote(r.name()) + " paradigm=" + r.paradigm() + " role=" + r.role());
            if (!r.sourceFile().isEmpty()) {
                out.write(" file=" + TextTokens.quote(r.sourceFile()));
            }
            if (r.beginLine() != 0 || r.endLine() != 0) {
                out.write(" lines=" + r.beginLine() + "-" + r.endLine());
            }
            if (!r.canonicalName().equals(r.name())) {
                out.write(" canonical=" + TextTokens.quote(r.canonicalName()));
            }
            out.write("\n");
        }
        for (ProcessDef p : defs.processes()) {
            out.write("process " + p.rank() + " name=" + TextTokens.quote(p.name()));
            if (!p.node().isEmpty()) {
                out.write(" node=" + TextTokens.quote(p.node()));
            }
            out.write("\n");
        }
        for (Location l : defs.locations()) {
            out.write("location " + l.index() + " rank=" + l.rank() + " thread=" + l.thread() + " type=" + l.type()
                    + " name=" + TextTokens.quote(l.name()) + " id=" + l.id() + "\n");
        }
        for (Communicator cm : defs.communicators()) {
            String members = java.util.Arrays.stream(cm.members()).mapToObj(String::valueOf).collect(Collectors.joining(","));
            out.write("comm " + cm.id() + " " + TextTokens.quote(cm.name()) + " members=" + members
                    + (cm.parent() >= 0 ? " parent=" + cm.parent() : "") + "\n");
        }
        for (var s : defs.skippedRecords().entrySet()) {
            out.write("skipped " + TextTokens.quote(s.getKey()) + " " + s.getValue() + "\n");
        }
    }

    private void writeLocation(TraceSource trace, int loc, long from, long to) throws IOException {
        EventBatch b = new EventBatch(4096);
        StringBuilder sb = new StringBuilder(128);
        try (LocationReader r = trace.openLocation(loc)) {
            while (r.next(b)) {
                for (int i = 0; i < b.size; i++) {
                    if (b.time[i] < from || b.time[i] > to) {
                        continue;
                    }
                    sb.setLength(0);
                    line(sb, loc, b, i);
                    out.append(sb);
                }
            }
        }
    }

    private String region(int id) {
        if (id < 0 || id >= defs.regions().size()) {
            return "#" + id;
        }
        String n = defs.region(id).name();
        return nameCount.get(n) == 1 && !n.isEmpty() && !Character.isDigit(n.charAt(0)) && n.charAt(0) != '#'
                ? TextTokens.quote(n) : "#" + id;
    }

    /** A paradigm by its name, or its OTF2 code when this version does not know it. */
    private static String paradigm(int code) {
        Paradigm p = Paradigm.of(code);
        return p == Paradigm.UNKNOWN && code != 0 ? Integer.toString(code) : p.name();
    }

    private void line(StringBuilder sb, int loc, EventBatch b, int i) {
        EventKind k = EventKind.of(b.kind[i]);
        sb.append(loc).append(' ').append(b.time[i]).append(' ').append(k.name());
        switch (k) {
            case ENTER, LEAVE -> sb.append(' ').append(region(b.ref[i]));
            case MPI_SEND, MPI_ISEND, MPI_RECV, MPI_IRECV -> {
                sb.append(k == EventKind.MPI_SEND || k == EventKind.MPI_ISEND ? " to=" : " from=").append(b.ref[i])
                        .append(" comm=").append(b.comm[i]).append(" tag=").append(b.tag[i]).append(" bytes=").append(b.bytes[i]);
                if (k == EventKind.MPI_ISEND || k == EventKind.MPI_IRECV) {
                    sb.append(" req=").append(b.aux[i]);
                }
            }
            case MPI_ISEND_COMPLETE, MPI_IRECV_REQUEST, MPI_REQUEST_TEST, MPI_REQUEST_CANCELLED ->
                    sb.append(" req=").append(b.aux[i]);
            case MPI_COLLECTIVE_BEGIN, PROGRAM_BEGIN -> {
            }
            case MPI_COLLECTIVE_END -> {
                sb.append(" op=").append(CollectiveOp.isValidCode(b.ref[i]) ? CollectiveOp.of(b.ref[i]).name() : "?" + b.ref[i])
                        .append(" comm=").append(b.comm[i]);
                if (b.tag[i] >= 0) {
                    sb.append(" root=").append(b.tag[i]);
                }
                sb.append(" sent=").append(b.bytes[i]).append(" received=").append(b.aux[i]);
            }
            case MEASUREMENT_ON_OFF -> sb.append(b.ref[i] == 1 ? " mode=on" : " mode=off");
            // OTF2 marks an unknown exit status with its undefined int64 (Long.MIN_VALUE)
            case PROGRAM_END -> sb.append(" status=").append(b.bytes[i] == Long.MIN_VALUE ? "undefined"
                    : Long.toString(b.bytes[i]));
            case BUFFER_FLUSH -> sb.append(" stop=").append(b.aux[i]);
            case THREAD_FORK -> sb.append(" model=").append(paradigm(b.comm[i])).append(" threads=")
                    .append(Integer.toUnsignedString(b.ref[i]));
            case THREAD_JOIN -> sb.append(" model=").append(paradigm(b.comm[i]));
            case THREAD_ACQUIRE_LOCK, THREAD_RELEASE_LOCK -> sb.append(" model=").append(paradigm(b.comm[i]))
                    .append(" lock=").append(Integer.toUnsignedString(b.ref[i])).append(" order=").append(b.aux[i]);
            case THREAD_BEGIN -> {
                if (b.comm[i] >= 0) {
                    sb.append(" comm=").append(b.comm[i]);
                }
                sb.append(" sequence=").append(b.aux[i]);
            }
        }
        sb.append('\n');
    }
}
