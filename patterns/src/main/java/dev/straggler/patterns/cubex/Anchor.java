package dev.straggler.patterns.cubex;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The definitions of a Cube file as written in its anchor.xml (reference §3.2), before they are turned
 * into a severity cube. Lists are in document order; nested elements refer to their parent by list index.
 */
final class Anchor {
    /** A {@code <metric>}; {@code parent} is an index into {@link #metrics}, -1 for a root. */
    static final class MetricDef {
        int fileId = -1;
        String type = "";
        boolean ghost;
        String uniqueName = "";
        String displayName = "";
        String dtype = "";
        String uom = "";
        String url = "";
        String descr = "";
        String expression = "";
        int parent = -1;
    }

    /** A {@code <region>}; begin/end are -1 when unknown. */
    static final class RegionDef {
        int fileId = -1;
        String mod = "";
        int begin = -1;
        int end = -1;
        String name = "";
        String mangledName;
        String paradigm = "unknown";
        String role = "unknown";
    }

    /** A {@code <cnode>}; {@code parent} is an index into {@link #cnodes}, -1 for a root; line -1 when absent. */
    static final class CnodeDef {
        int fileId = -1;
        int parent = -1;
        int calleeId = -1;
        int line = -1;
        String mod = "";
    }

    /** A {@code <location>} inside a {@code <locationgroup>} ({@code group} indexes {@link #groups}). */
    static final class LocationDef {
        int fileId = -1;
        String name = "";
        int rank;
        String type = "";
        int group = -1;
    }

    /** A {@code <systemtreenode>}; {@code parent} indexes {@link #nodes}, -1 for a root. */
    static final class NodeDef {
        String name = "";
        String cls = "";
        int parent = -1;
    }

    static final class GroupDef {
        int fileId = -1;
        String name = "";
        int rank;
        String type = "";
        /** The system-tree node holding the group (index into {@link #nodes}), -1 when none. */
        int node = -1;
    }

    final Map<String, String> attributes = new LinkedHashMap<>();
    final List<MetricDef> metrics = new ArrayList<>();
    final List<RegionDef> regions = new ArrayList<>();
    final List<CnodeDef> cnodes = new ArrayList<>();
    final List<NodeDef> nodes = new ArrayList<>();
    final List<GroupDef> groups = new ArrayList<>();
    final List<LocationDef> locations = new ArrayList<>();
}
