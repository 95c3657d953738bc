package dev.straggler.patterns.cubex;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Writes a POSIX ustar archive member by member, the container of a {@code .cubex} file (reference §3.1).
 *
 * <p>The caller announces each member's exact size, writes exactly that many bytes with {@link #write},
 * then calls {@link #endMember()}; members are streamed, never held in memory.
 *
 * <p>Padding follows CubeW's rule, {@code (size / 512 + 1) * 512 - size} zero bytes: a member whose size
 * is a multiple of 512 gets one extra zero block. CubeLib's tar reader ({@code CubeTarReader.cpp},
 * {@code calculate_pos_of_next_header}) expects that block, so omitting it would make the next member
 * invisible to Cube. Standard tar readers stop at such a block, so {@link CubexWriter} keeps every member
 * size off multiples of 512.
 */
final class TarWriter implements AutoCloseable {
    private static final int BLOCK = 512;
    /** Largest size the 11 octal digits of the ustar size field can hold. */
    private static final long MAX_OCTAL_SIZE = 077777777777L;

    private final OutputStream out;
    private final long mtime;
    /** The member owner's name, as ordinary tar writes it (at most 31 characters). */
    private static final String USER = owner();

    private static String owner() {
        String u = System.getProperty("user.name", "");
        u = u.replaceAll("[^A-Za-z0-9._-]", "");
        if (u.isEmpty()) {
            u = "nouser";
        }
        return u.length() > 31 ? u.substring(0, 31) : u;
    }
    private long remaining = -1;
    private long size;

    TarWriter(OutputStream out, long mtimeSeconds) {
        this.out = out;
        this.mtime = mtimeSeconds;
    }

    /** Starts a regular-file member of the given size; its bytes follow through {@link #write}. */
    void beginMember(String name, long size) throws IOException {
        if (remaining >= 0) {
            throw new IllegalStateException("member not finished");
        }
        if (size > MAX_OCTAL_SIZE) {
            // POSIX pax extended header carrying the real size, as CubeW does for members of 8 GiB and more
            String record = paxRecord("size", Long.toString(size));
            byte[] body = record.getBytes(StandardCharsets.UTF_8);
            out.write(header("PaxHeader/" + name, body.length, 'x'));
            out.write(body);
            pad(body.length);
            out.write(header(name, 0, '0'));
        } else {
            out.write(header(name, size, '0'));
        }
        this.size = size;
        this.remaining = size;
    }

    void write(byte[] b, int off, int len) throws IOException {
        if (len > remaining) {
            throw new IllegalStateException("member declared " + size + " bytes, more are being written");
        }
        out.write(b, off, len);
        remaining -= len;
    }

    void write(byte[] b) throws IOException {
        write(b, 0, b.length);
    }

    void endMember() throws IOException {
        if (remaining != 0) {
            throw new IllegalStateException("member declared " + size + " bytes, " + (size - remaining) + " written");
        }
        pad(size);
        remaining = -1;
    }

    private void pad(long n) throws IOException {
        out.write(new byte[(int) ((n / BLOCK + 1) * BLOCK - n)]);
    }

    @Override
    public void close() throws IOException {
        out.write(new byte[2 * BLOCK]);
        out.close();
    }

    private static String paxRecord(String key, String value) {
        // "<len> <key>=<value>\n" where <len> counts the whole record, its own digits included
        int body = 1 + key.length() + 1 + value.length() + 1;
        int len = body + 1;
        while (len != body + Integer.toString(len).length()) {
            len = body + Integer.toString(len).length();
        }
        return len + " " + key + "=" + value + "\n";
    }

    private byte[] header(String name, long size, char type) {
        byte[] h = new byte[BLOCK];
        byte[] n = name.getBytes(StandardCharsets.UTF_8);
        if (n.length > 100) {
            throw new IllegalArgumentException("tar member name longer than 100 bytes: " + name);
        }
        System.arraycopy(n, 0, h, 0, n.length);
        ascii(h, 100, "0000644");
        octal(h, 108, 7, 0);
        octal(h, 116, 7, 0);
        octal(h, 124, 11, size > MAX_OCTAL_SIZE ? 0 : size);
        octal(h, 136, 11, mtime);
        h[156] = (byte) type;
        ascii(h, 257, "ustar");
        ascii(h, 263, "00");
        ascii(h, 265, USER);
        ascii(h, 297, "users");
        for (int i = 148; i < 156; i++) {
            h[i] = ' ';
        }
        long sum = 0;
        for (byte b : h) {
            sum += b & 0xff;
        }
        octal(h, 148, 6, sum);
        h[154] = 0;
        h[155] = ' ';
        return h;
    }

    private static void ascii(byte[] h, int at, String s) {
        byte[] b = s.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(b, 0, h, at, b.length);
    }

    /** Zero-padded octal digits followed by a NUL, as printf("%0*o") leaves them. */
    private static void octal(byte[] h, int at, int digits, long v) {
        String s = Long.toOctalString(v);
        if (s.length() > digits) {
            throw new IllegalArgumentException("value " + v + " does not fit " + digits + " octal digits");
        }
        ascii(h, at, "0".repeat(digits - s.length()) + s);
        h[at + digits] = 0;
    }
}
