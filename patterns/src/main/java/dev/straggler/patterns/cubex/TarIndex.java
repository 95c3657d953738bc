package dev.straggler.patterns.cubex;

import dev.straggler.trace.TraceFormatException;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The members of a tar archive: name to (offset, size). Reads only the headers.
 *
 * <p>Accepts both standard padding and CubeW's extra zero block after members whose size is a multiple of
 * 512 (see {@link TarWriter}) by skipping zero blocks between members instead of treating the first one
 * as the end of the archive. Sizes come from the ustar octal field, GNU base-256 sizes, or a preceding
 * pax {@code size=} record.
 */
final class TarIndex {
    record Member(String name, long offset, long size) {
    }

    private static final int BLOCK = 512;

    private TarIndex() {
    }

    static Map<String, Member> read(FileChannel ch, Path file) throws IOException {
        Map<String, Member> members = new LinkedHashMap<>();
        long length = ch.size();
        long pos = 0;
        long paxSize = -1;
        ByteBuffer h = ByteBuffer.allocate(BLOCK);
        while (pos + BLOCK <= length) {
            h.clear();
            readFully(ch, h, pos, file);
            byte[] b = h.array();
            if (isZero(b)) {
                pos += BLOCK;
                continue;
            }
            verifyChecksum(b, pos, file);
            String name = cString(b, 0, 100);
            String prefix = cString(b, 345, 155);
            if (!prefix.isEmpty() && "ustar".equals(cString(b, 257, 6))) {
                name = prefix + "/" + name;
            }
            long size = paxSize >= 0 ? paxSize : size(b, pos, file);
            paxSize = -1;
            char type = (char) b[156];
            long data = pos + BLOCK;
            if (data + size > length) {
                throw new TraceFormatException(file + ": tar member " + name + " at byte " + pos + " declares "
                        + size + " bytes but the file ends after " + (length - data));
            }
            if (type == 'x') {
                paxSize = paxSize(ch, data, size, file);
            } else if (type == '0' || type == 0) {
                members.put(name, new Member(name, data, size));
            }
            pos = data + (size + BLOCK - 1) / BLOCK * BLOCK;
        }
        return members;
    }

    private static long size(byte[] b, long pos, Path file) throws TraceFormatException {
        if ((b[124] & 0x80) != 0) {
            // GNU base-256: big-endian binary in the remaining 11 bytes
            long v = 0;
            for (int i = 125; i < 136; i++) {
                v = (v << 8) | (b[i] & 0xff);
            }
            return v;
        }
        return octal(b, 124, 12, pos, file);
    }

    private static long paxSize(FileChannel ch, long at, long size, Path file) throws IOException {
        if (size > 1 << 20) {
            throw new TraceFormatException(file + ": pax header at byte " + at + " is implausibly large (" + size + " bytes)");
        }
        ByteBuffer buf = ByteBuffer.allocate((int) size);
        readFully(ch, buf, at, file);
        String text = new String(buf.array(), StandardCharsets.UTF_8);
        for (String line : text.split("\n")) {
            int sp = line.indexOf(' ');
            if (sp > 0 && line.startsWith("size=", sp + 1)) {
                try {
                    return Long.parseLong(line.substring(sp + 6).trim());
                } catch (NumberFormatException e) {
                    throw new TraceFormatException(file + ": bad pax size record '" + line + "' at byte " + at);
                }
            }
        }
        return -1;
    }

    static void readFully(FileChannel ch, ByteBuffer buf, long pos, Path file) throws IOException {
        while (buf.hasRemaining()) {
            int n = ch.read(buf, pos);
            if (n < 0) {
                throw new TraceFormatException(file + ": unexpected end of file at byte " + pos);
            }
            pos += n;
        }
        buf.flip();
    }

    private static boolean isZero(byte[] b) {
        for (byte x : b) {
            if (x != 0) {
                return false;
            }
        }
        return true;
    }

    private static void verifyChecksum(byte[] b, long pos, Path file) throws TraceFormatException {
        long sum = 0;
        for (int i = 0; i < BLOCK; i++) {
            sum += (i >= 148 && i < 156) ? ' ' : (b[i] & 0xff);
        }
        long stored = octal(b, 148, 8, pos, file);
        if (stored != sum) {
            throw new TraceFormatException(file + ": not a tar archive (header checksum mismatch at byte " + pos
                    + ": stored " + stored + ", computed " + sum + ")");
        }
    }

    private static long octal(byte[] b, int at, int len, long pos, Path file) throws TraceFormatException {
        long v = 0;
        int i = at;
        int end = at + len;
        while (i < end && (b[i] == ' ' || b[i] == 0)) {
            i++;
        }
        boolean any = false;
        for (; i < end && b[i] >= '0' && b[i] <= '7'; i++) {
            v = (v << 3) | (b[i] - '0');
            any = true;
        }
        if (!any) {
            throw new TraceFormatException(file + ": not a tar archive (no octal number at header byte "
                    + (pos + at) + ")");
        }
        return v;
    }

    private static String cString(byte[] b, int at, int len) {
        int end = at;
        while (end < at + len && b[end] != 0) {
            end++;
        }
        return new String(b, at, end - at, StandardCharsets.UTF_8);
    }
}
