package dev.straggler.trace.otf2;

import dev.straggler.trace.Communicator;
import dev.straggler.trace.Location;
import dev.straggler.trace.LocationType;
import dev.straggler.trace.RegionRole;
import dev.straggler.trace.TraceDefinitions;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The OpenMP thread teams of a trace, written as Score-P 8.4 writes them (checked against the shared hybrid traces;
 * docs/otf2.md, "Thread teams"). Straggler's model has THREAD_FORK and THREAD_JOIN on a rank's master thread and
 * the parallel region's ENTER and LEAVE on every thread, but no team records; Scalasca's reader needs them to put a
 * worker's call paths under the master's call path at the fork (PEARL {@code pearl_base.cpp}: a worker takes the
 * master's current call path at each THREAD_TEAM_BEGIN).
 *
 * <ul>
 *   <li>A team is the first {@code n} CPU threads of a rank (master first, then by thread number), {@code n} being
 *       the team size the fork requests, at most the rank's threads. Each distinct (rank, size) is defined once: a
 *       {@code COMM_GROUP} of paradigm OpenMP listing its threads by their index in one OpenMP
 *       {@code COMM_LOCATIONS} group of every CPU thread (rank by rank, master first), and an unnamed communicator
 *       without parent over it.</li>
 *   <li>On the master, the first ENTER of a parallel region after an OpenMP THREAD_FORK gets a THREAD_TEAM_BEGIN
 *       just before it and its LEAVE a THREAD_TEAM_END just after it, both at that ENTER's or LEAVE's time, so the
 *       order is THREAD_FORK, THREAD_TEAM_BEGIN, ENTER, …, LEAVE, THREAD_TEAM_END, THREAD_JOIN.</li>
 *   <li>On the worker of thread position {@code p}, the {@code j}-th outermost parallel region belongs to the
 *       {@code j}-th fork of its master whose team includes position {@code p} (PEARL matches the k-th
 *       THREAD_TEAM_BEGIN of every thread with the k-th fork); it gets the same pair of records around its ENTER
 *       and LEAVE. A region beyond those forks, or nested in another, gets none.</li>
 *   <li>A model communicator that lists one rank {@code n >= 2} times and nothing else is such a team (an MPI
 *       communicator never lists a rank twice): it is what the reader makes of a team this writer or Score-P wrote.
 *       It becomes that team's definition, keeping its id and name, so writing a read-back archive again defines
 *       every team once. Unnamed communicators are taken first: of a single rank, Score-P's named "Process x
 *       Threads CPU Locations" communicator has the same members ({@link GlobalDefinitionsWriter} writes it back
 *       as Score-P does).</li>
 * </ul>
 */
final class ThreadTeams {
    /** A rank's first {@code locations.length} CPU threads, defined as OTF2 communicator {@code comm}. */
    record Team(int rank, int[] locations, int comm, String name) {
    }

    static final ThreadTeams NONE = new ThreadTeams(List.of(), new int[0], new int[0][], new int[0], new int[0],
            new BitSet());

    /** Teams in the order of their definitions: by rank, then in the order the rank first forks them. */
    final List<Team> teams;
    /** Location indices of the OpenMP {@code COMM_LOCATIONS} group: every CPU thread, rank by rank, master first. */
    final int[] openMpLocations;
    /** Per rank, the index in {@link #teams} of each OpenMP fork of its master, in order (empty: no forks). */
    private final int[][] forkTeams;
    /** Per location, its position among its rank's CPU threads (0 = master), -1 when it is not a CPU thread. */
    private final int[] position;
    /** Per location index, its position in {@link #openMpLocations}. */
    private final int[] memberIndex;
    /** Model communicators written as teams, not as MPI communicators. */
    final BitSet modelTeams;

    private ThreadTeams(List<Team> teams, int[] openMpLocations, int[][] forkTeams, int[] position,
                        int[] memberIndex, BitSet modelTeams) {
        this.teams = teams;
        this.openMpLocations = openMpLocations;
        this.forkTeams = forkTeams;
        this.position = position;
        this.memberIndex = memberIndex;
        this.modelTeams = modelTeams;
    }

