package dev.straggler.trace.otf2;

import dev.straggler.trace.EventBatch;
import dev.straggler.trace.LocationReader;
import dev.straggler.trace.TraceFormatException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Streams one location's event file chunk by chunk: each {@link #next} decodes the following chunk (or chunks,
 * while they hold no model events) into the caller's batch. Checks what a chunked file promises: a header per
 * chunk, consecutive event numbers, as many records per chunk as the header declares, and the end-of-file record
 * at the end; in lenient mode a damaged chunk's rest is dropped and reported, and reading resumes at the next
 * chunk (chunks start at fixed offsets, so one bad record does not spoil the rest of the file).
 */
final class Otf2LocationReader implements LocationReader {
    private final Otf2Archive archive;
    private final int index;
    private final long locationId;
    private final Path path;
    private final boolean lenient;
    private final long declaredEvents;
    private final ChunkedFile file;
    private final EventDecoder decoder;
    private final ByteCursor header;
    private boolean finished;
    private boolean reported;
    private boolean sawEnd;
    private long delivered;
    private long expectedFirst = 1;
    private long lost;

    Otf2LocationReader(Otf2Archive archive, int index, EventDecoder decoder) throws IOException {
        this.archive = archive;
        this.index = index;
        this.locationId = archive.mapping().locationIds[index];
        this.path = archive.eventFile(index);
        this.lenient = archive.options().lenient();
        this.declaredEvents = archive.declaredEvents(index);
        this.decoder = decoder;
        this.header = new ByteCursor(path.toString());
        ChunkedFile f = null;
        if (Files.isRegularFile(path)) {
            f = new ChunkedFile(path, archive.anchor().chunkSizeEvents(),
                    archive.anchor().compression() == Otf2Format.COMPRESSION_ZLIB);
        } else if (declaredEvents != 0) {
            String msg = "event file of location " + Long.toUnsignedString(locationId) + " (rank "
                    + archive.definitionsAtOpen().location(index).rank() + ") does not exist, although "
                    + declaredEvents + " events are declared for it";
            if (!lenient) {
                throw new TraceFormatException(path + ": " + msg);
            }
            archive.warn(new Otf2Warning(path.toString(), locationId, -1, declaredEvents, msg));
            lost = declaredEvents;
            finished = true;
        } else {
            finished = true;
        }
        this.file = f;
    }

    EventDecoder decoder() {
        return decoder;
    }

    long lostEvents() {
        return lost;
    }

    long deliveredEvents() {
        return delivered;
    }

    long locationId() {
        return locationId;
    }

    Path path() {
        return path;
    }

    /** The event records decoded so far, those outside the model included. */
    @Override
    public long recordsRead() {
        return decoder.records();
    }

    @Override
    public boolean next(EventBatch batch) throws IOException {
        batch.clear();
        batch.firstIndex = delivered;
        while (batch.size == 0 && !finished) {
            if (!file.next()) {
                finished = true;
                if (!sawEnd) {
                    truncated(file.size(), "the file ends without its end-of-file record", 0);
                }
                break;
            }
            readChunk(batch);
        }
        delivered += batch.size;
        if (finished && !reported) {
            reported = true;
            checkDeclaredCount();
            archive.locationCompleted(index, this);
        }
        return batch.size > 0;
    }

    /**
     * The whole file read: its record count must be the one the global Location definition declares; an event
     * file copied from another trace or location has intact chunks but the wrong count.
     */
    private void checkDeclaredCount() throws TraceFormatException {
        long read = decoder.records();
        if (!sawEnd || declaredEvents <= 0 || read + lost == declaredEvents) {
            return;
        }
        if (archive.warnings().stream().anyMatch(w -> w.location() == locationId)) {
            return; // damage already reported for this location accounts for the difference
        }
        String msg = "holds " + read + " event records, but the definition of location "
                + Long.toUnsignedString(locationId) + " declares " + declaredEvents
                + " (an event file of another trace or location?)";
        if (!lenient) {
            throw new TraceFormatException(path + ": " + msg);
        }
        archive.warn(new Otf2Warning(path.toString(), locationId, -1, Math.max(0, declaredEvents - read - lost), msg));
    }

    private void readChunk(EventBatch batch) throws IOException {
        byte[] data = file.data();
        header.reset(data, 0, file.length(), file.fileOffset(0));
        long before = decoder.records();
        ChunkHeader h;
        try {
            h = ChunkHeader.read(header);
        } catch (TraceFormatException e) {
            damaged(e, file.fileOffset(0), -1, before);
            return;
        }
        long declared = h.events();
        long first = h.firstEvent();
        if (first != expectedFirst && declared > 0) {
            String msg = "chunk " + file.index() + " starts with event " + first + ", expected " + expectedFirst
                    + " (events missing or duplicated)";
            if (!lenient) {
                throw new TraceFormatException(path + ": byte offset " + file.chunkOffset() + ": " + msg);
            }
            archive.warn(new Otf2Warning(path.toString(), locationId, file.chunkOffset(),
                    Math.max(0, first - expectedFirst), msg));
        }
        if (declared > 0) {
            expectedFirst = first + declared;
        }
        int status;
        try {
            status = decoder.decode(data, Otf2Format.CHUNK_HEADER_SIZE, file.length(), h.little(),
                    batch, file.fileOffset(0));
        } catch (TraceFormatException e) {
            damaged(e, decoder.errorOffset, declared, before);
            return;
        }
        long got = decoder.records() - before;
        if (status == EventDecoder.FILE_END) {
            sawEnd = true;
            finished = true;
        } else if (status == EventDecoder.DATA_END && file.isLast()) {
            truncated(file.size(), "the last chunk ends inside its data, without the end-of-file record",
                    Math.max(0, declared - got));
            finished = true;
            return;
        }
        if (declared > 0 && got != declared) {
            String msg = "chunk " + file.index() + " holds " + got + " event records, its header declares " + declared;
            if (!lenient) {
                throw new TraceFormatException(path + ": byte offset " + file.chunkOffset() + ": " + msg);
            }
            archive.warn(new Otf2Warning(path.toString(), locationId, file.chunkOffset(),
                    Math.max(0, declared - got), msg));
            lost += Math.max(0, declared - got);
        }
    }

    /** A malformed record or header: fatal unless lenient, then the rest of the chunk is dropped. */
    private void damaged(TraceFormatException e, long offset, long declared, long before) throws TraceFormatException {
        if (!lenient) {
            throw e;
        }
        long got = decoder.records() - before;
        long missing = declared > 0 ? Math.max(0, declared - got) : 0;
        String msg = "skipped the rest of chunk " + file.index() + ": " + e.getMessage();
        if (file.isLast()) {
            // nothing follows: whatever the location declares beyond what was read is lost with this chunk
            finished = true;
            if (declaredEvents > 0) {
                missing = Math.max(missing, declaredEvents - decoder.records() - lost);
            }
        }
        lost += missing;
        archive.warn(new Otf2Warning(path.toString(), locationId, offset, missing, msg));
    }

    private void truncated(long offset, String what, long missing) throws TraceFormatException {
        String msg = what + " (truncated?); " + delivered + " events were read";
        if (!lenient) {
            throw new TraceFormatException(path + ": byte offset " + offset + " (location "
                    + Long.toUnsignedString(locationId) + "): " + msg);
        }
        long unknown = Math.max(missing, declaredEvents > 0 ? declaredEvents - decoder.records() - lost : 0);
        lost += unknown;
        archive.warn(new Otf2Warning(path.toString(), locationId, offset, unknown, msg));
    }

    @Override
    public void close() throws IOException {
        if (file != null) {
            file.close();
        }
    }
}
