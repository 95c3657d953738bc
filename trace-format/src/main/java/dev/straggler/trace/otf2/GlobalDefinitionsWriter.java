package dev.straggler.trace.otf2;

import dev.straggler.trace.Communicator;
import dev.straggler.trace.Location;
import dev.straggler.trace.Paradigm;
import dev.straggler.trace.ProcessDef;
import dev.straggler.trace.Region;
import dev.straggler.trace.TraceDefinitions;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntConsumer;

/**
 * Writes the global definition file of an archive from Straggler's definitions (field layouts of reference §6.7).
 * Model ids become OTF2 ids: region {@code i}, communicator {@code c}, location group {@code r} for rank
 * {@code r}; group 0 lists each rank's master thread in rank order (the MPI {@code COMM_LOCATIONS} group, which
 * makes location groups MPI ranks), and one group per communicator lists its global ranks, except that a
 * communicator over threads ({@link ThreadComms}, Score-P's "Process x Threads CPU Locations") is written on the
 * measurement system's paradigm, as Score-P writes it. OpenMP thread
 * teams ({@link ThreadTeams}) follow: the OpenMP paradigm's communicator name template, the OpenMP
 * {@code COMM_LOCATIONS} group, one {@code COMM_GROUP} and one communicator per team.
 */
final class GlobalDefinitionsWriter {
    /** String 1 is reserved for the program name that PROGRAM_BEGIN records refer to. */
    static final int PROGRAM_NAME_STRING = 1;

    private GlobalDefinitionsWriter() {
    }

