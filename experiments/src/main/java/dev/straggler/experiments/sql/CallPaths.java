package dev.straggler.experiments.sql;

import dev.straggler.replay.CallTree;
import dev.straggler.replay.RegionTable;
import dev.straggler.trace.EventBatch;
import dev.straggler.trace.EventKind;
import dev.straggler.trace.LocationReader;
import dev.straggler.trace.TraceSource;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The call tree of a trace, numbered as the analysis numbers its cube's call paths, built by one streaming pass over
 * the events that keeps only the tree (no event is held). A location's tree is walked by the same rules as the replay
 * ({@code LocationPass}): ENTER/LEAVE, PROGRAM_BEGIN/END as the program region, a BUFFER_FLUSH as a visit of
 * {@code TRACE BUFFER FLUSH}, measurement off/on as {@code MEASUREMENT OFF}, THREAD_BEGIN's {@code THREADS} node; the
 * location trees are merged by {@link CallTree#mergeTrees}, so the ids are the cube's for every trace whose threads
 * do not fork OpenMP teams (worker threads' paths under the master's fork are the replay's alone).
 */
public final class CallPaths {
    private final CallTree tree;
    private final RegionTable regions;
    private final Long2IntOpenHashMap byParentAndRegion = new Long2IntOpenHashMap();

    private CallPaths(CallTree tree, RegionTable regions) {
        this.tree = tree;
        this.regions = regions;
        byParentAndRegion.defaultReturnValue(-1);
        for (int n = 0; n < tree.size(); n++) {
            byParentAndRegion.put(key(tree.parent(n), tree.region(n)), n);
        }
    }

    /** Reads every location once, on {@code threads} threads (a location each at a time), and merges their trees. */
    public static CallPaths of(TraceSource source, RegionTable regions, int threads) throws IOException {
        int n = source.definitions().locations().size();
        CallTree.LocalTree[] trees = new CallTree.LocalTree[n];
        int workers = Math.max(1, Math.min(threads, n));
        if (workers == 1) {
            EventBatch b = new EventBatch(1 << 16);
            for (int l = 0; l < n; l++) {
                trees[l] = localTree(source, regions, l, b);
            }
        } else {
            java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(workers, r -> {
                Thread t = new Thread(r, "straggler-sql-calltree");
                t.setDaemon(true);
                return t;
            });
            try {
                java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();
                List<java.util.concurrent.Future<?>> parts = new ArrayList<>();
                for (int w = 0; w < workers; w++) {
                    parts.add(pool.submit(() -> {
                        EventBatch b = new EventBatch(1 << 16);
                        for (int l; (l = next.getAndIncrement()) < n; ) {
                            trees[l] = localTree(source, regions, l, b);
                        }
                        return null;
                    }));
                }
                for (java.util.concurrent.Future<?> f : parts) {
                    f.get();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while building the call tree", e);
            } catch (java.util.concurrent.ExecutionException e) {
                if (e.getCause() instanceof IOException io) {
                    throw io;
                }
                if (e.getCause() instanceof RuntimeException re) {
                    throw re;
                }
                throw new IOException(e.getCause());
            } finally {
                pool.shutdownNow();
            }
        }
        // merged in location order, whichever thread read which: the numbering is the analysis' (CallTree.mergeTrees)
        return new CallPaths(CallTree.mergeTrees(java.util.Arrays.asList(trees)).tree(), regions);
    }

    private static CallTree.LocalTree localTree(TraceSource source, RegionTable regions, int l, EventBatch b)
            throws IOException {
        LocalBuilder local = new LocalBuilder();
        Walker w = new Walker(regions, local::child);
        try (LocationReader r = source.openLocation(l)) {
            while (r.next(b)) {
                for (int i = 0; i < b.size; i++) {
                    w.step(b.kind[i], b.ref[i]);
                }
            }
        }
        return new CallTree.LocalTree(local.parent.toIntArray(), local.region.toIntArray());
    }

    public CallTree tree() {
        return tree;
    }

    public RegionTable regions() {
        return regions;
    }

    public int size() {
        return tree.size();
    }

    /** The call path that is {@code region} called from {@code parent} (-1: a root), -1 when the tree has none. */
    public int child(int parent, int region) {
        return byParentAndRegion.get(key(parent, region));
    }

    /** Region names from the root, joined by '/' as every report writes a call path. */
    public String path(int node) {
        StringBuilder sb = new StringBuilder();
        List<String> names = new ArrayList<>();
        for (int c = node; c >= 0; c = tree.parent(c)) {
            names.add(regions.region(tree.region(c)).name());
        }
        for (int i = names.size() - 1; i >= 0; i--) {
            sb.append(names.get(i));
            if (i > 0) {
                sb.append('/');
            }
        }
        return sb.toString();
    }

    static long key(int parent, int region) {
        return ((long) (parent + 1) << 32) | (region & 0xffffffffL);
    }

    /** A location's tree in creation order, as the replay's LocationProfile numbers it. */
    private static final class LocalBuilder {
        final IntArrayList parent = new IntArrayList();
        final IntArrayList region = new IntArrayList();
        final Long2IntOpenHashMap index = new Long2IntOpenHashMap();

        LocalBuilder() {
            index.defaultReturnValue(-1);
        }

        int child(int p, int r) {
            long k = key(p, r);
            int n = index.get(k);
            if (n < 0) {
                n = parent.size();
                parent.add(p);
                region.add(r);
                index.put(k, n);
            }
            return n;
        }
    }

    /** Finds (or creates) the child call path of a parent for a region. */
    interface Children {
        int child(int parent, int region);
    }

    /**
     * Walks one location's events, keeping the stack of open call paths. After {@link #step}, {@link #callPath} is
     * the event's call path (ENTER: the one entered; LEAVE: the one left; any other event: the innermost open one,
     * -1 outside every region) and {@link #region} its region for ENTER/LEAVE-like events, else -1.
     */
    static final class Walker {
        private final RegionTable regions;
        private final Children children;
        private int[] stackNode = new int[64];
        private int[] stackRegion = new int[64];
        private int depth;
        private int threadRoot = -1;
        int callPath;
        int region;

        Walker(RegionTable regions, Children children) {
            this.regions = regions;
            this.children = children;
        }

        void step(byte kind, int ref) {
            switch (kind) {
                case EventKind.ENTER_CODE -> enter(ref);
                case EventKind.LEAVE_CODE -> leave(ref);
                case EventKind.PROGRAM_BEGIN_CODE -> enter(regions.programRegion());
                case EventKind.PROGRAM_END_CODE -> leave(regions.programRegion());
                case EventKind.BUFFER_FLUSH_CODE -> {
                    // a visit of TRACE BUFFER FLUSH lasting until its stop time, as the replay books it
                    region = regions.flushRegion();
                    callPath = children.child(parent(), region);
                }
                case EventKind.MEASUREMENT_ON_OFF_CODE -> {
                    if (ref == 2) {
                        enter(regions.pauseRegion());
                    } else if (depth > 0 && stackRegion[depth - 1] == regions.pauseRegion()) {
                        leave(regions.pauseRegion());
                    } else {
                        current();
                    }
                }
                case EventKind.THREAD_BEGIN_CODE -> {
                    int threads = regions.threadsRegion();
                    if (threads >= 0 && depth == 0) {
                        threadRoot = children.child(children.child(-1, regions.programRegion()), threads);
                    }
                    current();
                }
                default -> current();
            }
        }

        private int parent() {
            return depth == 0 ? threadRoot : stackNode[depth - 1];
        }

        private void current() {
            region = -1;
            callPath = depth == 0 ? -1 : stackNode[depth - 1];
        }

        private void enter(int r) {
            int node = children.child(parent(), r);
            if (depth == stackNode.length) {
                stackNode = java.util.Arrays.copyOf(stackNode, depth * 2);
                stackRegion = java.util.Arrays.copyOf(stackRegion, depth * 2);
            }
            stackNode[depth] = node;
            stackRegion[depth] = r;
            depth++;
            region = r;
            callPath = node;
        }

        private void leave(int r) {
            region = r;
            // a LEAVE without an open region belongs to no call path (the replay counts it as an anomaly)
            callPath = depth == 0 ? -1 : stackNode[--depth];
        }
    }
}
