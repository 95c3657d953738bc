package dev.straggler.trace.otf2;

import dev.straggler.trace.EventBatch;
import dev.straggler.trace.Location;
import dev.straggler.trace.Region;
import dev.straggler.trace.RegionRole;
import dev.straggler.trace.TraceDefinitions;
import dev.straggler.trace.TraceWriter;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Writes a trace as an OTF2 3.0 archive (POSIX substrate, uncompressed, chunked; reference §6): anchor file, global
 * definitions, and per location an event file and an (empty) local definition file.
 *
 * <p>The model's dense ids become the OTF2 ids: region {@code i} is OTF2 region {@code i}, communicator {@code c}
 * is OTF2 communicator {@code c}, rank {@code r} is location group {@code r}; locations keep their
 * {@link Location#id()}. Ranks resolve as Score-P lays them out: an MPI {@code COMM_LOCATIONS} group lists each
 * rank's master thread in rank order and every communicator is a {@code COMM_GROUP} of global ranks. Timestamps
 * are written as they are (already corrected), so no clock offsets are written. PROGRAM_BEGIN records name the
 * program region, defined as Score-P defines it ({@link ProgramRegion}), and OpenMP thread teams get Score-P's
 * definitions and THREAD_TEAM_BEGIN/END records around every parallel region ({@link ThreadTeams}), which the model
 * does not carry but Scalasca's reader needs.
 *
 * <p>Events arrive before definitions ({@link TraceWriter}), so a location's events go to a temporary file that
 * {@link #finish} renames once the location's OTF2 id is known (copying the threads of OpenMP teams, with the team
 * records added). {@link #append} may be called concurrently for different locations.
 */
public final class Otf2Writer implements TraceWriter {
    private final Path anchorFile;
    private final Path locationDir;
    private final Otf2WriterOptions options;
    private final Map<Integer, EventEncoder> encoders = new ConcurrentHashMap<>();
    private boolean finished;

    /**
     * @param anchorFileOrDirectory the anchor file to write ({@code <name>.otf2}), or a directory that receives
     *                              {@code traces.otf2}; the archive's other files go beside the anchor
     */
    public Otf2Writer(Path anchorFileOrDirectory, Otf2WriterOptions options) throws IOException {
        Path anchor = anchorFileOrDirectory.getFileName().toString().endsWith(".otf2") ? anchorFileOrDirectory
                : anchorFileOrDirectory.resolve("traces.otf2");
        if (anchor.getParent() != null) {
            Files.createDirectories(anchor.getParent());
        }
        String name = anchor.getFileName().toString();
        this.anchorFile = anchor;
        this.locationDir = anchor.resolveSibling(name.substring(0, name.length() - 5));
        this.options = options;
        Files.createDirectories(locationDir);
    }

    public Otf2Writer(Path anchorFileOrDirectory) throws IOException {
        this(anchorFileOrDirectory, Otf2WriterOptions.defaults());
    }

    public Path anchorFile() {
        return anchorFile;
    }

    @Override
    public void append(int location, EventBatch batch) throws IOException {
        if (finished) {
            throw new IllegalStateException("archive already finished");
        }
        EventEncoder e = encoders.computeIfAbsent(location, l -> new EventEncoder(partFile(l), options));
        synchronized (e) {
            e.write(batch);
        }
    }

    private Path partFile(int location) {
        return locationDir.resolve("." + location + ".evt.part");
    }

    @Override
    public void finish(TraceDefinitions d) throws IOException {
        if (finished) {
            throw new IllegalStateException("archive already finished");
        }
        finished = true;
        for (Integer l : encoders.keySet()) {
            if (l < 0 || l >= d.locations().size()) {
                throw new IllegalArgumentException("events were written for location " + l + " but only "
                        + d.locations().size() + " locations are defined");
            }
        }
        int[][] forks = new int[d.locations().size()][];
        boolean programBegin = false;
        for (Map.Entry<Integer, EventEncoder> e : encoders.entrySet()) {
            forks[e.getKey()] = e.getValue().ompForks();
            programBegin |= e.getValue().wroteProgramBegin();
        }
        ThreadTeams teams = ThreadTeams.of(d, forks);
        boolean[] parallel = new boolean[d.regions().size()];
        for (Region r : d.regions()) {
            parallel[r.id()] = r.role() == RegionRole.PARALLEL;
        }
        long[] events = new long[d.locations().size()];
        for (Location l : d.locations()) {
            EventEncoder e = encoders.get(l.index());
            Path evt = locationDir.resolve(Long.toUnsignedString(l.id()) + ".evt");
            if (e == null) {
                e = new EventEncoder(evt, options);
            }
            e.close();
            if (!e.file.equals(evt) && teams.hasTeams(l)) {
                // the team records go in by a second pass: which regions are parallel regions and which locations
                // are a rank's threads is known only now
                EventEncoder withTeams = new EventEncoder(evt, options);
                try {
                    teams.copy(l, e.file, options.chunkSizeEvents(), parallel, withTeams);
                } finally {
                    withTeams.close();
                }
                Files.delete(e.file);
                e = withTeams;
            }
            events[l.index()] = e.events();
            if (!e.file.equals(evt)) {
                Files.move(e.file, evt, StandardCopyOption.REPLACE_EXISTING);
            }
            // local definitions without records: no mapping tables (ids are global) and no clock offsets (times are
            // already corrected)
            new ChunkWriter(locationDir.resolve(Long.toUnsignedString(l.id()) + ".def"),
                    (int) options.chunkSizeDefinitions(), options.byteOrder()).close();
        }
        ProgramRegion program = ProgramRegion.of(d, programBegin);
        long definitions = GlobalDefinitionsWriter.write(anchorFile.resolveSibling(archiveName() + ".def"), d, events,
                options, program.name(), program.added(), teams);
        writeAnchor(d, definitions);
    }

    private String archiveName() {
        String name = anchorFile.getFileName().toString();
        return name.substring(0, name.length() - 5);
    }

    private void writeAnchor(TraceDefinitions d, long definitions) throws IOException {
        RecordBuffer a = new RecordBuffer(512, options.byteOrder());
        a.u8(Otf2Format.CHUNK_HEADER);
        a.u8(a.little ? Otf2Format.LITTLE_ENDIAN_MARK : Otf2Format.BIG_ENDIAN_MARK);
        a.string("OTF2");
        a.u8(3); // anchor format
        a.u8(2); // trace format
        a.u8(3);
        a.u8(0);
        a.u8(0);
        a.u64Fixed(options.chunkSizeEvents());
        a.u64Fixed(options.chunkSizeDefinitions());
        a.u8(Otf2Format.SUBSTRATE_POSIX);
        a.u8(Otf2Format.COMPRESSION_NONE);
        a.u64Fixed(d.locations().size());
        a.u64Fixed(definitions);
        a.string(options.machine());
        a.string(options.creator());
        a.string(options.description());
        a.u32Fixed(0); // properties
        a.u64Fixed(traceId(d));
        a.u32Fixed(0); // snapshots
        a.u32Fixed(0); // thumbnails
        a.u8(Otf2Format.END_OF_FILE);
        a.u8(Otf2Format.END_OF_BUFFER);
        Files.write(anchorFile, java.util.Arrays.copyOf(a.buf, a.pos));
    }

    private static long traceId(TraceDefinitions d) {
        long h = 1125899906842597L;
        for (Location l : d.locations()) {
            h = 31 * h + l.id();
        }
        return 31 * h + d.clock().globalOffset();
    }

    @Override
    public void close() throws IOException {
        IOException first = null;
        for (EventEncoder e : encoders.values()) {
            try {
                e.close();
            } catch (IOException x) {
                first = first == null ? x : first;
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
