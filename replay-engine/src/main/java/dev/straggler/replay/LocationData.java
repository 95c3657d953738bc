package dev.straggler.replay;

import java.util.EnumMap;
import java.util.Map;

/**
 * What the replay keeps of one location once its event stream has been read: its call-path profile and its
 * communication records. ENTER/LEAVE events are not kept; only these records cross locations.
 *
 * <p>Call paths in the records and the profile are the location's local node ids; {@link #globalCallPath(int)}
 * maps them to the unified call tree once {@link Replay} has merged the trees. Immutable after the replay.
 */
public final class LocationData implements java.io.Serializable {
    private final int location;
    private final int rank;
    private final int thread;
    private final LocationProfile profile;
    private SendTable sends;
    private RecvTable receives;
    private final CollectiveTable collectives;
    /** Final once the replay returns; the replay drops it when the marks would not fit ({@link MarkBudget}). */
    private CallPathIntervals intervals;
    private final ThreadRecords threads;
    private final long events;
    private final long[] anomalies;
    private final long firstTime;
    private final long lastTime;
    final long initEnter;
    final long initLeave;
    final int initCallPath;
    final long finalizeEnter;
    final long finalizeLeave;
    final int finalizeCallPath;
    private int[] localToGlobal;

    LocationData(int location, int rank, int thread, LocationProfile profile, SendTable sends, RecvTable receives,
                 CollectiveTable collectives, CallPathIntervals intervals, ThreadRecords threads, long events,
                 long[] anomalies, long firstTime, long lastTime,
                 long initEnter, long initLeave, int initCallPath,
                 long finalizeEnter, long finalizeLeave, int finalizeCallPath) {
        this.location = location;
        this.rank = rank;
        this.thread = thread;
        this.profile = profile;
        this.sends = sends;
        this.receives = receives;
        this.collectives = collectives;
        this.intervals = intervals;
        this.threads = threads;
        this.events = events;
        this.anomalies = anomalies;
        this.firstTime = firstTime;
        this.lastTime = lastTime;
        this.initEnter = initEnter;
        this.initLeave = initLeave;
        this.initCallPath = initCallPath;
        this.finalizeEnter = finalizeEnter;
        this.finalizeLeave = finalizeLeave;
        this.finalizeCallPath = finalizeCallPath;
    }

    public int location() {
        return location;
    }

    public int rank() {
        return rank;
    }

    public int thread() {
        return thread;
    }

    public LocationProfile profile() {
        return profile;
    }

    public SendTable sends() {
        return sends;
    }

    public RecvTable receives() {
        return receives;
    }

    public CollectiveTable collectives() {
        return collectives;
    }

    /**
     * The location's communication events and the call-path times between them (root-cause analysis input);
     * null for locations whose MPI records are not analysed (threads other than a rank's master).
     */
    public CallPathIntervals intervals() {
        return intervals;
    }

    /**
     * Keeps only the number of point-to-point sends and receives ({@link SendTable#released}): for an analysis whose
     * remaining steps read no message record (the root-cause stage once its partners know their facts). Not
     * thread-safe with readers of this location's tables.
     */
    public void releaseMessageRecords() {
        sends = sends.released();
        receives = receives.released();
    }

    /**
     * Moves the point-to-point rows to a scratch file ({@link SendTable#spill}); they read the same afterwards. For a
     * replay whose records would otherwise fill the heap ({@link ReplayOptions#recordHeap}).
     */
    public void spillMessageRecords(SpillFile file) {
        sends.spill(file);
        receives.spill(file);
    }

    /** Bytes of point-to-point rows on the heap: not in a scratch file, not released. */
    public long messageRecordHeapBytes() {
        return sends.heapBytes() + receives.heapBytes();
    }

    /**
     * This location as {@link #releaseMessageRecords} leaves it, as a copy: for an engine whose locations are cached
     * and read again by other stages (Spark), which must not see their records go.
     */
    public LocationData withoutMessageRecords() {
        LocationData c = new LocationData(location, rank, thread, profile, sends.released(), receives.released(),
                collectives, intervals, threads, events, anomalies, firstTime, lastTime, initEnter, initLeave,
                initCallPath, finalizeEnter, finalizeLeave, finalizeCallPath);
        c.localToGlobal = localToGlobal;
        return c;
    }

    /** Drops the marks, by a replay that found they would not fit ({@link MarkBudget}). */
    void dropIntervals() {
        intervals = null;
    }

    /** The location's OpenMP constructs (forks, joins, parallel regions, barriers, locks); empty without OpenMP. */
    public ThreadRecords threads() {
        return threads;
    }

    /** Number of events read. */
    public long events() {
        return events;
    }

    /** Timestamp of the first and last event (0 when the stream is empty). */
    public long firstTime() {
        return firstTime;
    }

    public long lastTime() {
        return lastTime;
    }

    public long anomalies(Anomaly a) {
        return anomalies[a.ordinal()];
    }

    public Map<Anomaly, Long> anomalyCounts() {
        Map<Anomaly, Long> m = new EnumMap<>(Anomaly.class);
        for (Anomaly a : Anomaly.values()) {
            if (anomalies[a.ordinal()] != 0) {
                m.put(a, anomalies[a.ordinal()]);
            }
        }
        return m;
    }

    /** True when the location left its first MPI_Init/MPI_Init_thread. */
    public boolean hasInit() {
        return initCallPath >= 0;
    }

    public long initEnter() {
        return initEnter;
    }

    public long initLeave() {
        return initLeave;
    }

    public int initCallPath() {
        return initCallPath;
    }

    public boolean hasFinalize() {
        return finalizeCallPath >= 0;
    }

    public long finalizeEnter() {
        return finalizeEnter;
    }

    public long finalizeLeave() {
        return finalizeLeave;
    }

    public int finalizeCallPath() {
        return finalizeCallPath;
    }

    /**
     * Sets the map from local to unified call-path ids, once the trees are merged ({@link CallTree#merge}). Public
     * for engines that merge the trees elsewhere than where the location was read (a Spark driver).
     */
    public void setLocalToGlobal(int[] map) {
        this.localToGlobal = map;
    }

    /** The unified call-tree id of a local call path. */
    public int globalCallPath(int local) {
        return localToGlobal[local];
    }

    /** Bytes held by the communication records of this location (what crosses locations). */
    public long recordBytes() {
        return (long) sends.size() * SendTable.bytesPerRow() + (long) receives.size() * RecvTable.bytesPerRow()
                + (long) collectives.size() * CollectiveTable.bytesPerRow()
                + (intervals == null ? 0 : intervals.bytes());
    }
}
