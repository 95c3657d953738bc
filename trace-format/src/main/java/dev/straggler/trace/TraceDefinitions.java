package dev.straggler.trace;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Everything a trace defines apart from its events. Immutable.
 *
 * <p>Identifiers are dense: region {@code i} is {@code regions().get(i)}, likewise communicators and locations,
 * so the replay can index arrays by them. Importers of formats with sparse ids renumber.
 *
 * @param skippedRecords records of the source that the model does not carry (OTF2 OpenMP, RMA, metric, ... records),
 *                       counted by record name; never silently dropped, and reported by {@code straggler info}
 */
public record TraceDefinitions(Clock clock, Experiment experiment, List<Region> regions, List<ProcessDef> processes,
                               List<Location> locations, List<Communicator> communicators,
                               Map<String, Long> skippedRecords) {

    public TraceDefinitions {
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(experiment, "experiment");
        regions = List.copyOf(regions);
        processes = List.copyOf(processes);
        locations = List.copyOf(locations);
        communicators = List.copyOf(communicators);
        skippedRecords = Collections.unmodifiableMap(new LinkedHashMap<>(skippedRecords));
        for (int i = 0; i < regions.size(); i++) {
            if (regions.get(i).id() != i) {
                throw new IllegalArgumentException("region at position " + i + " has id " + regions.get(i).id());
            }
        }
        for (int i = 0; i < locations.size(); i++) {
            if (locations.get(i).index() != i) {
                throw new IllegalArgumentException("location at position " + i + " has index " + locations.get(i).index());
            }
        }
        for (int i = 0; i < communicators.size(); i++) {
            if (communicators.get(i).id() != i) {
                throw new IllegalArgumentException("communicator at position " + i + " has id " + communicators.get(i).id());
            }
        }
    }

    public Region region(int id) {
        return regions.get(id);
    }

    public Communicator communicator(int id) {
        return communicators.get(id);
    }

    public Location location(int index) {
        return locations.get(index);
    }

    /** Number of distinct ranks (processes) that own at least one location. */
    public int rankCount() {
        return (int) locations.stream().mapToInt(Location::rank).distinct().count();
    }

    /** The index of the location of a rank's thread, -1 when the trace has none. */
    public int locationOf(int rank, int thread) {
        for (Location l : locations) {
            if (l.rank() == rank && l.thread() == thread) {
                return l.index();
            }
        }
        return -1;
    }

    /**
     * Location index of each rank's master CPU thread, indexed by rank; -1 where a rank has none.
     * MPI events of a rank live on this location.
     */
    public int[] masterLocationByRank() {
        int maxRank = locations.stream().mapToInt(Location::rank).max().orElse(-1);
        int[] byRank = new int[maxRank + 1];
        Arrays.fill(byRank, -1);
        for (Location l : locations) {
            if (l.rank() >= 0 && l.type() == LocationType.CPU_THREAD
                    && (byRank[l.rank()] < 0 || l.thread() < locations.get(byRank[l.rank()]).thread())) {
                byRank[l.rank()] = l.index();
            }
        }
        return byRank;
    }

    /** The id of the unique region with this name. @throws IllegalArgumentException when none or several match */
    public int regionId(String name) {
        int found = -1;
        for (Region r : regions) {
            if (r.name().equals(name)) {
                if (found >= 0) {
                    throw new IllegalArgumentException("region name '" + name + "' is ambiguous (ids " + found + ", " + r.id() + ")");
                }
                found = r.id();
            }
        }
        if (found < 0) {
            throw new IllegalArgumentException("no region named '" + name + "'");
        }
        return found;
    }

    public long totalSkippedRecords() {
        return skippedRecords.values().stream().mapToLong(Long::longValue).sum();
    }

    public TraceDefinitions withLocations(List<Location> newLocations) {
        return new TraceDefinitions(clock, experiment, regions, processes, newLocations, communicators, skippedRecords);
    }

    public TraceDefinitions withSkippedRecords(Map<String, Long> skipped) {
        return new TraceDefinitions(clock, experiment, regions, processes, locations, communicators, skipped);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Collects definitions in any order; {@link #build()} checks that ids are dense. Not thread-safe. */
    public static final class Builder {
        private Clock clock = Clock.nanoseconds();
        private Experiment experiment = Experiment.of("", 0);
        private final List<Region> regions = new ArrayList<>();
        private final List<ProcessDef> processes = new ArrayList<>();
        private final List<Location> locations = new ArrayList<>();
        private final List<Communicator> communicators = new ArrayList<>();
        private final Map<String, Long> skipped = new LinkedHashMap<>();

        public Builder clock(Clock c) {
            clock = c;
            return this;
        }

        public Builder experiment(Experiment e) {
            experiment = e;
            return this;
        }

        /** Adds a region with the next free id and returns that id. */
        public int addRegion(String name, String file, int beginLine, int endLine, Paradigm paradigm, RegionRole role) {
            int id = regions.size();
            regions.add(new Region(id, name, name, file, beginLine, endLine, paradigm, role));
            return id;
        }

        public Builder region(Region r) {
            regions.add(r);
            return this;
        }

        public Builder process(ProcessDef p) {
            processes.add(p);
            return this;
        }

        public Builder location(Location l) {
            locations.add(l);
            return this;
        }

        /** Adds a communicator with the next free id and returns that id. */
        public int addCommunicator(String name, int[] members, int parent) {
            int id = communicators.size();
            communicators.add(new Communicator(id, name, members, parent));
            return id;
        }

        public Builder communicator(Communicator c) {
            communicators.add(c);
            return this;
        }

        public Builder skipped(String record, long count) {
            skipped.merge(record, count, Long::sum);
            return this;
        }

        public int regionCount() {
            return regions.size();
        }

        public TraceDefinitions build() {
            List<Region> r = new ArrayList<>(regions);
            r.sort((a, b) -> Integer.compare(a.id(), b.id()));
            List<Location> l = new ArrayList<>(locations);
            l.sort((a, b) -> Integer.compare(a.index(), b.index()));
            List<Communicator> c = new ArrayList<>(communicators);
            c.sort((a, b) -> Integer.compare(a.id(), b.id()));
            return new TraceDefinitions(clock, experiment, r, processes, l, c, skipped);
        }
    }
}
