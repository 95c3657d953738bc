package dev.straggler.trace.otf2;

import dev.straggler.trace.Clock;
import dev.straggler.trace.Communicator;
import dev.straggler.trace.Experiment;
import dev.straggler.trace.Location;
import dev.straggler.trace.LocationType;
import dev.straggler.trace.Paradigm;
import dev.straggler.trace.ProcessDef;
import dev.straggler.trace.Region;
import dev.straggler.trace.RegionRole;
import dev.straggler.trace.TraceDefinitions;
import dev.straggler.trace.TraceFormatException;
import it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap;
import it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap;
import it.unimi.dsi.fastutil.ints.IntOpenHashSet;
import it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Builds Straggler's {@link TraceDefinitions} from OTF2's global definitions and keeps the translation from OTF2
 * identifiers to the model's dense ones.
 *
 * <ul>
 *   <li>Regions are numbered densely in order of their OTF2 id.</li>
 *   <li>Locations are ordered by OTF2 location id. A location's rank is that of its location group: the
 *       position of the group's process in the MPI {@code COMM_LOCATIONS} group; without MPI, the group's index
 *       among process groups; a group outside both (an accelerator) takes the rank of the group that created it
 *       (OTF2 3 {@code creatingLocationGroup}) or else a rank after all others. {@code thread} counts the locations
 *       of a rank, those of its process group first, each group in location-id order.</li>
 *   <li>A communicator's members are global ranks in communicator-rank order (reference §6.7): a
 *       {@code COMM_GROUP} lists indices into its paradigm's {@code COMM_LOCATIONS} group, whose locations give
 *       the ranks. {@code MPI_COMM_SELF} (a {@code COMM_SELF} group) means a different single-member communicator
 *       on every rank, so it becomes one communicator per rank, all named after it; events on a rank refer to that
 *       rank's one. Inter-communicators have no place in the model: they get an entry without members.</li>
 * </ul>
 */
final class ModelMapping {
    final Otf2Definitions otf2;
    final TraceDefinitions definitions;
    /** OTF2 location id of each dense location. */
    final long[] locationIds;
    /** Event records the writer declared for each dense location. */
    final long[] declaredEvents;
    final Long2IntOpenHashMap locationIndex = new Long2IntOpenHashMap();
    final long[] regionIds;
    private final Int2IntOpenHashMap regionIndex = new Int2IntOpenHashMap();
    final long[] commIds;
    private final Int2IntOpenHashMap commIndex = new Int2IntOpenHashMap();
    private final IntOpenHashSet selfComms = new IntOpenHashSet();
    private final int ranks;