    /**
     * Writes {@code file}: ClockProperties, every string, the system tree, one location group per rank, the
     * locations (with their event counts), the regions, and the groups and communicators.
     *
     * @param programName the name PROGRAM_BEGIN records give (string 1)
     * @param added       regions to define after the trace's own, with the ids that follow theirs
     * @param teams       the OpenMP thread teams to define
     * @return the number of definition records written (the anchor file states it)
     */
    static long write(Path file, TraceDefinitions d, long[] events, Otf2WriterOptions options, String programName,
                      List<Region> added, ThreadTeams teams) throws IOException {
        Strings strings = new Strings();
        RecordBuffer body = new RecordBuffer(256, options.byteOrder());
        List<byte[]> records = new ArrayList<>();
        List<Integer> types = new ArrayList<>();
        // definitions are collected first so that the strings they name can be written before them
        IntConsumer add = type -> {
            records.add(Arrays.copyOf(body.buf, body.pos));
            types.add(type);
            body.reset();
        };
        body.u64c(d.clock().ticksPerSecond());
        body.u64c(d.clock().globalOffset());
        body.u64c(d.clock().traceLength());
        body.u64c(Otf2Format.UNDEFINED_U64);
        add.accept(Otf2Format.DEF_CLOCK_PROPERTIES);

        if (d.regions().stream().anyMatch(r -> r.paradigm() == Paradigm.MPI)
                || !d.communicators().isEmpty()) {
            body.u8(Otf2Format.PARADIGM_MPI);
            body.u32c(strings.id("MPI"));
            body.u8(Otf2Format.PARADIGM_CLASS_PROCESS);
            add.accept(Otf2Format.DEF_PARADIGM);
        }
        if (d.regions().stream().anyMatch(r -> r.paradigm() == Paradigm.OPENMP) || !teams.isEmpty()) {
            // as Score-P defines it for OPARI2 instrumentation
            body.u8(Paradigm.OPENMP.code());
            body.u32c(strings.id("OpenMP"));
            body.u8(Otf2Format.PARADIGM_CLASS_THREAD_FORK_JOIN);
            add.accept(Otf2Format.DEF_PARADIGM);
            if (!teams.isEmpty()) {
                // Score-P 8.4 names thread teams through this template instead of naming each communicator
                body.u8(Paradigm.OPENMP.code());
                body.u8(Otf2Format.PARADIGM_PROPERTY_COMM_NAME_TEMPLATE);
                body.u8(Otf2Format.TYPE_STRING);
                body.u32c(strings.id("Thread team ${id}"));
                add.accept(Otf2Format.DEF_PARADIGM_PROPERTY);
            }
        }

        // system tree: each process's path as the trace states it (machine Linux > node vm, ...); without one, a
        // machine and under it one node per host the processes name
        int ranks = Math.max(d.processes().size(),
                d.locations().stream().mapToInt(Location::rank).max().orElse(-1) + 1);
        String[] processName = new String[ranks];
        List<List<dev.straggler.trace.SystemNode>> processPath = new ArrayList<>(java.util.Collections.nCopies(ranks, null));
        for (ProcessDef p : d.processes()) {
            if (p.rank() >= 0 && p.rank() < ranks) {
                processName[p.rank()] = p.name();
                processPath.set(p.rank(), !p.path().isEmpty() ? p.path()
                        : List.of(new dev.straggler.trace.SystemNode("machine", "machine"),
                        new dev.straggler.trace.SystemNode("node", p.node().isEmpty() ? "node" : p.node())));
            }
        }
        Map<List<dev.straggler.trace.SystemNode>, Integer> nodes = new LinkedHashMap<>();
        for (int r = 0; r < ranks; r++) {
            List<dev.straggler.trace.SystemNode> path = processPath.get(r) != null ? processPath.get(r)
                    : List.of(new dev.straggler.trace.SystemNode("machine", "machine"),
                    new dev.straggler.trace.SystemNode("node", "node"));
            int parent = Otf2Format.UNDEFINED_U32;
            for (int k = 1; k <= path.size(); k++) {
                List<dev.straggler.trace.SystemNode> prefix = List.copyOf(path.subList(0, k));
                Integer id = nodes.get(prefix);
                if (id == null) {
                    id = nodes.size();
                    nodes.put(prefix, id);
                    dev.straggler.trace.SystemNode n = path.get(k - 1);
                    body.u32c(id);
                    body.u32c(strings.id(n.name()));
                    body.u32c(strings.id(n.className()));
                    body.u32c(parent);
                    add.accept(Otf2Format.DEF_SYSTEM_TREE_NODE);
                }
                parent = id;
            }
            body.u32c(r);
            body.u32c(strings.id(processName[r] == null ? "rank " + r : processName[r]));
            body.u8(Otf2Format.LOCATION_GROUP_PROCESS);
            body.u32c(parent);
            body.u32c(Otf2Format.UNDEFINED_U32);
            add.accept(Otf2Format.DEF_LOCATION_GROUP);
        }
        for (Location l : d.locations()) {
            body.u64c(l.id());
            body.u32c(strings.id(l.name()));
            body.u8(l.type().code());
            body.u64c(events[l.index()]);
            body.u32c(l.rank());
            add.accept(Otf2Format.DEF_LOCATION);
        }
        List<Region> regions = new ArrayList<>(d.regions());
        regions.addAll(added);
        for (Region r : regions) {
            body.u32c(r.id());
            body.u32c(strings.id(r.name()));
            body.u32c(0);
            body.u8(0);
            body.u32c(r.sourceFile().isEmpty() ? Otf2Format.UNDEFINED_U32 : strings.id(r.sourceFile()));
            body.u32c(r.beginLine());
            body.u32c(r.endLine());
            body.u32c(strings.id(r.canonicalName()));
            body.u8(r.role().code());
            body.u8(r.paradigm().code());
            body.u32c(0);
            add.accept(Otf2Format.DEF_REGION);
        }
        // group ids are dense, in the order written (otf2-print warns about gaps)
        int groups = -1;
        int[] groupOf = new int[d.communicators().size()];
        if (!d.communicators().isEmpty()) {
            // group 0: each rank's master thread, in rank order; then the groups of communicators over threads;
            // then one group per MPI communicator, its global ranks
            int[] master = d.masterLocationByRank();
            long[] masters = new long[ranks];
            for (int r = 0; r < ranks; r++) {
                final int rank = r;
                int loc = r < master.length ? master[r] : -1;
                if (loc < 0) {
                    // a rank without a CPU thread: any of its locations stands for it
                    loc = d.locations().stream().filter(x -> x.rank() == rank).mapToInt(Location::index)
                            .findFirst().orElseThrow(() -> new IllegalArgumentException("rank " + rank
                                    + " has no location"));
                }
                masters[r] = d.location(loc).id();
            }
            group(body, add, 0, 0, masters, Otf2Format.GROUP_COMM_LOCATIONS, Otf2Format.PARADIGM_MPI);
            groups = 0;
            ThreadComms threadComms = ThreadComms.of(d, ranks, teams.modelTeams);
            if (threadComms.locations.length > 0) {
                // Score-P's layout: the measurement system's COMM_LOCATIONS group, then per communicator a
                // COMM_GROUP of indices into it, both before the MPI groups
                group(body, add, ++groups, strings.id(ThreadComms.LOCATIONS_NAME), ids(d, threadComms.locations),
                        Otf2Format.GROUP_COMM_LOCATIONS, Paradigm.MEASUREMENT_SYSTEM.code());
                for (Communicator c : d.communicators()) {
                    int[] m = threadComms.members[c.id()];
                    if (m == null) {
                        continue;
                    }
                    groupOf[c.id()] = ++groups;
                    group(body, add, groupOf[c.id()], strings.id(ThreadComms.GROUP_NAME),
                            java.util.Arrays.stream(m).asLongStream().toArray(), Otf2Format.GROUP_COMM_GROUP,
                            Paradigm.MEASUREMENT_SYSTEM.code());
                }
            }
            for (Communicator c : d.communicators()) {
                if (teams.modelTeams.get(c.id()) || threadComms.members[c.id()] != null) {
                    continue;
                }
                groupOf[c.id()] = ++groups;
                group(body, add, groupOf[c.id()], 0, java.util.Arrays.stream(c.members()).asLongStream().toArray(),
                        Otf2Format.GROUP_COMM_GROUP, Otf2Format.PARADIGM_MPI);
            }
            for (Communicator c : d.communicators()) {
                if (teams.modelTeams.get(c.id())) {
                    continue;
                }
                body.u32c(c.id());
                body.u32c(strings.id(c.name()));
                body.u32c(groupOf[c.id()]);
                body.u32c(c.parent() < 0 ? Otf2Format.UNDEFINED_U32 : c.parent());
                body.u32c(0);
                add.accept(Otf2Format.DEF_COMM);
            }
        }
        if (!teams.isEmpty()) {
            // the OpenMP COMM_LOCATIONS group, then per team a COMM_GROUP of indices into it and a communicator
            int group = groups + 1;
            group(body, add, group, strings.id("OpenMP"), ids(d, teams.openMpLocations),
                    Otf2Format.GROUP_COMM_LOCATIONS, Paradigm.OPENMP.code());
            for (int i = 0; i < teams.teams.size(); i++) {
                int[] members = teams.teams.get(i).locations();
                long[] index = new long[members.length];
                for (int k = 0; k < members.length; k++) {
                    index[k] = teams.memberIndex(members[k]);
                }
                group(body, add, group + 1 + i, 0, index, Otf2Format.GROUP_COMM_GROUP, Paradigm.OPENMP.code());
            }
            for (int i = 0; i < teams.teams.size(); i++) {
                ThreadTeams.Team t = teams.teams.get(i);
                body.u32c(t.comm());
                body.u32c(strings.id(t.name()));
                body.u32c(group + 1 + i);
                body.u32c(Otf2Format.UNDEFINED_U32);
                body.u32c(0);
                add.accept(Otf2Format.DEF_COMM);
            }
        }

        long count = 0;
        try (ChunkWriter w = new ChunkWriter(file,
                (int) options.chunkSizeDefinitions(), options.byteOrder())) {
            // ClockProperties first, then every string, then the rest in the order built
            count += put(w, types.get(0), records.get(0), records.get(0).length);
            // string 1 is the program name even when another string has the same text (OTF2 allows that)
            body.reset();
            body.u32c(PROGRAM_NAME_STRING);
            body.string(programName);
            count += put(w, Otf2Format.DEF_STRING, body.buf, body.pos);
            for (Map.Entry<String, Integer> s : strings.ids.entrySet()) {
                body.reset();
                body.u32c(s.getValue());
                body.string(s.getKey());
                count += put(w, Otf2Format.DEF_STRING, body.buf, body.pos);
            }
            for (int i = 1; i < records.size(); i++) {
                count += put(w, types.get(i), records.get(i), records.get(i).length);
            }
        }
        return count;
    }

