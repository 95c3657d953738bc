package dev.straggler.trace.otf2;

import dev.straggler.trace.EventBatch;
import dev.straggler.trace.Location;
import dev.straggler.trace.LocationReader;
import dev.straggler.trace.TraceDefinitions;
import dev.straggler.trace.TraceFormatException;
import dev.straggler.trace.TraceSource;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

/**
 * An OTF2 archive read in pure Java (reference §6): the anchor file, the global definitions and, per location,
 * the local definitions (mapping tables, clock offsets) and the event file.
 *
 * <p>{@link #open} reads the anchor and the global definitions only. {@link #openLocation(int)} streams a
 * location's events chunk by chunk into {@link EventBatch}es, with references translated to the model's dense ids
 * and timestamps clock-corrected (raw ticks otherwise); locations decode independently, so callers read them in
 * parallel. Event records outside Straggler's model are read past and counted by record name: once every
 * location has been read to its end (or after {@link #scanStatistics()}), {@link #definitions()} carries those counts
 * in {@code skippedRecords} and each location's delivered event count in {@code events}; before that, counts
 * cover only the locations read completely and unread locations declare {@code events = -1}.
 *
 * <p>Thread-safe: {@link #openLocation} may be called concurrently for different locations.
 */
public final class Otf2Archive implements TraceSource {
    private final Otf2Anchor anchor;
    private final Otf2Options options;
    private final ModelMapping mapping;
    private final List<Otf2Warning> warnings = Collections.synchronizedList(new ArrayList<>());
    private final LocationTallies tallies;
    private TraceDefinitions cached;
    private int cachedAt = -1;

    private Otf2Archive(Otf2Anchor anchor, Otf2Options options, ModelMapping mapping) {
        this.anchor = anchor;
        this.options = options;
        this.mapping = mapping;
        this.tallies = new LocationTallies(mapping.locationIds.length);
    }

    /** Opens an archive by its anchor file (any name) or by the directory holding it, reading strictly. */
    public static Otf2Archive open(Path anchorFileOrDirectory) throws IOException {
        return open(anchorFileOrDirectory, Otf2Options.strict());
    }

    /**
     * Opens an archive by its anchor file (any name ending in {@code .otf2}) or by the directory holding it (which
     * must contain one anchor, or {@code traces.otf2} among several).
     *
     * @throws TraceFormatException when the anchor or the global definitions are missing, truncated or corrupt,
     *                              or the archive uses the unsupported SION substrate
     */
    public static Otf2Archive open(Path anchorFileOrDirectory, Otf2Options options) throws IOException {
        Path anchorFile = resolveAnchor(anchorFileOrDirectory);
        Otf2Anchor anchor = Otf2Anchor.read(anchorFile);
        Otf2Definitions otf2 = GlobalDefinitionsReader.read(anchor);
        List<Otf2Warning> early = new ArrayList<>();
        String app = applicationName(anchor, otf2);
        ModelMapping mapping = new ModelMapping(anchor, otf2, app, options.lenient(), early::add);
        Otf2Archive a = new Otf2Archive(anchor, options, mapping);
        a.warnings.addAll(early);
        return a;
    }

    /** The anchor file an archive path stands for: the path itself, or the one anchor in a directory. */
    public static Path resolveAnchor(Path p) throws IOException {
        if (Files.isRegularFile(p)) {
            return p;
        }
        if (!Files.isDirectory(p)) {
            throw new TraceFormatException(p + ": no such OTF2 anchor file or archive directory");
        }
        List<Path> anchors;
        try (Stream<Path> s = Files.list(p)) {
            anchors = s.filter(f -> f.getFileName().toString().endsWith(".otf2") && Files.isRegularFile(f))
                    .sorted().toList();
        }
        if (anchors.size() == 1) {
            return anchors.get(0);
        }
        for (Path a : anchors) {
            if (a.getFileName().toString().equals("traces.otf2")) {
                return a;
            }
        }
        throw new TraceFormatException(p + ": " + (anchors.isEmpty() ? "the directory holds no OTF2 anchor file"
                + " (*.otf2)" : "the directory holds several OTF2 anchor files " + anchors + "; name one"));
    }

    /** Whether a path looks like an OTF2 archive: an anchor file (by its magic) or a directory holding one. */
    public static boolean isOtf2(Path p) {
        try {
            Path a = resolveAnchor(p);
            byte[] head = new byte[7];
            try (InputStream in = Files.newInputStream(a)) {
                if (in.readNBytes(head, 0, 7) < 7) {
                    return false;
                }
            }
            return head[0] == Otf2Format.CHUNK_HEADER
                    && (head[1] == Otf2Format.LITTLE_ENDIAN_MARK || head[1] == Otf2Format.BIG_ENDIAN_MARK)
                    && head[2] == 'O' && head[3] == 'T' && head[4] == 'F' && head[5] == '2' && head[6] == 0;
        } catch (IOException e) {
            return false;
        }
    }

