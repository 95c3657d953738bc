package dev.straggler.trace.otf2;

import it.unimi.dsi.fastutil.ints.Int2ObjectMap;
import it.unimi.dsi.fastutil.ints.Int2ObjectMaps;
import it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The global definitions of an OTF2 archive as OTF2 states them, with OTF2's own (possibly sparse) identifiers
 * (reference §6.7). {@link Otf2Archive#definitions()} is Straggler's model built from these; this keeps what the
 * model does not carry (callpaths, callsites, attributes, groups, system tree, paradigms). Unsigned 32-bit
 * references are Java ints, OTF2's undefined reference (all ones) being -1. Immutable once built.
 *
 * @param definitionCounts every global definition record by otf2-print name, including those not kept here
 */
public record Otf2Definitions(ClockProperties clock, Int2ObjectMap<String> strings, List<Paradigm> paradigms,
                              List<Attribute> attributes, List<SystemTreeNode> systemTreeNodes,
                              List<LocationGroup> locationGroups, List<Location> locations, List<Region> regions,
                              List<Callsite> callsites, List<Callpath> callpaths, List<Group> groups,
                              List<Comm> comms, List<InterComm> interComms, List<MetricMember> metricMembers,
                              List<MetricClass> metricClasses, Map<String, Long> definitionCounts) {

    public Otf2Definitions {
        strings = Int2ObjectMaps.unmodifiable(new Int2ObjectOpenHashMap<>(strings));
        paradigms = List.copyOf(paradigms);
        attributes = List.copyOf(attributes);
        systemTreeNodes = List.copyOf(systemTreeNodes);
        locationGroups = List.copyOf(locationGroups);
        locations = List.copyOf(locations);
        regions = List.copyOf(regions);
        callsites = List.copyOf(callsites);
        callpaths = List.copyOf(callpaths);
        groups = List.copyOf(groups);
        comms = List.copyOf(comms);
        interComms = List.copyOf(interComms);
        metricMembers = List.copyOf(metricMembers);
        metricClasses = List.copyOf(metricClasses);
        definitionCounts = Collections.unmodifiableMap(new LinkedHashMap<>(definitionCounts));
    }

    /** The string with this reference; "" for the undefined reference, null when not defined. */
    public String string(int ref) {
        return ref == Otf2Format.UNDEFINED_U32 ? "" : strings.get(ref);
    }

    /** ClockProperties: ticks per second, tick of the measurement start, length in ticks, wall-clock start. */
    public record ClockProperties(long timerResolution, long globalOffset, long traceLength, long realtimeTimestamp) {
    }

    public record Paradigm(int paradigm, int name, int paradigmClass) {
    }

    public record Attribute(int id, int name, int description, int type) {
    }

    public record SystemTreeNode(int id, int name, int className, int parent) {
    }

    /** @param creatingLocationGroup the group that created this one (OTF2 3.0; -1 when undefined or absent) */
    public record LocationGroup(int id, int name, int type, int systemTreeParent, int creatingLocationGroup) {
    }

    /** @param numberOfEvents event records the writer declared for this location (all record types) */
    public record Location(long id, int name, int type, long numberOfEvents, int group) {
    }

    public record Region(int id, int name, int canonicalName, int description, int regionType, int sourceFile,
                         int beginLine, int endLine, int role, int paradigm, int flags) {
    }

    public record Callsite(int id, int sourceFile, int line, int enteredRegion, int leftRegion) {
    }

    public record Callpath(int id, int parent, int region) {
    }

    /** @param members location ids (COMM_LOCATIONS, LOCATIONS) or indices into the paradigm's COMM_LOCATIONS group */
    public record Group(int id, int name, int type, int paradigm, int flags, long[] members) {
    }

    public record Comm(int id, int name, int group, int parent, int flags) {
    }

    public record InterComm(int id, int name, int groupA, int groupB, int commonCommunicator, int flags) {
    }

    /**
     * MetricMember (definition 19): one counter, e.g. PAPI_TOT_CYC.
     *
     * @param mode  OTF2_MetricMode: accumulated (0 start, 1 point, 2 last, 3 next) or absolute (4..7), relative (8..)
     */
    public record MetricMember(int id, int name, int description, int metricType, int mode, int valueType) {
        /** Accumulated since some start: the difference of two readings is what happened between them. */
        public boolean accumulated() {
            return mode >= 0 && mode <= 3;
        }
    }

    /** MetricClass (definition 20): the counters a METRIC record carries, in order. */
    public record MetricClass(int id, int[] members, int occurrence, int recorderKind) {
    }
}