    private static int put(ChunkWriter w, int type, byte[] b, int n) throws IOException {
        w.reserve(RecordBuffer.recordSize(n));
        w.chunk.record(type, b, n);
        return 1;
    }

    /**
     * One GROUP record: its id, name and members in OTF2's first layout (with the group type of that layout left
     * undefined), then the type, paradigm and flags (none) that later versions append.
     */
    private static void group(RecordBuffer body, IntConsumer add, int id, int name, long[] members, int type,
                              int paradigm) {
        body.u32c(id);
        body.u32c(name);
        body.u8(0);
        body.u32c(members.length);
        for (long m : members) {
            body.u64c(m);
        }
        body.u8(type);
        body.u8(paradigm);
        body.u32c(0);
        add.accept(Otf2Format.DEF_GROUP);
    }

    /** The OTF2 location ids of some locations (by index). */
    private static long[] ids(TraceDefinitions d, int[] locations) {
        long[] out = new long[locations.length];
        for (int i = 0; i < locations.length; i++) {
            out[i] = d.location(locations[i]).id();
        }
        return out;
    }

    /**
     * Communicators over threads that are neither MPI communicators nor thread teams: a model communicator that
     * lists some rank more than once and is no team. Score-P defines one, "Process x Threads CPU Locations", over
     * every CPU thread of every process (shared hybrid traces, Score-P 8.4): a {@code COMM_GROUP} of paradigm
     * MEASUREMENT_SYSTEM named {@value #GROUP_NAME}, listing indices into that paradigm's {@code COMM_LOCATIONS}
     * group named {@value #LOCATIONS_NAME}. The reader turns each location back into its rank, so the model
     * communicator comes back unchanged. Written as an MPI group instead, it would list a rank's master thread
     * several times, an MPI communicator larger than the world, and Scalasca 2.6's reader refuses the archive
     * ("Experiment requires at least 2 MPI ranks").
     *
     * <p>The {@code k}-th time a communicator lists rank {@code r} stands for {@code r}'s {@code k}-th location,
     * CPU threads first by thread number (so the master, then OpenMP thread 1, ...), then its other locations.
     * A communicator listing a rank more often than it has locations stays an MPI communicator, as before.
     */
    static final class ThreadComms {
        static final String LOCATIONS_NAME = "PROCESSXTHREADS_GROUP_LOCATIONS";
        static final String GROUP_NAME = "PROCESSXTHREADS_GROUP";