    public Otf2Anchor anchor() {
        return anchor;
    }

    public Otf2Options options() {
        return options;
    }

    /** The global definitions as OTF2 states them (callpaths, callsites, attributes, groups, ...). */
    public Otf2Definitions otf2Definitions() {
        return mapping.otf2;
    }

    ModelMapping mapping() {
        return mapping;
    }

    TraceDefinitions definitionsAtOpen() {
        return mapping.definitions;
    }

    /** OTF2 id of a location, by its index in {@code definitions().locations()}. */
    public long locationId(int location) {
        return mapping.locationIds[location];
    }

    /** Event records the writer declared for a location (all record types). */
    public long declaredEvents(int location) {
        return mapping.declaredEvents[location];
    }

    public Path eventFile(int location) {
        return anchor.locationDirectory().resolve(Long.toUnsignedString(mapping.locationIds[location]) + ".evt");
    }

    public Path localDefinitionFile(int location) {
        return anchor.locationDirectory().resolve(Long.toUnsignedString(mapping.locationIds[location]) + ".def");
    }

    /** What was skipped or could not be represented so far (grows as locations are read). */
    public List<Otf2Warning> warnings() {
        synchronized (warnings) {
            return List.copyOf(warnings);
        }
    }

    @Override
    public List<String> partialReasons() {
        return partialReasons(warnings());
    }

    /**
     * Why a lenient read of an archive is partial, from its warnings (distinct), also for an engine that gathered them
     * from reads on several machines.
     */
    public static List<String> partialReasons(List<Otf2Warning> w) {
        List<String> out = new ArrayList<>();
        List<Otf2Warning> damaged = w.stream().filter(x -> !x.outsideModel()).toList();
        if (!damaged.isEmpty()) {
            long lost = damaged.stream().mapToLong(Otf2Warning::eventsLost).sum();
            out.add(String.format(java.util.Locale.ROOT, "--lenient skipped %d damaged part(s) of the archive, "
                    + "%,d event record(s) lost (listed on stderr)", damaged.size(), lost));
        }
        long outside = w.size() - damaged.size();
        if (outside > 0) {
            out.add(String.format(java.util.Locale.ROOT, "%d part(s) of the archive lie outside Straggler's model and"
                    + " are not analysed (listed on stderr)", outside));
        }
        return out;
    }

    /** Adds a warning once: reading a location again reports the same defects again. */
    void warn(Otf2Warning w) {
        synchronized (warnings) {
            if (!warnings.contains(w)) {
                warnings.add(w);
            }
        }
    }

    @Override
    public synchronized TraceDefinitions definitions() {
        int complete = tallies.complete();
        if (cachedAt == complete) {
            return cached;
        }
        TraceDefinitions d = mapping.definitions;
        List<Location> locs = new ArrayList<>(d.locations().size());
        for (Location l : d.locations()) {
            locs.add(tallies.has(l.index()) ? l.withEvents(tallies.delivered(l.index())) : l);
        }
        cached = d.withLocations(locs).withSkippedRecords(tallies.skipped());
        cachedAt = complete;
        return cached;
    }

    /** True once every location has been read to its end. */
    public boolean fullyRead() {
        return tallies.all();
    }

    @Override
    public String origin() {
        return anchor.anchorFile().toString();
    }

    @Override
    public LocationReader openLocation(int location) throws IOException {
        return newReader(location);
    }

    /** The event records each location's definition declares (OTF2 §6: all record types of its event file). */
    @Override
    public long[] declaredRecords() {
        return mapping.declaredEvents.clone();
    }

    private Otf2LocationReader newReader(int location) throws IOException {
        if (location < 0 || location >= mapping.locationIds.length) {
            throw new IndexOutOfBoundsException("location " + location + " of " + mapping.locationIds.length);
        }
        LocalDefinitions local = localDefinitions(location);
        int rank = mapping.definitions.location(location).rank();
        RefTable regions = RefTable.of(local.map(Otf2Format.MAPPING_REGION), mapping.regionIds, mapping::region);
        RefTable comms = RefTable.of(local.map(Otf2Format.MAPPING_COMM), mapping.otf2CommIds(),
                id -> mapping.comm(id, rank));
        EventDecoder decoder = new EventDecoder(regions, comms, local.clock(), options.lenient(),
                eventFile(location).toString(), mapping.locationIds[location]);
        return new Otf2LocationReader(this, location, decoder);
    }

    /** A reader of the location's events whose decoder also hands its METRIC records to {@code sink}. */
    Otf2LocationReader counterReader(int location, EventDecoder.MetricSink sink) throws IOException {
        Otf2LocationReader r = newReader(location);
        r.decoder().metricSink(sink);
        return r;
    }

