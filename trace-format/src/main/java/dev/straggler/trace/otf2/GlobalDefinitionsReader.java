package dev.straggler.trace.otf2;

import dev.straggler.trace.TraceFormatException;
import it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parses the global definition file {@code <archive>.def} (reference §6.7). Field layouts follow
 * {@code OTF2_GlobalDefWriter_inc.c}; fields that later OTF2 versions appended to a record are read only when the
 * record is long enough, and unknown trailing fields are skipped through the record length, which is how OTF2
 * itself stays compatible across versions.
 */
final class GlobalDefinitionsReader {

    private final Otf2Anchor anchor;
    private final ByteCursor c;
    private Otf2Definitions.ClockProperties clock;
    private final Int2ObjectOpenHashMap<String> strings = new Int2ObjectOpenHashMap<>();
    private final List<Otf2Definitions.Paradigm> paradigms = new ArrayList<>();
    private final List<Otf2Definitions.Attribute> attributes = new ArrayList<>();
    private final List<Otf2Definitions.SystemTreeNode> nodes = new ArrayList<>();
    private final List<Otf2Definitions.LocationGroup> groupsOfLocations = new ArrayList<>();
    private final List<Otf2Definitions.Location> locations = new ArrayList<>();
    private final List<Otf2Definitions.Region> regions = new ArrayList<>();
    private final List<Otf2Definitions.Callsite> callsites = new ArrayList<>();
    private final List<Otf2Definitions.Callpath> callpaths = new ArrayList<>();
    private final List<Otf2Definitions.Group> groups = new ArrayList<>();
    private final List<Otf2Definitions.Comm> comms = new ArrayList<>();
    private final List<Otf2Definitions.InterComm> interComms = new ArrayList<>();
    private final List<Otf2Definitions.MetricMember> metricMembers = new ArrayList<>();
    private final List<Otf2Definitions.MetricClass> metricClasses = new ArrayList<>();
    private final Map<String, Long> counts = new LinkedHashMap<>();

    private GlobalDefinitionsReader(Otf2Anchor anchor, Path file) {
        this.anchor = anchor;
        this.c = new ByteCursor(file.toString());
    }

    static Otf2Definitions read(Otf2Anchor anchor) throws IOException {
        Path file = anchor.globalDefinitionFile();
        if (!Files.isRegularFile(file)) {
            throw new TraceFormatException(file + ": the global definition file of " + anchor.anchorFile()
                    + " does not exist");
        }
        GlobalDefinitionsReader r = new GlobalDefinitionsReader(anchor, file);
        r.readAll(file);
        return r.build();
    }

    private void readAll(Path file) throws IOException {
        boolean ended = false;
        try (ChunkedFile f = new ChunkedFile(file, anchor.chunkSizeDefinitions(),
                anchor.compression() == Otf2Format.COMPRESSION_ZLIB)) {
            while (!ended && f.next()) {
                c.reset(f.data(), 0, f.length(), f.fileOffset(0));
                ChunkHeader.read(c);
                ended = readChunk();
            }
            if (!ended) {
                throw new TraceFormatException(file + ": byte offset " + f.size()
                        + ": the file ends without its end-of-file record (truncated)");
            }
        }
        if (clock == null) {
            throw new TraceFormatException(file + ": no ClockProperties definition");
        }
    }

    /** Parses records of one chunk; true when the end-of-file record was reached. */
    private boolean readChunk() throws TraceFormatException {
        while (c.pos < c.limit) {
            int type = c.u8();
            if (type == Otf2Format.END_OF_CHUNK || type == Otf2Format.END_OF_BUFFER) {
                return false;
            }
            if (type == Otf2Format.END_OF_FILE) {
                return true;
            }
            if (type < Otf2Format.DEF_CLOCK_PROPERTIES) {
                c.pos--;
                throw c.error("invalid definition record type " + type);
            }
            int end = c.recordEnd();
            int saved = c.limit;
            c.limit = end;
            record(type, end);
            c.limit = saved;
            c.pos = end;
            counts.merge(Otf2Format.globalDefinitionName(type), 1L, Long::sum);
        }
        return false;
    }

    private boolean more(int end) {
        return c.pos < end;
    }