        /** Location indices of the COMM_LOCATIONS group: the locations any such communicator lists, by rank. */
        final int[] locations;
        /** Per model communicator, its members as indices into {@link #locations}; null when it is not one. */
        final int[][] members;

        private ThreadComms(int[] locations, int[][] members) {
            this.locations = locations;
            this.members = members;
        }

        static ThreadComms of(TraceDefinitions d, int ranks, java.util.BitSet teams) {
            List<List<Location>> byRank = new ArrayList<>();
            for (int r = 0; r < ranks; r++) {
                byRank.add(new ArrayList<>());
            }
            for (Location l : d.locations()) {
                if (l.rank() >= 0 && l.rank() < ranks) {
                    byRank.get(l.rank()).add(l);
                }
            }
            for (List<Location> ls : byRank) {
                ls.sort(java.util.Comparator
                        .comparingInt((Location l) -> l.type() == dev.straggler.trace.LocationType.CPU_THREAD ? 0 : 1)
                        .thenComparingInt(Location::thread).thenComparingInt(Location::index));
            }
            int[][] chosen = new int[d.communicators().size()][];
            boolean[] used = new boolean[d.locations().size()];
            boolean any = false;
            for (Communicator c : d.communicators()) {
                if (teams.get(c.id())) {
                    continue;
                }
                int[] seen = new int[ranks];
                boolean repeats = false;
                boolean fits = true;
                int[] locs = new int[c.size()];
                for (int i = 0; i < c.size() && fits; i++) {
                    int r = c.members()[i];
                    fits = r < ranks && seen[r] < byRank.get(r).size();
                    if (fits) {
                        repeats |= seen[r] > 0;
                        locs[i] = byRank.get(r).get(seen[r]++).index();
                    }
                }
                if (repeats && fits) {
                    chosen[c.id()] = locs;
                    for (int l : locs) {
                        used[l] = true;
                    }
                    any = true;
                }
            }
            if (!any) {
                return new ThreadComms(new int[0], chosen);
            }
            int[] position = new int[d.locations().size()];
            List<Integer> locations = new ArrayList<>();
            for (List<Location> ls : byRank) {
                for (Location l : ls) {
                    if (used[l.index()]) {
                        position[l.index()] = locations.size();
                        locations.add(l.index());
                    }
                }
            }
            for (int[] locs : chosen) {
                if (locs != null) {
                    for (int i = 0; i < locs.length; i++) {
                        locs[i] = position[locs[i]];
                    }
                }
            }
            return new ThreadComms(locations.stream().mapToInt(Integer::intValue).toArray(), chosen);
        }
    }

    /** String ids in order of first use; 0 is the empty string, 1 (written apart) the program name. */
    private static final class Strings {
        final Map<String, Integer> ids = new LinkedHashMap<>();

        Strings() {
            ids.put("", 0);
        }

        int id(String s) {
            Integer i = ids.get(s);
            if (i == null) {
                i = ids.size() + 1;
                ids.put(s, i);
            }
            return i;
        }
    }
}
