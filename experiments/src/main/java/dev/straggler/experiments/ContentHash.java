package dev.straggler.experiments;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

/**
 * What makes a run the same run: SHA-256 over the bytes of its input, so that adding it again is recognised whatever
 * its path. An OTF2 archive is its anchor file, its global definitions and its event directory; a directory (a store)
 * is every file under it; each file's path relative to the input goes into the hash with its bytes.
 *
 * @param hex   the digest
 * @param bytes how many bytes were read
 */
public record ContentHash(String hex, long bytes) {

    public static ContentHash of(Path input) throws IOException {
        List<Path> files = new ArrayList<>();
        Path base;
        if (Files.isDirectory(input)) {
            base = input.toAbsolutePath();
            Path anchor = otf2Anchor(input);
            if (anchor != null) {
                return of(anchor);
            }
            try (Stream<Path> s = Files.walk(input)) {
                s.filter(Files::isRegularFile).sorted().forEach(files::add);
            }
        } else {
            base = input.toAbsolutePath().getParent();
            files.add(input);
            String name = input.getFileName().toString();
            if (name.endsWith(".otf2")) {
                // the archive: anchor, its definitions, its event directory
                String stem = name.substring(0, name.length() - ".otf2".length());
                Path def = base.resolve(stem + ".def");
                if (Files.isRegularFile(def)) {
                    files.add(def);
                }
                Path events = base.resolve(stem);
                if (Files.isDirectory(events)) {
                    try (Stream<Path> s = Files.walk(events)) {
                        s.filter(Files::isRegularFile).sorted().forEach(files::add);
                    }
                }
            }
        }
        MessageDigest md;
        try {
            md = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        long total = 0;
        byte[] buf = new byte[1 << 16];
        for (Path f : files) {
            md.update(base.relativize(f.toAbsolutePath()).toString().getBytes(StandardCharsets.UTF_8));
            md.update((byte) 0);
            try (InputStream in = Files.newInputStream(f)) {
                for (int n; (n = in.read(buf)) > 0; ) {
                    md.update(buf, 0, n);
                    total += n;
                }
            }
        }
        return new ContentHash(HexFormat.of().formatHex(md.digest()), total);
    }

    private static Path otf2Anchor(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            List<Path> anchors = s.filter(p -> p.getFileName().toString().endsWith(".otf2") && Files.isRegularFile(p)).toList();
            return anchors.size() == 1 ? anchors.get(0) : null;
        }
    }
}
