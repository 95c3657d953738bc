package dev.straggler.trace.text;

import dev.straggler.trace.Clock;
import dev.straggler.trace.CollectiveOp;
import dev.straggler.trace.Communicator;
import dev.straggler.trace.EventBatch;
import dev.straggler.trace.EventKind;
import dev.straggler.trace.Experiment;
import dev.straggler.trace.Location;
import dev.straggler.trace.LocationType;
import dev.straggler.trace.MemoryTrace;
import dev.straggler.trace.Paradigm;
import dev.straggler.trace.ProcessDef;
import dev.straggler.trace.Region;
import dev.straggler.trace.RegionRole;
import dev.straggler.trace.TraceDefinitions;
import dev.straggler.trace.TraceFormatException;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Parses the plain-text trace format (docs/text-format.md) into a {@link MemoryTrace}. Every error names the file
 * and line. The parser checks syntax and references to definitions; ordering and balance are the
 * {@link dev.straggler.trace.TraceValidator}'s job, so that a broken trace can still be loaded and inspected.
 */
public final class TextTraceReader {
    public static final String MAGIC = "straggler-text";
    public static final int VERSION = 1;

    private final String origin;
    private Clock clock = Clock.nanoseconds();
    private String application = "";
    private int processes = -1;
    private final Map<String, String> params = new LinkedHashMap<>();
    private final TreeMap<Integer, Region> regions = new TreeMap<>();
    private final Map<String, Integer> regionByName = new HashMap<>();
    private final Map<String, Integer> ambiguousNames = new HashMap<>();
    private final TreeMap<Integer, ProcessDef> processDefs = new TreeMap<>();
    private final TreeMap<Integer, Location> locations = new TreeMap<>();
    private final TreeMap<Integer, Communicator> comms = new TreeMap<>();
    private final Map<String, Long> skipped = new LinkedHashMap<>();
    private final List<EventBatch> streams = new ArrayList<>();
    private int lineNo;

    private TextTraceReader(String origin) {
        this.origin = origin;
    }