    /** The location's mapping of metric references to global ones; null when it has none (references are global). */
    IdMap metricMap(int location) throws IOException {
        return localDefinitions(location).map(Otf2Format.MAPPING_METRIC);
    }

    private LocalDefinitions localDefinitions(int location) throws IOException {
        Path def = localDefinitionFile(location);
        if (Files.exists(def) || !Files.exists(eventFile(location))) {
            try {
                return LocalDefinitions.read(def, anchor);
            } catch (TraceFormatException e) {
                if (!options.lenient()) {
                    throw e.lenientSkips();
                }
                // lenient: a damaged local definition file costs its mapping tables and clock offsets, not the
                // location's events
                warn(new Otf2Warning(def.toString(), mapping.locationIds[location], -1, 0, "unreadable local "
                        + "definitions (" + e.getMessage() + "); its events are read with global ids and without "
                        + "clock correction"));
                return LocalDefinitions.NONE;
            }
        }
        String msg = "the local definition file of location " + Long.toUnsignedString(mapping.locationIds[location])
                + " is missing: its mapping tables and clock offsets are unknown";
        if (!options.lenient()) {
            throw new TraceFormatException(def + ": " + msg).lenientSkips();
        }
        warn(new Otf2Warning(def.toString(), mapping.locationIds[location], -1, 0,
                msg + "; its events are read with global ids and without clock correction"));
        return LocalDefinitions.NONE;
    }

    void locationCompleted(int location, Otf2LocationReader r) {
        EventDecoder d = r.decoder();
        tallies.record(location, d, r.deliveredEvents());
        if (d.dropped > 0) {
            warn(new Otf2Warning(r.path().toString(), r.locationId(), d.firstDropOffset, d.dropped,
                    d.dropped + " events dropped, the first for: " + d.firstDropReason));
        }
    }

    /** Event records by type id of a location read to its end; null before. */
    long[] recordCounts(int location) {
        return tallies.records(location);
    }

    long attributeLists(int location) {
        return tallies.attributeLists(location);
    }

    /**
     * Attribute lists read past (OTF2 attaches them to events; the model keeps no attributes), summed over the
     * locations read to their end.
     */
    public long attributeLists() {
        return tallies.attributeListsTotal();
    }

    /**
     * Counts all event records by type (as otf2-print counts them) and by model kind. Reads every location's event
     * file once, in parallel ({@link Otf2Options#threads()}), unless all have been read to their end already
     * (then it reads nothing). Afterwards {@link #definitions()} is complete.
     *
     * @throws TraceFormatException for the first defect found, unless reading leniently
     */
    public Otf2Statistics scanStatistics() throws IOException {
        int n = mapping.locationIds.length;
        if (!fullyRead()) {
            readAllLocations(n);
        }
        return tallies.statistics(warnings());
    }

    /** Reads every location to its end, in parallel, so that its counts are recorded. */
    private void readAllLocations(int n) throws IOException {
        int threads = Math.max(1, Math.min(options.effectiveThreads(), n));
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "otf2-scan");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int loc = i;
                futures.add(pool.submit(() -> {
                    drain(loc);
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while scanning " + origin(), e);
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof IOException io) {
                throw io;
            }
            if (c instanceof RuntimeException re) {
                throw re;
            }
            throw new IOException(c);
        } finally {
            pool.shutdownNow();
        }
    }

    private void drain(int location) throws IOException {
        EventBatch batch = new EventBatch(4096);
        try (Otf2LocationReader r = newReader(location)) {
            while (r.next(batch)) {
                batch.clear();
            }
        }
    }

    /**
     * The events this source delivers once every location has been read; before that (so as not to read the whole
     * archive for a progress estimate) the event records the writer declared, which also count the records
     * outside the model.
     */
    @Override
    public long eventCount() {
        if (fullyRead()) {
            return tallies.deliveredTotal();
        }
        long s = 0;
        for (long d : mapping.declaredEvents) {
            s += d;
        }
        return s;
    }

    /**
     * Basename of the program the first location's ProgramBegin record names; else the name of the directory that
     * holds the anchor file.
     */
    private static String applicationName(Otf2Anchor anchor, Otf2Definitions d) {
        String fromEvents = ProgramNamePeek.find(anchor, d);
        if (fromEvents != null && !fromEvents.isEmpty()) {
            String base = fromEvents.substring(fromEvents.lastIndexOf('/') + 1);
            return base.isEmpty() ? fromEvents : base;
        }
        Path dir = anchor.anchorFile().toAbsolutePath().getParent();
        return dir == null || dir.getFileName() == null ? anchor.archiveName() : dir.getFileName().toString();
    }

    @Override
    public void close() {
        // readers own their files; nothing is shared
    }
}