    private void record(int type, int end) throws TraceFormatException {
        switch (type) {
            case Otf2Format.DEF_CLOCK_PROPERTIES -> {
                long res = c.u64c();
                long off = c.u64c();
                long len = c.u64c();
                long real = more(end) ? c.u64c() : Otf2Format.UNDEFINED_U64;
                clock = new Otf2Definitions.ClockProperties(res, off, len, real);
            }
            case Otf2Format.DEF_PARADIGM -> paradigms.add(new Otf2Definitions.Paradigm(c.u8(), c.u32c(), c.u8()));
            case Otf2Format.DEF_STRING -> {
                int self = c.u32c();
                strings.put(self, c.string());
            }
            case Otf2Format.DEF_ATTRIBUTE -> {
                int self = c.u32c();
                int name = c.u32c();
                int t = c.u8();
                int desc = more(end) ? c.u32c() : Otf2Format.UNDEFINED_U32;
                attributes.add(new Otf2Definitions.Attribute(self, name, desc, t));
            }
            case Otf2Format.DEF_SYSTEM_TREE_NODE -> nodes.add(new Otf2Definitions.SystemTreeNode(c.u32c(), c.u32c(),
                    c.u32c(), c.u32c()));
            case Otf2Format.DEF_LOCATION_GROUP -> {
                int self = c.u32c();
                int name = c.u32c();
                int t = c.u8();
                int parent = c.u32c();
                int creator = more(end) ? c.u32c() : Otf2Format.UNDEFINED_U32;
                groupsOfLocations.add(new Otf2Definitions.LocationGroup(self, name, t, parent, creator));
            }
            case Otf2Format.DEF_LOCATION -> locations.add(new Otf2Definitions.Location(c.u64c(), c.u32c(), c.u8(),
                    c.u64c(), c.u32c()));
            case Otf2Format.DEF_REGION -> {
                int self = c.u32c();
                int name = c.u32c();
                int desc = c.u32c();
                int regionType = c.u8();
                int file = c.u32c();
                int begin = c.u32c();
                int endLine = c.u32c();
                // canonical name, role, paradigm and flags were appended in OTF2 1.1
                int canonical = more(end) ? c.u32c() : name;
                int role = more(end) ? c.u8() : 0;
                int paradigm = more(end) ? c.u8() : 0;
                int flags = more(end) ? c.u32c() : 0;
                regions.add(new Otf2Definitions.Region(self, name, canonical, desc, regionType, file, begin, endLine,
                        role, paradigm, flags));
            }
            case Otf2Format.DEF_CALLSITE -> callsites.add(new Otf2Definitions.Callsite(c.u32c(), c.u32c(), c.u32c(),
                    c.u32c(), c.u32c()));
            case Otf2Format.DEF_CALLPATH -> callpaths.add(new Otf2Definitions.Callpath(c.u32c(), c.u32c(), c.u32c()));
            case Otf2Format.DEF_GROUP -> {
                int self = c.u32c();
                int name = c.u32c();
                int pre12 = c.u8();
                long n = c.u32c() & 0xFFFF_FFFFL;
                if (n > (end - c.pos)) {
                    throw c.error("group " + self + " declares " + n + " members but the record holds at most "
                            + (end - c.pos));
                }
                long[] members = new long[(int) n];
                for (int i = 0; i < n; i++) {
                    members[i] = c.u64c();
                }
                // group type, paradigm and flags were appended in OTF2 1.2
                int groupType = more(end) ? c.u8() : pre12;
                int paradigm = more(end) ? c.u8() : 0;
                int flags = more(end) ? c.u32c() : 0;
                groups.add(new Otf2Definitions.Group(self, name, groupType, paradigm, flags, members));
            }
            case Otf2Format.DEF_COMM -> {
                int self = c.u32c();
                int name = c.u32c();
                int group = c.u32c();
                int parent = c.u32c();
                int flags = more(end) ? c.u32c() : 0;
                comms.add(new Otf2Definitions.Comm(self, name, group, parent, flags));
            }
            case Otf2Format.DEF_INTER_COMM -> {
                int self = c.u32c();
                int name = c.u32c();
                int a = c.u32c();
                int b = c.u32c();
                int common = c.u32c();
                int flags = more(end) ? c.u32c() : 0;
                interComms.add(new Otf2Definitions.InterComm(self, name, a, b, common, flags));
            }
            case Otf2Format.DEF_METRIC_MEMBER -> {
                // self, name, description, metricType, metricMode, valueType (then base, exponent, unit: unused)
                int self = c.u32c();
                int name = c.u32c();
                int description = c.u32c();
                int metricType = c.u8();
                int mode = c.u8();
                int valueType = c.u8();
                metricMembers.add(new Otf2Definitions.MetricMember(self, name, description, metricType, mode, valueType));
            }
            case Otf2Format.DEF_METRIC_CLASS -> {
                int self = c.u32c();
                int n = c.u8();
                int[] members = new int[n];
                for (int i = 0; i < n; i++) {
                    members[i] = c.u32c();
                }
                int occurrence = c.u8();
                int recorderKind = c.u8();
                metricClasses.add(new Otf2Definitions.MetricClass(self, members, occurrence, recorderKind));
            }
            default -> {
                // kept only as a count
            }
        }
    }

    private Otf2Definitions build() {
        return new Otf2Definitions(clock, strings, paradigms, attributes, nodes, groupsOfLocations, locations, regions,
                callsites, callpaths, groups, comms, interComms, metricMembers, metricClasses, counts);
    }
}