    public static MemoryTrace read(Path file) throws IOException {
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return read(r, file.toString());
        }
    }

    public static MemoryTrace read(Reader in, String origin) throws IOException {
        return new TextTraceReader(origin).parse(new BufferedReader(in));
    }

    /** True when the file starts (after comments and blank lines) with the format's magic word. */
    public static boolean looksLikeText(Path file) {
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            for (String l; (l = r.readLine()) != null; ) {
                String t = l.strip();
                if (t.isEmpty() || t.startsWith("#")) {
                    continue;
                }
                return t.startsWith(MAGIC);
            }
        } catch (IOException | RuntimeException e) {
            return false;
        }
        return false;
    }

    private TraceFormatException error(String msg) {
        return new TraceFormatException(origin + ":" + lineNo + ": " + msg);
    }

    private MemoryTrace parse(BufferedReader in) throws IOException {
        boolean sawMagic = false;
        for (String line; (line = in.readLine()) != null; ) {
            lineNo++;
            String t = line.strip();
            if (t.isEmpty() || t.startsWith("#")) {
                continue;
            }
            List<String> tok;
            try {
                tok = TextTokens.split(t);
            } catch (IllegalArgumentException e) {
                throw error(e.getMessage());
            }
            if (!sawMagic) {
                if (!tok.get(0).equals(MAGIC)) {
                    throw error("not a Straggler text trace: the first line must be '" + MAGIC + " " + VERSION + "'");
                }
                if (tok.size() < 2 || !tok.get(1).equals(String.valueOf(VERSION))) {
                    throw error("unsupported text format version " + (tok.size() < 2 ? "(none)" : tok.get(1)));
                }
                sawMagic = true;
                continue;
            }
            String head = tok.get(0);
            if (Character.isDigit(head.charAt(0))) {
                event(tok);
            } else {
                definition(head, tok);
            }
        }
        if (!sawMagic) {
            throw new TraceFormatException(origin + ": empty file, not a Straggler text trace");
        }
        return build();
    }

    private void definition(String head, List<String> tok) throws TraceFormatException {
        Map<String, String> kv = keyValues(tok, head.equals("region") || head.equals("comm") ? 3 : head.equals("skipped") ? 3 : 1);
        switch (head) {
            case "clock" -> clock = new Clock(num(kv, "resolution", 1_000_000_000L), num(kv, "offset", 0), num(kv, "length", 0));
            case "experiment" -> {
                application = kv.getOrDefault("application", "");
                processes = (int) num(kv, "processes", -1);
            }
            case "param" -> params.putAll(kv);
            case "region" -> {
                need(tok, 3, "region <id> <name> [key=value...]");
                int id = integer(tok.get(1), "region id");
                String name = tok.get(2);
                int[] lines = lineRange(kv.getOrDefault("lines", "0-0"));
                Region r;
                try {
                    r = new Region(id, name, kv.get("canonical"), kv.getOrDefault("file", ""), lines[0], lines[1],
                            Paradigm.valueOf(kv.getOrDefault("paradigm", "USER").toUpperCase(Locale.ROOT)),
                            RegionRole.valueOf(kv.getOrDefault("role", "FUNCTION").toUpperCase(Locale.ROOT)));
                } catch (IllegalArgumentException e) {
                    throw error("bad region definition: " + e.getMessage());
                }
                if (regions.put(id, r) != null) {
                    throw error("region " + id + " defined twice");
                }
                Integer prev = regionByName.put(name, id);
                if (prev != null) {
                    ambiguousNames.put(name, prev);
                }
            }
            case "process" -> {
                need(tok, 2, "process <rank> [name=...] [node=...]");
                int rank = integer(tok.get(1), "rank");
                processDefs.put(rank, new ProcessDef(rank, kv.getOrDefault("name", "rank " + rank), kv.get("node")));
            }
            case "location" -> {
                need(tok, 2, "location <index> rank=<r> [thread=<t>] [type=CPU_THREAD] [name=...] [id=...]");
                int index = integer(tok.get(1), "location index");
                if (!kv.containsKey("rank")) {
                    throw error("location " + index + " needs rank=<r>");
                }
                LocationType type;
                try {
                    type = LocationType.valueOf(kv.getOrDefault("type", "CPU_THREAD").toUpperCase(Locale.ROOT));
                } catch (IllegalArgumentException e) {
                    throw error("unknown location type " + kv.get("type"));
                }
                if (locations.put(index, new Location(index, num(kv, "id", index), kv.getOrDefault("name", "Master thread"),
                        type, (int) num(kv, "rank", 0), (int) num(kv, "thread", 0), -1)) != null) {
                    throw error("location " + index + " defined twice");
                }
            }
            case "comm" -> {
                need(tok, 3, "comm <id> <name> members=<r0,r1,...> [parent=<id>]");
                int id = integer(tok.get(1), "communicator id");
                String members = kv.get("members");
                if (members == null) {
                    throw error("communicator " + id + " needs members=<global ranks>");
                }
                int[] m = members.isEmpty() ? new int[0] : parseInts(members);
                for (int r : m) {
                    if (r < 0) {
                        throw error("communicator " + id + " has member rank " + r + "; ranks are never negative");
                    }
                }
                if (comms.put(id, new Communicator(id, tok.get(2), m, (int) num(kv, "parent", -1))) != null) {
                    throw error("communicator " + id + " defined twice");
                }
            }
            case "skipped" -> {
                need(tok, 3, "skipped <RECORD> <count>");
                skipped.merge(tok.get(1), (long) integer(tok.get(2), "count"), Long::sum);
            }
            default -> throw error("unknown line '" + head + "' (expected a definition keyword or '<location> <time> <KIND> ...')");
        }
    }

    private void event(List<String> tok) throws TraceFormatException {
        if (tok.size() < 3) {
            throw error("an event line is '<location> <time> <KIND> [arguments]'");
        }
        int loc = integer(tok.get(0), "location");
        if (!locations.containsKey(loc)) {
            throw error("event on location " + loc + ", which is not defined (add 'location " + loc + " rank=...')");
        }
        long time = longValue(tok.get(1), "time");
        EventKind kind = kind(tok.get(2));
        while (streams.size() <= loc) {
            streams.add(new EventBatch(64));
        }
        EventBatch b = streams.get(loc);
        switch (kind) {
            case ENTER, LEAVE -> {
                need(tok, 4, kind + " needs a region (name or #id)");
                b.add(time, kind.code(), regionRef(tok.get(3)), 0, 0, 0, 0);
            }
            case MPI_SEND, MPI_ISEND, MPI_RECV, MPI_IRECV -> {
                Map<String, String> kv = keyValues(tok, 3);
                String peerKey = kind == EventKind.MPI_SEND || kind == EventKind.MPI_ISEND ? "to" : "from";
                int peer = (int) req(kv, peerKey);
                int comm = commRef(kv);
                long req = kind == EventKind.MPI_ISEND || kind == EventKind.MPI_IRECV ? req(kv, "req") : 0;
                b.add(time, kind.code(), peer, comm, (int) num(kv, "tag", 0), num(kv, "bytes", 0), req);
            }
            case MPI_ISEND_COMPLETE, MPI_IRECV_REQUEST, MPI_REQUEST_TEST, MPI_REQUEST_CANCELLED ->
                    b.add(time, kind.code(), 0, 0, 0, 0, req(keyValues(tok, 3), "req"));
            case MPI_COLLECTIVE_BEGIN, PROGRAM_BEGIN -> b.add(time, kind.code(), 0, 0, 0, 0, 0);
            case MPI_COLLECTIVE_END -> {
                Map<String, String> kv = keyValues(tok, 3);
                CollectiveOp op;
                try {
                    op = CollectiveOp.valueOf(kv.getOrDefault("op", "").toUpperCase(Locale.ROOT));
                } catch (IllegalArgumentException e) {
                    throw error("MPI_COLLECTIVE_END needs op=<BARRIER|BCAST|...>, got '" + kv.get("op") + "'");
                }
                b.add(time, kind.code(), op.code(), commRef(kv), (int) num(kv, "root", -1), num(kv, "sent", 0), num(kv, "received", 0));
            }
            case MEASUREMENT_ON_OFF -> {
                String mode = keyValues(tok, 3).getOrDefault("mode", "");
                int m = switch (mode.toLowerCase(Locale.ROOT)) {
                    case "on" -> 1;
                    case "off" -> 2;
                    default -> throw error("MEASUREMENT_ON_OFF needs mode=on|off");
                };
                b.add(time, kind.code(), m, 0, 0, 0, 0);
            }
            case PROGRAM_END -> {
                var kv = keyValues(tok, 3);
                long status = "undefined".equals(kv.get("status")) ? Long.MIN_VALUE : num(kv, "status", 0);
                b.add(time, kind.code(), 0, 0, 0, status, 0);
            }
            case BUFFER_FLUSH -> b.add(time, kind.code(), 0, 0, 0, 0, req(keyValues(tok, 3), "stop"));
            case THREAD_FORK -> {
                Map<String, String> kv = keyValues(tok, 3);
                b.add(time, kind.code(), (int) req(kv, "threads"), paradigm(kv, kind), 0, 0, 0);
            }
            case THREAD_JOIN -> b.add(time, kind.code(), 0, paradigm(keyValues(tok, 3), kind), 0, 0, 0);
            case THREAD_ACQUIRE_LOCK, THREAD_RELEASE_LOCK -> {
                Map<String, String> kv = keyValues(tok, 3);
                b.add(time, kind.code(), (int) req(kv, "lock"), paradigm(kv, kind), 0, 0, req(kv, "order"));
            }
            case THREAD_BEGIN -> {
                Map<String, String> kv = keyValues(tok, 3);
                b.add(time, kind.code(), 0, (int) num(kv, "comm", -1), 0, 0, num(kv, "sequence", 1));
            }
        }
    }

    /** {@code model=NAME} (a {@link Paradigm} name such as OPENMP, or its OTF2 code). */
    private int paradigm(Map<String, String> kv, EventKind kind) throws TraceFormatException {
        String m = kv.get("model");
        if (m == null) {
            throw error(kind + " needs model=<OPENMP|PTHREAD|...>");
        }
        if (!m.isEmpty() && Character.isDigit(m.charAt(0))) {
            return integer(m, "model");
        }
        try {
            return Paradigm.valueOf(m.toUpperCase(Locale.ROOT)).code();
        } catch (IllegalArgumentException e) {
            throw error(kind + " names unknown model '" + m + "' (OPENMP, PTHREAD, ... or an OTF2 paradigm code)");
        }
    }

    private EventKind kind(String s) throws TraceFormatException {
        String u = s.toUpperCase(Locale.ROOT);
        for (String candidate : new String[]{u, "MPI_" + u}) {
            try {
                return EventKind.valueOf(candidate);
            } catch (IllegalArgumentException ignored) {
                // try the next spelling
            }
        }
        throw error("unknown event kind '" + s + "'");
    }

    private int regionRef(String s) throws TraceFormatException {
        if (s.startsWith("#")) {
            int id = integer(s.substring(1), "region id");
            if (!regions.containsKey(id)) {
                throw error("region #" + id + " is not defined");
            }
            return id;
        }
        if (ambiguousNames.containsKey(s)) {
            throw error("region name '" + s + "' is ambiguous; refer to it by #id");
        }
        Integer id = regionByName.get(s);
        if (id == null) {
            throw error("region '" + s + "' is not defined (add 'region <id> " + s + " ...')");
        }
        return id;
    }

    private int commRef(Map<String, String> kv) throws TraceFormatException {
        int c = (int) req(kv, "comm");
        if (!comms.containsKey(c)) {
            throw error("communicator " + c + " is not defined");
        }
        return c;
    }

    private Map<String, String> keyValues(List<String> tok, int from) throws TraceFormatException {
        Map<String, String> kv = new LinkedHashMap<>();
        for (int i = from; i < tok.size(); i++) {
            String s = tok.get(i);
            int eq = s.indexOf('=');
            if (eq <= 0) {
                if (from == 1) {
                    continue; // positional arguments of definition lines are read by the caller
                }
                throw error("expected key=value, got '" + s + "'");
            }
            kv.put(s.substring(0, eq), s.substring(eq + 1));
        }
        return kv;
    }

    private long num(Map<String, String> kv, String key, long dflt) throws TraceFormatException {
        String v = kv.get(key);
        return v == null ? dflt : longValue(v, key);
    }

    private long req(Map<String, String> kv, String key) throws TraceFormatException {
        String v = kv.get(key);
        if (v == null) {
            throw error("missing " + key + "=<value>");
        }
        return longValue(v, key);
    }

    private long longValue(String s, String what) throws TraceFormatException {
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw error(what + " must be an integer, got '" + s + "'");
        }
    }

    private int integer(String s, String what) throws TraceFormatException {
        long v = longValue(s, what);
        if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
            throw error(what + " out of range: " + s);
        }
        return (int) v;
    }

    private int[] parseInts(String csv) throws TraceFormatException {
        String[] parts = csv.split(",");
        int[] out = new int[parts.length];
        for (int i = 0; i < parts.length; i++) {
            out[i] = integer(parts[i].strip(), "member");
        }
        return out;
    }

    private int[] lineRange(String s) throws TraceFormatException {
        int dash = s.indexOf('-');
        if (dash < 0) {
            int v = integer(s, "line");
            return new int[]{v, v};
        }
        return new int[]{integer(s.substring(0, dash), "begin line"), integer(s.substring(dash + 1), "end line")};
    }

    private void need(List<String> tok, int n, String usage) throws TraceFormatException {
        if (tok.size() < n) {
            throw error("expected: " + usage);
        }
    }

    private MemoryTrace build() throws TraceFormatException {
        checkDense(regions.keySet(), "region");
        checkDense(locations.keySet(), "location");
        checkDense(comms.keySet(), "communicator");
        TraceDefinitions.Builder b = TraceDefinitions.builder().clock(clock);
        regions.values().forEach(b::region);
        locations.values().forEach(b::location);
        comms.values().forEach(b::communicator);
        skipped.forEach(b::skipped);
        for (Location l : locations.values()) {
            processDefs.putIfAbsent(l.rank(), new ProcessDef(l.rank(), "rank " + l.rank(), ""));
        }
        processDefs.values().forEach(b::process);
        int procs = processes >= 0 ? processes : processDefs.size();
        b.experiment(new Experiment(application, procs, params));
        List<EventBatch> s = new ArrayList<>();
        for (int i = 0; i < locations.size(); i++) {
            s.add(i < streams.size() ? streams.get(i) : new EventBatch(1));
        }
        return new MemoryTrace(b.build(), s, origin);
    }

    private void checkDense(java.util.Set<Integer> ids, String what) throws TraceFormatException {
        int expect = 0;
        for (int id : ids) {
            if (id != expect) {
                throw new TraceFormatException(origin + ": " + what + " ids must be 0, 1, 2, ... without gaps; "
                        + what + " " + expect + " is missing");
            }
            expect++;
        }
    }
}
