package dev.straggler.trace.otf2;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Finds the program name of an archive in the ProgramBegin record (OTF2 2.0; Score-P writes it first on every
 * process) of the location with the smallest id, reading only the first records of its first chunk. Failing
 * quietly is right here: the name only labels the experiment, and the event reader reports any damage itself.
 */
final class ProgramNamePeek {
    private static final int MAX_RECORDS = 64;

    private ProgramNamePeek() {
    }

    static String find(Otf2Anchor anchor, Otf2Definitions d) {
        long first = -1;
        for (Otf2Definitions.Location l : d.locations()) {
            if (first == -1 || Long.compareUnsigned(l.id(), first) < 0) {
                first = l.id();
            }
        }
        if (first == -1) {
            return null;
        }
        Path dir = anchor.locationDirectory();
        Path evt = dir.resolve(Long.toUnsignedString(first) + ".evt");
        if (!Files.isRegularFile(evt)) {
            return null;
        }
        try (ChunkedFile f = new ChunkedFile(evt, anchor.chunkSizeEvents(),
                anchor.compression() == Otf2Format.COMPRESSION_ZLIB)) {
            if (!f.next()) {
                return null;
            }
            ByteCursor c = new ByteCursor(evt.toString());
            c.reset(f.data(), 0, f.length(), 0);
            ChunkHeader.read(c);
            for (int i = 0; i < MAX_RECORDS && c.pos < c.limit; i++) {
                int type = c.u8();
                if (type == Otf2Format.TIMESTAMP) {
                    c.skip(8);
                } else if (type < Otf2Format.EVT_BUFFER_FLUSH && type != Otf2Format.ATTRIBUTE_LIST) {
                    return null;
                } else if (Otf2Format.hasNoLength(type)) {
                    c.u64c();
                } else {
                    int end = c.recordEnd();
                    if (type == Otf2Format.EVT_PROGRAM_BEGIN) {
                        long local = c.u32c() & 0xFFFF_FFFFL;
                        IdMap strings = LocalDefinitions.read(dir.resolve(Long.toUnsignedString(first) + ".def"),
                                anchor).map(Otf2Format.MAPPING_STRING);
                        long global = strings == null ? local : strings.map(local);
                        return d.string((int) global);
                    }
                    c.pos = end;
                }
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        return null;
    }
}
