package dev.straggler.trace.otf2;

import dev.straggler.trace.TraceFormatException;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The anchor file of an OTF2 archive (reference §6.4): format version, chunk sizes, substrate, compression and the
 * creator's description of the run.
 *
 * @param anchorFile           the anchor file this was read from
 * @param archiveName          its name without {@code .otf2}: the archive's definitions are {@code <name>.def}
 *                             and its per-location files live in the directory {@code <name>/}
 * @param chunkSizeEvents      bytes per chunk of event files
 * @param chunkSizeDefinitions bytes per chunk of definition files
 * @param substrate            1 POSIX, 2 SION, 3 NONE
 * @param compression          1 NONE, 2 ZLIB
 * @param properties           the archive's named properties, in file order
 */
public record Otf2Anchor(Path anchorFile, String archiveName, int anchorFormat, int traceFormat,
                         int versionMajor, int versionMinor, int versionBugfix, ByteOrder byteOrder,
                         long chunkSizeEvents, long chunkSizeDefinitions, int substrate, int compression,
                         long numberOfLocations, long numberOfGlobalDefinitions, String machine, String creator,
                         String description, Map<String, String> properties, long traceId, long snapshots,
                         long thumbnails) {

    public Otf2Anchor {
        properties = Collections.unmodifiableMap(new LinkedHashMap<>(properties));
    }

    /** {@code major.minor.bugfix}, as otf2-print shows it. */
    public String version() {
        return versionMajor + "." + versionMinor + "." + versionBugfix;
    }

    public String compressionName() {
        return switch (compression) {
            case Otf2Format.COMPRESSION_NONE -> "NONE";
            case Otf2Format.COMPRESSION_ZLIB -> "ZLIB";
            default -> "UNKNOWN(" + compression + ")";
        };
    }

    public String substrateName() {
        return switch (substrate) {
            case Otf2Format.SUBSTRATE_POSIX -> "POSIX";
            case Otf2Format.SUBSTRATE_SION -> "SION";
            case Otf2Format.SUBSTRATE_NONE -> "NONE";
            default -> "UNKNOWN(" + substrate + ")";
        };
    }

    public Path globalDefinitionFile() {
        return anchorFile.resolveSibling(archiveName + ".def");
    }

    public Path locationDirectory() {
        return anchorFile.resolveSibling(archiveName);
    }

    /** Reads and checks an anchor file. @throws TraceFormatException naming the file and byte offset of a defect */
    public static Otf2Anchor read(Path anchorFile) throws IOException {
        byte[] b;
        try {
            b = Files.readAllBytes(anchorFile);
        } catch (NoSuchFileException e) {
            throw new TraceFormatException(anchorFile + ": OTF2 anchor file does not exist");
        }
        String file = anchorFile.toString();
        ByteCursor c = new ByteCursor(file);
        c.reset(b, 0, b.length, 0);
        if (b.length < 2 || (b[0] & 0xFF) != Otf2Format.CHUNK_HEADER) {
            throw new TraceFormatException(file + ": byte offset 0: not an OTF2 anchor file (it does not start with"
                    + " an OTF2 buffer header" + (b.length == 0 ? "; the file is empty)" : ")"));
        }
        c.pos = 1;
        int order = c.u8();
        if (order != Otf2Format.LITTLE_ENDIAN_MARK && order != Otf2Format.BIG_ENDIAN_MARK) {
            throw new TraceFormatException(file + ": byte offset 1: invalid byte-order mark 0x"
                    + Integer.toHexString(order) + " (expected 0x42 or 0x23)");
        }
        c.little = order == Otf2Format.LITTLE_ENDIAN_MARK;
        int magicAt = c.pos;
        String magic;
        try {
            magic = c.string();
        } catch (TraceFormatException e) {
            magic = null;
        }
        if (!"OTF2".equals(magic)) {
            throw new TraceFormatException(file + ": byte offset " + magicAt + ": wrong magic, expected \"OTF2\"");
        }
        int anchorFormat = c.u8();
        int traceFormat = c.u8();
        int major = c.u8();
        int minor = c.u8();
        int bugfix = c.u8();
        long chunkEvents = c.u64Fixed();
        long chunkDefs = c.u64Fixed();
        int substrate = c.u8();
        int compression = c.u8();
        long locations = c.u64Fixed();
        long globalDefs = c.u64Fixed();
        String machine = c.string();
        String creator = c.string();
        String description = c.string();
        Map<String, String> props = new LinkedHashMap<>();
        long traceId = 0;
        if (anchorFormat >= 2) {
            long n = c.u32Fixed() & 0xFFFF_FFFFL;
            for (long i = 0; i < n; i++) {
                String name = c.string();
                props.put(name, c.string());
            }
            traceId = c.u64Fixed();
        }
        long snapshots = 0;
        long thumbnails = 0;
        if (anchorFormat >= 3) {
            snapshots = c.u32Fixed() & 0xFFFF_FFFFL;
            thumbnails = c.u32Fixed() & 0xFFFF_FFFFL;
        }
        int end = c.u8();
        if (end != Otf2Format.END_OF_FILE) {
            c.pos--;
            throw c.error("anchor file does not end with the end-of-file record (found byte " + end
                    + "); it is corrupt or was written by an unsupported OTF2 version (anchor format " + anchorFormat + ")");
        }
        if (chunkEvents < 64 || chunkEvents > (1 << 30) || chunkDefs < 64 || chunkDefs > (1 << 30)) {
            throw new TraceFormatException(file + ": byte offset 12: implausible chunk sizes " + chunkEvents
                    + " (events) and " + chunkDefs + " (definitions)");
        }
        if (substrate == Otf2Format.SUBSTRATE_SION) {
            throw new TraceFormatException(file + ": the archive uses the SION file substrate (location files packed"
                    + " into SIONlib containers), which Straggler does not support; re-record it with"
                    + " SCOREP_TRACING_USE_SION=false or convert it to the POSIX substrate");
        }
        if (substrate != Otf2Format.SUBSTRATE_POSIX) {
            throw new TraceFormatException(file + ": unsupported file substrate " + substrate
                    + " (only POSIX archives can be read)");
        }
        if (compression != Otf2Format.COMPRESSION_NONE && compression != Otf2Format.COMPRESSION_ZLIB) {
            throw new TraceFormatException(file + ": unknown compression " + compression);
        }
        String fileName = anchorFile.getFileName().toString();
        String archive = fileName.endsWith(".otf2") ? fileName.substring(0, fileName.length() - 5) : fileName;
        return new Otf2Anchor(anchorFile, archive, anchorFormat, traceFormat, major, minor, bugfix,
                c.little ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN, chunkEvents, chunkDefs, substrate,
                compression, locations, globalDefs, machine, creator, description, props, traceId, snapshots,
                thumbnails);
    }
}