    ModelMapping(Otf2Anchor anchor, Otf2Definitions d, String application, boolean lenient,
                 Consumer<Otf2Warning> warn) throws TraceFormatException {
        this.otf2 = d;
        String defFile = anchor.globalDefinitionFile().toString();
        regionIndex.defaultReturnValue(-1);
        commIndex.defaultReturnValue(-1);
        locationIndex.defaultReturnValue(-1);

        Otf2Definitions.ClockProperties cp = d.clock();
        if (cp.timerResolution() <= 0) {
            throw new TraceFormatException(defFile + ": ClockProperties gives timer resolution "
                    + Long.toUnsignedString(cp.timerResolution()) + " ticks per second");
        }
        Clock clock = new Clock(cp.timerResolution(), cp.globalOffset(), cp.traceLength());

        // regions
        List<Otf2Definitions.Region> regs = new ArrayList<>(d.regions());
        regs.sort(Comparator.comparingLong(r -> r.id() & 0xFFFF_FFFFL));
        List<Region> regions = new ArrayList<>(regs.size());
        regionIds = new long[regs.size()];
        for (Otf2Definitions.Region r : regs) {
            if (regionIndex.containsKey(r.id())) {
                throw new TraceFormatException(defFile + ": region " + r.id() + " is defined twice");
            }
            int i = regions.size();
            regionIndex.put(r.id(), i);
            regionIds[i] = r.id() & 0xFFFF_FFFFL;
            regions.add(new Region(i, str(d, r.name(), "name of region " + r.id(), defFile, lenient, warn),
                    str(d, r.canonicalName(), "canonical name of region " + r.id(), defFile, lenient, warn),
                    str(d, r.sourceFile(), "source file of region " + r.id(), defFile, lenient, warn),
                    r.beginLine(), r.endLine(), Paradigm.of(r.paradigm()), RegionRole.of(r.role())));
        }

        // ranks of location groups
        Int2ObjectOpenHashMap<Otf2Definitions.LocationGroup> lgById = new Int2ObjectOpenHashMap<>();
        for (Otf2Definitions.LocationGroup g : d.locationGroups()) {
            lgById.put(g.id(), g);
        }
        Map<Long, Otf2Definitions.Location> locById = new java.util.HashMap<>();
        for (Otf2Definitions.Location l : d.locations()) {
            if (locById.put(l.id(), l) != null) {
                throw new TraceFormatException(defFile + ": location " + Long.toUnsignedString(l.id())
                        + " is defined twice");
            }
        }
        Int2IntOpenHashMap groupRank = new Int2IntOpenHashMap();
        groupRank.defaultReturnValue(-1);
        List<Integer> primaryGroupOfRank = new ArrayList<>();
        Otf2Definitions.Group mpiLocations = commLocations(d, Otf2Format.PARADIGM_MPI);
        if (mpiLocations != null) {
            for (long locId : mpiLocations.members()) {
                Otf2Definitions.Location l = locById.get(locId);
                if (l == null) {
                    throw new TraceFormatException(defFile + ": the MPI locations group lists location "
                            + Long.toUnsignedString(locId) + ", which is not defined");
                }
                if (groupRank.get(l.group()) < 0) {
                    groupRank.put(l.group(), primaryGroupOfRank.size());
                }
                primaryGroupOfRank.add(l.group());
            }
        } else {
            d.locationGroups().stream().filter(g -> g.type() == Otf2Format.LOCATION_GROUP_PROCESS)
                    .sorted(Comparator.comparingLong(g -> g.id() & 0xFFFF_FFFFL)).forEach(g -> {
                        groupRank.put(g.id(), primaryGroupOfRank.size());
                        primaryGroupOfRank.add(g.id());
                    });
        }
        List<Otf2Definitions.LocationGroup> rest = d.locationGroups().stream()
                .filter(g -> groupRank.get(g.id()) < 0)
                .sorted(Comparator.comparingLong(g -> g.id() & 0xFFFF_FFFFL)).toList();
        for (Otf2Definitions.LocationGroup g : rest) {
            int r = -1;
            Otf2Definitions.LocationGroup c = g;
            for (int hops = 0; r < 0 && c != null && c.creatingLocationGroup() != Otf2Format.UNDEFINED_U32
                    && hops < d.locationGroups().size(); hops++) {
                r = groupRank.get(c.creatingLocationGroup());
                c = lgById.get(c.creatingLocationGroup());
            }
            if (r < 0) {
                r = primaryGroupOfRank.size();
                primaryGroupOfRank.add(g.id());
            }
            groupRank.put(g.id(), r);
        }
        ranks = primaryGroupOfRank.size();

        List<ProcessDef> processes = new ArrayList<>(ranks);
        for (int r = 0; r < ranks; r++) {
            Otf2Definitions.LocationGroup g = lgById.get((int) primaryGroupOfRank.get(r));
            String node = "";
            List<dev.straggler.trace.SystemNode> path = new ArrayList<>();
            if (g != null && g.systemTreeParent() != Otf2Format.UNDEFINED_U32) {
                // walk up from the process's node to the root (a cycle in a damaged archive ends the walk)
                int id = g.systemTreeParent();
                java.util.Set<Integer> seen = new java.util.HashSet<>();
                while (id != Otf2Format.UNDEFINED_U32 && seen.add(id)) {
                    Otf2Definitions.SystemTreeNode found = null;
                    for (Otf2Definitions.SystemTreeNode n : d.systemTreeNodes()) {
                        if (n.id() == id) {
                            found = n;
                            break;
                        }
                    }
                    if (found == null) {
                        break;
                    }
                    String nodeName = d.string(found.name()) == null ? "" : d.string(found.name());
                    String cls = d.string(found.className()) == null ? "" : d.string(found.className());
                    if (path.isEmpty()) {
                        node = nodeName;
                    }
                    path.add(0, new dev.straggler.trace.SystemNode(cls, nodeName));
                    id = found.parent();
                }
            }
            String name = g == null ? "rank " + r : str(d, g.name(), "name of location group " + g.id(), defFile,
                    lenient, warn);
            processes.add(new ProcessDef(r, name, node, path));
        }

        // locations, ordered by OTF2 id, threads counted per rank
        List<Otf2Definitions.Location> locs = new ArrayList<>(d.locations());
        locs.sort((a, b) -> Long.compareUnsigned(a.id(), b.id()));
        locationIds = new long[locs.size()];
        declaredEvents = new long[locs.size()];
        int[] rankOf = new int[locs.size()];
        for (int i = 0; i < locs.size(); i++) {
            Otf2Definitions.Location l = locs.get(i);
            locationIds[i] = l.id();
            declaredEvents[i] = l.numberOfEvents();
            locationIndex.put(l.id(), i);
            if (!lgById.containsKey(l.group())) {
                throw new TraceFormatException(defFile + ": location " + Long.toUnsignedString(l.id())
                        + " belongs to location group " + l.group() + ", which is not defined");
            }
            rankOf[i] = groupRank.get(l.group());
        }
        int[] threadOf = new int[locs.size()];
        Integer[] order = new Integer[locs.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(order, Comparator.<Integer>comparingInt(i -> rankOf[i])
                .thenComparingInt(i -> locs.get(i).group() == primaryGroupOfRank.get(rankOf[i]) ? 0 : 1)
                .thenComparingLong(i -> locs.get(i).group() & 0xFFFF_FFFFL)
                .thenComparing(i -> locs.get(i).id(), Long::compareUnsigned));
        for (int k = 0, t = 0; k < order.length; k++) {
            t = k > 0 && rankOf[order[k]] == rankOf[order[k - 1]] ? t + 1 : 0;
            threadOf[order[k]] = t;
        }
        List<Location> locations = new ArrayList<>(locs.size());
        for (int i = 0; i < locs.size(); i++) {
            Otf2Definitions.Location l = locs.get(i);
            locations.add(new Location(i, l.id(), str(d, l.name(), "name of location " + Long.toUnsignedString(l.id()),
                    defFile, lenient, warn), LocationType.of(l.type()), rankOf[i], threadOf[i], -1));
        }

        // communicators
        Int2ObjectOpenHashMap<Otf2Definitions.Group> groupById = new Int2ObjectOpenHashMap<>();
        for (Otf2Definitions.Group g : d.groups()) {
            groupById.put(g.id(), g);
        }
        record AnyComm(int id, int name, int parent, Otf2Definitions.Comm comm, Otf2Definitions.InterComm inter) {
        }
        List<AnyComm> all = new ArrayList<>();
        d.comms().forEach(c -> all.add(new AnyComm(c.id(), c.name(), c.parent(), c, null)));
        d.interComms().forEach(c -> all.add(new AnyComm(c.id(), c.name(), Otf2Format.UNDEFINED_U32, null, c)));
        all.sort(Comparator.comparingLong(c -> c.id() & 0xFFFF_FFFFL));
        int next = 0;
        for (AnyComm c : all) {
            if (commIndex.containsKey(c.id())) {
                throw new TraceFormatException(defFile + ": communicator " + c.id() + " is defined twice");
            }
            commIndex.put(c.id(), next);
            Otf2Definitions.Group g = c.comm() == null ? null : groupById.get(c.comm().group());
            boolean self = g != null && g.type() == Otf2Format.GROUP_COMM_SELF;
            if (self) {
                selfComms.add(c.id());
            }
            next += self ? ranks : 1;
        }
        commIds = new long[next];
        List<Communicator> comms = new ArrayList<>(next);
        for (AnyComm c : all) {
            String name = str(d, c.name(), "name of communicator " + c.id(), defFile, lenient, warn);
            int parent = c.parent() == Otf2Format.UNDEFINED_U32 ? -1 : commIndex.get(c.parent());
            if (c.inter() != null) {
                warn.accept(new Otf2Warning(defFile, -1, -1, 0, "inter-communicator " + c.id() + " (" + name
                        + "): Straggler's model has no inter-communicators, so the messages and collective operations"
                        + " on it are not analysed for waiting (their time counts under their call paths; Scalasca"
                        + " 2.6 refuses such a trace)", true));
                commIds[comms.size()] = c.id() & 0xFFFF_FFFFL;
                comms.add(new Communicator(comms.size(), name, new int[0], -1));
                continue;
            }
            Otf2Definitions.Group g = groupById.get(c.comm().group());
            if (selfComms.contains(c.id())) {
                for (int r = 0; r < ranks; r++) {
                    commIds[comms.size()] = c.id() & 0xFFFF_FFFFL;
                    comms.add(new Communicator(comms.size(), name, new int[] {r}, parent));
                }
                continue;
            }
            int[] members;
            if (g == null) {
                throw new TraceFormatException(defFile + ": communicator " + c.id() + " (" + name + ") refers to group "
                        + c.comm().group() + ", which is not defined");
            }
            members = memberRanks(g, d, locById, groupRank, defFile);
            commIds[comms.size()] = c.id() & 0xFFFF_FFFFL;
            comms.add(new Communicator(comms.size(), name, members, parent));
        }

        Experiment experiment = Experiment.of(application, ranks);
        definitions = new TraceDefinitions(clock, experiment, regions, processes, locations, comms, Map.of());
    }

    private static Otf2Definitions.Group commLocations(Otf2Definitions d, int paradigm) {
        for (Otf2Definitions.Group g : d.groups()) {
            if (g.type() == Otf2Format.GROUP_COMM_LOCATIONS && g.paradigm() == paradigm) {
                return g;
            }
        }
        return null;
    }

    private static int[] memberRanks(Otf2Definitions.Group g, Otf2Definitions d,
                                     Map<Long, Otf2Definitions.Location> locById, Int2IntOpenHashMap groupRank,
                                     String defFile) throws TraceFormatException {
        long[] m = g.members();
        int[] out = new int[m.length];
        if (g.type() == Otf2Format.GROUP_COMM_GROUP) {
            Otf2Definitions.Group locs = commLocations(d, g.paradigm());
            for (int i = 0; i < m.length; i++) {
                if (locs == null) {
                    out[i] = (int) m[i];
                    continue;
                }
                if (m[i] < 0 || m[i] >= locs.members().length) {
                    throw new TraceFormatException(defFile + ": group " + g.id() + " lists member " + m[i]
                            + " but its paradigm's locations group has " + locs.members().length + " members");
                }
                out[i] = rankOfLocation(locs.members()[(int) m[i]], locById, groupRank, g, defFile);
            }
        } else if (g.type() == Otf2Format.GROUP_COMM_LOCATIONS || g.type() == Otf2Format.GROUP_LOCATIONS) {
            for (int i = 0; i < m.length; i++) {
                out[i] = rankOfLocation(m[i], locById, groupRank, g, defFile);
            }
        } else {
            throw new TraceFormatException(defFile + ": group " + g.id() + " of type " + g.type()
                    + " cannot define a communicator");
        }
        return out;
    }

    private static int rankOfLocation(long loc, Map<Long, Otf2Definitions.Location> locById,
                                      Int2IntOpenHashMap groupRank, Otf2Definitions.Group g, String defFile)
            throws TraceFormatException {
        Otf2Definitions.Location l = locById.get(loc);
        if (l == null) {
            throw new TraceFormatException(defFile + ": group " + g.id() + " lists location "
                    + Long.toUnsignedString(loc) + ", which is not defined");
        }
        return groupRank.get(l.group());
    }

    private static String str(Otf2Definitions d, int ref, String what, String defFile, boolean lenient,
                              Consumer<Otf2Warning> warn) throws TraceFormatException {
        String s = d.string(ref);
        if (s != null) {
            return s;
        }
        String msg = what + " refers to string " + Integer.toUnsignedString(ref) + ", which is not defined";
        if (!lenient) {
            throw new TraceFormatException(defFile + ": " + msg).lenientSkips();
        }
        warn.accept(new Otf2Warning(defFile, -1, -1, 0, msg + "; using \"<string " + ref + ">\""));
        return "<string " + Integer.toUnsignedString(ref) + ">";
    }

    int rankCount() {
        return ranks;
    }

    int region(long otf2Id) {
        return otf2Id < 0 || otf2Id > 0xFFFF_FFFFL ? -1 : regionIndex.get((int) otf2Id);
    }

    /** Dense communicator of an OTF2 communicator as seen from {@code rank}; -1 when undefined. */
    int comm(long otf2Id, int rank) {
        if (otf2Id < 0 || otf2Id > 0xFFFF_FFFFL) {
            return -1;
        }
        int base = commIndex.get((int) otf2Id);
        if (base < 0 || !selfComms.contains((int) otf2Id)) {
            return base;
        }
        return rank >= 0 && rank < ranks ? base + rank : -1;
    }

    /** The distinct OTF2 ids of regions and communicators, the domains of {@link RefTable}s. */
    long[] otf2CommIds() {
        return commIndex.keySet().intStream().mapToLong(i -> i & 0xFFFF_FFFFL).toArray();
    }
}
