package dev.straggler.testdata;

import dev.straggler.trace.EventBatch;
import dev.straggler.trace.EventKind;
import dev.straggler.trace.Location;
import dev.straggler.trace.LocationType;
import dev.straggler.trace.Paradigm;
import dev.straggler.trace.Region;
import dev.straggler.trace.RegionRole;
import dev.straggler.trace.TraceDefinitions;
import dev.straggler.trace.TraceSource;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Test oracle: Scalasca 2.6's OpenMP metrics (docs/openmp.md §2–§5) recomputed from a trace's timestamps in the
 * plainest way (objects per event), sharing no code with the scenarios' closed forms or the analysis. Per process
 * (one team, no nested regions): a worker's k-th parallel region hangs under its master's call path at the k-th
 * fork; management is enter − fork plus join − leave per thread and region instance, moved out of the master's
 * forking call path; the k-th barriers of the threads form one instance (wait = latest entry − own entry); an
 * acquisition of order k waits from the entry into its enclosing region until the release of order k − 1; every
 * worker idles for its master's exclusive time on each call path without an OpenMP region.
 */
final class OpenMpOracle {
    /** Severities in ticks by "metric|call/path|rank|thread". */
    final Map<String, Long> values = new TreeMap<>();

    private final TraceDefinitions defs;

    private record Instance(long enter, long leave, String path, String parent) {
    }

    private record Barrier(long enter, String path, boolean explicit) {
    }

    private record Acquire(int lock, long order, long regionEnter, String path, RegionRole role) {
    }

    private static final class Frame {
        Region region;
        long enter;
        String path;
        boolean openMp;
        long children;
    }

    /** What one thread recorded. */
    private static final class Thread {
        final List<Long> forks = new ArrayList<>();
        final List<Long> joins = new ArrayList<>();
        final List<String> forkPaths = new ArrayList<>();
        final List<Instance> regions = new ArrayList<>();
        final List<Barrier> barriers = new ArrayList<>();
        final List<Acquire> acquires = new ArrayList<>();
        final Map<String, Long> releases = new HashMap<>();
        /** Exclusive time per call path outside any OpenMP construct. */
        final Map<String, Long> serial = new TreeMap<>();
    }

    OpenMpOracle(TraceSource trace) throws IOException {
        this.defs = trace.definitions();
        int[] master = defs.masterLocationByRank();
        for (int rank = 0; rank < master.length; rank++) {
            if (master[rank] < 0) {
                continue;
            }
            Thread m = read(trace, master[rank], null);
            List<Thread> team = new ArrayList<>();
            team.add(m);
            List<Location> workers = new ArrayList<>();
            for (Location l : defs.locations()) {
                if (l.rank() == rank && l.index() != master[rank] && l.type() == LocationType.CPU_THREAD) {
                    workers.add(l);
                }
            }
            workers.sort((a, b) -> Integer.compare(a.thread(), b.thread()));
            for (Location w : workers) {
                team.add(read(trace, w.index(), m));
            }
            if (m.forks.isEmpty()) {
                continue;
            }
            management(rank, team);
            barriers(rank, team);
            locks(rank, team);
            idle(rank, team);
        }
    }

    private void add(String metric, String path, int rank, int thread, long ticks) {
        if (ticks > 0) {
            values.merge(metric + "|" + path + "|" + rank + "|" + thread, ticks, Long::sum);
        }
    }

