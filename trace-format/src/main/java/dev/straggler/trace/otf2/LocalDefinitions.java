package dev.straggler.trace.otf2;

import dev.straggler.trace.TraceFormatException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a location's local definition file {@code <archive>/<id>.def} says about its event stream (reference §6.8):
 * the mapping tables from the location's local ids to global ids, and its clock correction. Other local
 * definitions are counted (readers of unified archives, the C library's included, do not use them).
 *
 * @param maps       by OTF2 mapping type ({@code OTF2_MappingType}); null where the location has no table
 * @param clock      null when the location defines fewer than two clock offsets
 * @param counts     local definition records by name
 */
record LocalDefinitions(IdMap[] maps, ClockCorrection clock, int clockOffsets, Map<String, Long> counts) {

    static final LocalDefinitions NONE = new LocalDefinitions(new IdMap[Otf2Format.MAPPING_TYPES], null, 0, Map.of());

    IdMap map(int mappingType) {
        return maps[mappingType];
    }

    /** Reads a local definition file; an absent file means no tables and no offsets. */
    static LocalDefinitions read(Path file, Otf2Anchor anchor) throws IOException {
        if (!Files.exists(file)) {
            return NONE;
        }
        IdMap[] maps = new IdMap[Otf2Format.MAPPING_TYPES];
        long[] times = new long[4];
        long[] offsets = new long[4];
        int n = 0;
        Map<String, Long> counts = new LinkedHashMap<>();
        ByteCursor c = new ByteCursor(file.toString());
        boolean ended = false;
        try (ChunkedFile f = new ChunkedFile(file, anchor.chunkSizeDefinitions(),
                anchor.compression() == Otf2Format.COMPRESSION_ZLIB)) {
            while (!ended && f.next()) {
                c.reset(f.data(), 0, f.length(), f.fileOffset(0));
                ChunkHeader.read(c);
                while (c.pos < c.limit) {
                    int type = c.u8();
                    if (type == Otf2Format.END_OF_CHUNK || type == Otf2Format.END_OF_BUFFER) {
                        break;
                    }
                    if (type == Otf2Format.END_OF_FILE) {
                        ended = true;
                        break;
                    }
                    if (type < Otf2Format.DEF_MAPPING_TABLE) {
                        c.pos--;
                        throw c.error("invalid local definition record type " + type);
                    }
                    int end = c.recordEnd();
                    int limit = c.limit;
                    c.limit = end;
                    if (type == Otf2Format.DEF_MAPPING_TABLE) {
                        int mappingType = c.u8();
                        IdMap map = readIdMap(c, end);
                        if (mappingType < maps.length) {
                            maps[mappingType] = map;
                        }
                    } else if (type == Otf2Format.DEF_CLOCK_OFFSET) {
                        long time = c.u64Fixed();
                        long offset = c.i64c();
                        c.f64();
                        if (n > 0 && Long.compareUnsigned(time, times[n - 1]) <= 0) {
                            throw new TraceFormatException(file + ": byte offset " + c.offset()
                                    + ": clock offsets are not in increasing time order (" + time + " after "
                                    + times[n - 1] + ")");
                        }
                        if (n == times.length) {
                            times = Arrays.copyOf(times, n * 2);
                            offsets = Arrays.copyOf(offsets, n * 2);
                        }
                        times[n] = time;
                        offsets[n++] = offset;
                    }
                    c.limit = limit;
                    c.pos = end;
                    counts.merge(Otf2Format.localDefinitionName(type), 1L, Long::sum);
                }
            }
            if (!ended) {
                throw new TraceFormatException(file + ": byte offset " + f.size()
                        + ": the file ends without its end-of-file record (truncated)");
            }
        }
        return new LocalDefinitions(maps, ClockCorrection.of(Arrays.copyOf(times, n), Arrays.copyOf(offsets, n)), n,
                counts);
    }

    /** IdMap: uint64 entry count, uint8 mode (0 dense, 1 sparse), then globals or (local, global) pairs. */
    private static IdMap readIdMap(ByteCursor c, int end) throws TraceFormatException {
        long size = c.u64c();
        int mode = c.u8();
        long perEntry = mode == 1 ? 2 : 1;
        if (size < 0 || size * perEntry > end - c.pos) {
            throw c.error("mapping table declares " + size + " entries but the record holds at most "
                    + (end - c.pos) / perEntry);
        }
        int n = (int) size;
        if (mode == 0) {
            long[] g = new long[n];
            for (int i = 0; i < n; i++) {
                g[i] = c.u64c();
            }
            return IdMap.dense(g);
        }
        if (mode != 1) {
            throw c.error("unknown mapping table mode " + mode);
        }
        long[] l = new long[n];
        long[] g = new long[n];
        for (int i = 0; i < n; i++) {
            l[i] = c.u64c();
            g[i] = c.u64c();
        }
        return IdMap.sparse(l, g);
    }
}