    /**
     * @param forks per location index, the team size each of its OpenMP THREAD_FORK records requests, in order
     */
    static ThreadTeams of(TraceDefinitions d, int[][] forks) {
        int[] master = d.masterLocationByRank();
        List<List<Location>> threads = new ArrayList<>();
        for (int r = 0; r < master.length; r++) {
            threads.add(new ArrayList<>());
        }
        for (Location l : d.locations()) {
            if (l.type() == LocationType.CPU_THREAD && l.rank() >= 0) {
                threads.get(l.rank()).add(l);
            }
        }
        int[] position = new int[d.locations().size()];
        Arrays.fill(position, -1);
        int[] memberIndex = new int[d.locations().size()];
        List<Integer> members = new ArrayList<>();
        for (List<Location> t : threads) {
            t.sort(Comparator.comparingInt(Location::thread).thenComparingInt(Location::index));
            for (int p = 0; p < t.size(); p++) {
                position[t.get(p).index()] = p;
                memberIndex[t.get(p).index()] = members.size();
                members.add(t.get(p).index());
            }
        }

        // teams by (rank, size) in order of first use
        Map<Long, Integer> byShape = new LinkedHashMap<>();
        List<int[]> shapes = new ArrayList<>();
        int[][] forkTeams = new int[master.length][];
        for (int r = 0; r < master.length; r++) {
            int[] f = master[r] < 0 || master[r] >= forks.length || forks[master[r]] == null ? new int[0]
                    : forks[master[r]];
            forkTeams[r] = new int[f.length];
            for (int k = 0; k < f.length; k++) {
                int size = Math.max(1, Math.min(f[k] & 0x7FFF_FFFF, threads.get(r).size()));
                final int rank = r;
                forkTeams[r][k] = byShape.computeIfAbsent(((long) r << 32) | size, key -> {
                    shapes.add(new int[] {rank, size});
                    return shapes.size() - 1;
                });
            }
        }
        if (shapes.isEmpty()) {
            return NONE;
        }

        // a model communicator listing one rank n >= 2 times is that rank's team of n threads
        BitSet modelTeams = new BitSet();
        int nextComm = d.communicators().size();
        List<Team> teams = new ArrayList<>(shapes.size());
        for (int[] shape : shapes) {
            int rank = shape[0];
            int size = shape[1];
            // unnamed ones first: Score-P's teams are unnamed, while its "Process x Threads CPU Locations"
            // communicator of a single rank also lists that rank once per thread
            Communicator same = null;
            for (int pass = 0; pass < 2 && same == null; pass++) {
                for (Communicator c : d.communicators()) {
                    if (!modelTeams.get(c.id()) && size >= 2 && c.size() == size && c.name().isEmpty() == (pass == 0)
                            && Arrays.stream(c.members()).allMatch(m -> m == rank)) {
                        same = c;
                        break;
                    }
                }
            }
            int[] locs = threads.get(rank).subList(0, size).stream().mapToInt(Location::index).toArray();
            if (same != null) {
                modelTeams.set(same.id());
                teams.add(new Team(rank, locs, same.id(), same.name()));
            } else {
                teams.add(new Team(rank, locs, nextComm++, ""));
            }
        }
        return new ThreadTeams(List.copyOf(teams), members.stream().mapToInt(Integer::intValue).toArray(), forkTeams,
                position, memberIndex, modelTeams);
    }

    boolean isEmpty() {
        return teams.isEmpty();
    }

    /** Index of a location in the OpenMP {@code COMM_LOCATIONS} group. */
    int memberIndex(int location) {
        return memberIndex[location];
    }

    /** True when the location's events get team records: a CPU thread of a rank whose master forks OpenMP teams. */
    boolean hasTeams(Location l) {
        return !teams.isEmpty() && position[l.index()] >= 0 && forkTeams[l.rank()].length > 0;
    }

    /**
     * Copies a location's event file from {@code from} into {@code to}, adding the team records.
     *
     * @param parallel per region id, true for parallel regions (role PARALLEL)
     */
    void copy(Location l, Path from, long chunkSize, boolean[] parallel, EventEncoder to) throws IOException {
        int p = position[l.index()];
        int[] forks = forkTeams[l.rank()];
        // the communicators of the teams this location takes part in, in order
        int[] mine = Arrays.stream(forks).filter(t -> teams.get(t).locations().length > p)
                .map(t -> teams.get(t).comm()).toArray();
        boolean master = p == 0;
        int next = 0;
        int pending = -1;
        int active = -1;
        int activeDepth = -1;
        int depth = 0;
        ByteCursor c = new ByteCursor(from.toString());
        try (ChunkedFile f = new ChunkedFile(from, chunkSize, false)) {
            long t = 0;
            boolean end = false;
            while (!end && f.next()) {
                c.reset(f.data(), 0, f.length(), 0);
                ChunkHeader.read(c);
                while (c.pos < c.limit) {
                    int start = c.pos;
                    int type = c.u8();
                    if (type == Otf2Format.END_OF_CHUNK || type == Otf2Format.END_OF_BUFFER) {
                        break;
                    }
                    if (type == Otf2Format.END_OF_FILE) {
                        end = true;
                        break;
                    }
                    if (type == Otf2Format.TIMESTAMP) {
                        t = c.u64Fixed();
                        continue;
                    }
                    int region = -1;
                    boolean fork = false;
                    if (Otf2Format.hasNoLength(type)) {
                        long v = c.u64c();
                        region = type == Otf2Format.EVT_ENTER || type == Otf2Format.EVT_LEAVE ? (int) v : -1;
                    } else {
                        int recordEnd = c.recordEnd();
                        fork = type == Otf2Format.EVT_THREAD_FORK && c.pos < recordEnd
                                && (c.buf[c.pos] & 0xFF) == dev.straggler.trace.Paradigm.OPENMP.code();
                        c.pos = recordEnd;
                    }
                    boolean isParallel = region >= 0 && region < parallel.length && parallel[region];
                    if (type == Otf2Format.EVT_ENTER) {
                        if (isParallel && active < 0) {
                            // the master's region of its last fork; a worker's next team (none beyond its forks)
                            active = master ? pending : next < mine.length ? mine[next++] : -1;
                            pending = -1;
                            if (active >= 0) {
                                activeDepth = depth;
                                to.team(t, true, active);
                            }
                        }
                        depth++;
                    }
                    if (type == Otf2Format.EVT_LEAVE) {
                        depth--;
                    }
                    to.copy(t, c.buf, start, c.pos);
                    if (type == Otf2Format.EVT_LEAVE && active >= 0 && depth == activeDepth) {
                        to.team(t, false, active);
                        active = -1;
                    }
                    if (fork && master) {
                        pending = next < mine.length ? mine[next] : -1;
                        next++;
                    } else if (type == Otf2Format.EVT_THREAD_JOIN && master) {
                        // a fork without a parallel region has no team records
                        pending = -1;
                    }
                }
            }
        }
    }
}
