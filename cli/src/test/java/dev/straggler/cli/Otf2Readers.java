package dev.straggler.cli;

import dev.straggler.trace.EventBatch;
import dev.straggler.trace.EventKind;
import dev.straggler.trace.Location;
import dev.straggler.trace.LocationReader;
import dev.straggler.trace.TraceSource;
import org.junit.jupiter.api.Assumptions;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Independent readers of an OTF2 archive, each turned into per-location lines {@code KIND timestamp detail} (detail:
 * region name of ENTER/LEAVE, {@code tag length} of point-to-point messages, else {@code -}): Debian's
 * {@code otf2-print} and the official Python bindings ({@code python3-otf2}), both on the OTF2 C library.
 */
final class Otf2Readers {
    private static final Pattern REGION = Pattern.compile("Region: \"(.*)\" <\\d+>");
    private static final Pattern MESSAGE = Pattern.compile("Tag: (\\d+), Length: (\\d+)");

    private Otf2Readers() {
    }

    /** The same lines from any trace source, locations by their OTF2 id. */
    static Map<Long, List<String>> of(TraceSource src) throws IOException {
        Map<Long, List<String>> out = new TreeMap<>();
        EventBatch b = new EventBatch();
        for (Location l : src.definitions().locations()) {
            List<String> lines = new ArrayList<>();
            try (LocationReader r = src.openLocation(l.index())) {
                while (r.next(b)) {
                    for (int i = 0; i < b.size; i++) {
                        EventKind k = b.kindAt(i);
                        String detail = switch (k) {
                            case ENTER, LEAVE -> src.definitions().region(b.ref[i]).name();
                            case MPI_SEND, MPI_ISEND, MPI_RECV, MPI_IRECV -> b.tag[i] + " " + b.bytes[i];
                            default -> "-";
                        };
                        lines.add(k.name() + " " + b.time[i] + " " + detail);
                    }
                }
            }
            out.put(l.id(), lines);
        }
        return out;
    }

    static Map<Long, List<String>> otf2Print(Path anchor) throws IOException {
        Map<Long, List<String>> out = new TreeMap<>();
        for (String line : command("otf2-print", anchor.toString())) {
            String[] f = line.split("\\s+", 4);
            if (f.length < 3 || !f[1].matches("\\d+") || !f[2].matches("\\d+")) {
                continue;
            }
            String attrs = f.length > 3 ? f[3] : "";
            String detail = "-";
            Matcher m = REGION.matcher(attrs);
            Matcher msg = MESSAGE.matcher(attrs);
            if ((f[0].equals("ENTER") || f[0].equals("LEAVE")) && m.find()) {
                detail = m.group(1);
            } else if (f[0].matches("MPI_I?(SEND|RECV)") && msg.find()) {
                detail = msg.group(1) + " " + msg.group(2);
            }
            out.computeIfAbsent(Long.parseLong(f[1]), k -> new ArrayList<>()).add(f[0] + " " + f[2] + " " + detail);
        }
        return out;
    }

    static Map<Long, List<String>> python(Path anchor) throws IOException {
        Path script = Path.of("src", "test", "resources", "otf2_events.py");
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/python3")), "/usr/bin/python3 is absent");
        Map<Long, List<String>> out = new TreeMap<>();
        for (String line : command("/usr/bin/python3", script.toString(), anchor.toString())) {
            String[] f = line.split(" ", 2);
            out.computeIfAbsent(Long.parseLong(f[0]), k -> new ArrayList<>()).add(f[1]);
        }
        return out;
    }

    private static List<String> command(String... args) throws IOException {
        Process p;
        try {
            p = new ProcessBuilder(args).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        } catch (IOException e) {
            Assumptions.abort(args[0] + " is not installed (Debian packages otf2-tools, python3-otf2): " + e.getMessage());
            return List.of();
        }
        List<String> lines = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String l; (l = r.readLine()) != null; ) {
                lines.add(l);
            }
        }
        try {
            if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
                Assumptions.assumeFalse(args[0].endsWith("python3") && p.exitValue() == 1 && lines.isEmpty(),
                        "python3-otf2 is not importable");
                throw new IOException(String.join(" ", args) + " failed");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
        return lines;
    }
}