    /** One thread's records; a worker's k-th parallel region is placed under {@code master}'s k-th fork path. */
    private Thread read(TraceSource trace, int loc, Thread master) throws IOException {
        Thread t = new Thread();
        EventBatch b = trace.readLocation(loc);
        ArrayDeque<Frame> stack = new ArrayDeque<>();
        int parallels = 0;
        for (int i = 0; i < b.size; i++) {
            long time = b.time[i];
            switch (b.kind[i]) {
                case EventKind.ENTER_CODE -> {
                    Frame f = new Frame();
                    f.region = defs.region(b.ref[i]);
                    f.enter = time;
                    Frame parent = stack.peekLast();
                    String prefix = parent != null ? parent.path
                            : master != null && f.region.role() == RegionRole.PARALLEL ? master.forkPaths.get(parallels)
                            : null;
                    f.path = prefix == null ? f.region.name() : prefix + "/" + f.region.name();
                    f.openMp = (parent != null && parent.openMp) || f.region.paradigm() == Paradigm.OPENMP;
                    if (f.region.role() == RegionRole.PARALLEL) {
                        parallels++;
                    }
                    stack.addLast(f);
                }
                case EventKind.LEAVE_CODE -> {
                    Frame f = stack.pollLast();
                    long inclusive = time - f.enter;
                    if (stack.peekLast() != null) {
                        stack.peekLast().children += inclusive;
                    }
                    if (!f.openMp) {
                        t.serial.merge(f.path, inclusive - f.children, Long::sum);
                    }
                    RegionRole role = f.region.role();
                    if (role == RegionRole.PARALLEL) {
                        Frame parent = stack.peekLast();
                        t.regions.add(new Instance(f.enter, time, f.path, parent == null ? null : parent.path));
                    } else if (f.region.paradigm() == Paradigm.OPENMP
                            && (role == RegionRole.BARRIER || role == RegionRole.IMPLICIT_BARRIER)) {
                        t.barriers.add(new Barrier(f.enter, f.path, role == RegionRole.BARRIER));
                    }
                }
                case EventKind.THREAD_FORK_CODE -> {
                    t.forks.add(time);
                    t.forkPaths.add(stack.peekLast().path);
                }
                case EventKind.THREAD_JOIN_CODE -> t.joins.add(time);
                case EventKind.THREAD_ACQUIRE_LOCK_CODE -> {
                    Frame f = stack.peekLast();
                    t.acquires.add(new Acquire(b.ref[i], b.aux[i], f.enter, f.path, f.region.role()));
                }
                case EventKind.THREAD_RELEASE_LOCK_CODE -> t.releases.put(b.ref[i] + ":" + b.aux[i], time);
                default -> {
                }
            }
        }
        return t;
    }

    private void management(int rank, List<Thread> team) {
        Thread m = team.get(0);
        for (int th = 0; th < team.size(); th++) {
            List<Instance> regions = team.get(th).regions;
            for (int k = 0; k < regions.size(); k++) {
                Instance r = regions.get(k);
                long fork = Math.max(0, r.enter - m.forks.get(k));
                long join = Math.max(0, m.joins.get(k) - r.leave);
                add("omp_fork", r.path, rank, th, fork);
                add("omp_management", r.path, rank, th, fork + join);
                if (th == 0 && r.parent != null) {
                    // Scalasca moves the master's fork and join time from the forking call path into the region
                    m.serial.merge(r.parent, -(fork + join), Long::sum);
                }
            }
        }
    }

    private void barriers(int rank, List<Thread> team) {
        int n = team.get(0).barriers.size();
        for (Thread t : team) {
            if (t.barriers.size() != n) {
                throw new AssertionError("rank " + rank + ": threads passed different numbers of barriers");
            }
        }
        for (int k = 0; k < n; k++) {
            long latest = Long.MIN_VALUE;
            for (Thread t : team) {
                latest = Math.max(latest, t.barriers.get(k).enter);
            }
            for (int th = 0; th < team.size(); th++) {
                Barrier b = team.get(th).barriers.get(k);
                add(b.explicit ? "omp_ebarrier_wait" : "omp_ibarrier_wait", b.path, rank, th, latest - b.enter);
            }
        }
    }

    private void locks(int rank, List<Thread> team) {
        Map<String, Long> released = new HashMap<>();
        team.forEach(t -> released.putAll(t.releases));
        for (int th = 0; th < team.size(); th++) {
            for (Acquire a : team.get(th).acquires) {
                Long previous = released.get(a.lock + ":" + (a.order - 1));
                if (a.order <= 1 || previous == null) {
                    continue;
                }
                boolean critical = a.role == RegionRole.CRITICAL || a.role == RegionRole.CRITICAL_SBLOCK;
                add(critical ? "omp_lock_contention_critical" : "omp_lock_contention_api", a.path, rank, th,
                        previous - a.regionEnter);
            }
        }
    }

    private void idle(int rank, List<Thread> team) {
        for (var e : team.get(0).serial.entrySet()) {
            for (int th = 1; th < team.size(); th++) {
                add("omp_idle_threads", e.getKey(), rank, th, e.getValue());
            }
        }
    }
}
