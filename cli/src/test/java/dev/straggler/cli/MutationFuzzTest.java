package dev.straggler.cli;

import dev.straggler.testdata.Scenario;
import dev.straggler.testdata.ScenarioParams;
import dev.straggler.testdata.scenario.Catalogue;
import dev.straggler.trace.MemoryTrace;
import dev.straggler.trace.otf2.Otf2Writer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A seeded mutation fuzzer over the three trace readers (OTF2, store, text) as a user meets them: each mutant is a
 * valid trace with one to three byte-level defects (bit flips, overwritten bytes and words, truncation, copied
 * blocks; in text, changed or negated digits), analysed strictly and, every third time, with {@code --lenient}.
 * Every outcome must be one of two: exit 0 with no impossible number in the report (no negative quantity, no share
 * above 100 %), or a non-zero exit with exactly one line on stderr and no stack trace. A run that takes longer than
 * {@link #TIMEOUT_S} seconds is a hang.
 *
 * <p>CI runs {@value #DEFAULT_MUTANTS} mutants per format with a fixed seed; a longer run on demand:
 * {@code mvn -pl cli test -Dtest=MutationFuzzTest -Dstraggler.fuzz.mutants=10000 -Dstraggler.fuzz.seed=7}. Every
 * finding becomes a case of the bad-input corpus ({@code src/test/resources/bad-inputs}).
 */
class MutationFuzzTest {
    static final int DEFAULT_MUTANTS = 400;
    static final int TIMEOUT_S = 30;

    @TempDir
    Path tmp;

    private final List<String> findings = new ArrayList<>();
    private int exitZero;
    private int oneLineErrors;

    private static Path simulate(Path dir, String format) throws Exception {
        Scenario s = Catalogue.ALL.stream().filter(x -> x.name().equals("waitall-late-senders")).findFirst().orElseThrow();
        ScenarioParams p = ScenarioParams.of(4).with("reps", "2");
        switch (format) {
            case "otf2" -> {
                MemoryTrace m = new MemoryTrace("seed");
                s.generate(p, m);
                Path anchor = dir.resolve("seed-otf2").resolve("traces.otf2");
                try (Otf2Writer w = new Otf2Writer(anchor)) {
                    for (int l = 0; l < m.definitions().locations().size(); l++) {
                        w.append(l, m.readLocation(l));
                    }
                    w.finish(m.definitions());
                }
                return anchor.getParent();
            }
            case "store" -> {
                Path out = dir.resolve("seed-store");
                assertTrue(CliTest.run("generate", "waitall-late-senders", "-n", "4", "-p", "reps=2", "-o",
                        out.toString(), "-q").code() == 0);
                return out;
            }
            default -> {
                Path out = dir.resolve("seed.txt");
                assertTrue(CliTest.run("generate", "waitall-late-senders", "-n", "4", "-p", "reps=2", "-o",
                        out.toString(), "-q").code() == 0);
                return out;
            }
        }
    }

    @Test
    void otf2MutantsEndCleanly() throws Exception {
        fuzz("otf2");
    }

    @Test
    void storeMutantsEndCleanly() throws Exception {
        fuzz("store");
    }

    @Test
    void textMutantsEndCleanly() throws Exception {
        fuzz("text");
    }

    private void fuzz(String format) throws Exception {
        int mutants = Integer.getInteger("straggler.fuzz.mutants", DEFAULT_MUTANTS);
        long seed = Long.getLong("straggler.fuzz.seed", 20261124L) ^ format.hashCode();
        Path seedTrace = simulate(tmp, format);
        Random rnd = new Random(seed);
        ExecutorService pool = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "fuzz-" + format);
            t.setDaemon(true);
            return t;
        });
        long start = System.nanoTime();
        try {
            for (int i = 0; i < mutants; i++) {
                Path mutant = tmp.resolve(format + "-" + i);
                copy(seedTrace, mutant);
                List<String> what = new ArrayList<>();
                int defects = 1 + rnd.nextInt(3);
                for (int d = 0; d < defects; d++) {
                    what.add(mutate(mutant, rnd, format.equals("text")));
                }
                boolean lenient = i % 3 == 2;
                String[] args = lenient ? new String[] {"analyze", mutant.toString(), "-q", "--lenient"}
                        : new String[] {"analyze", mutant.toString(), "-q"};
                int before = findings.size();
                check(pool, args, format + " mutant " + i + " " + what);
                if (findings.size() > before) {
                    // keep the input of every finding for its regression test
                    Path keep = Path.of("target", "fuzz-findings", mutant.getFileName().toString());
                    delete(keep);
                    Files.createDirectories(keep.getParent());
                    copy(mutant, keep);
                    findings.set(findings.size() - 1, findings.get(findings.size() - 1) + "\n  (kept as " + keep + ")");
                }
                delete(mutant);
                if (findings.size() > Integer.getInteger("straggler.fuzz.maxFindings", 20)) {
                    break;
                }
            }
        } finally {
            pool.shutdownNow();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        if (System.getProperty("straggler.fuzz.mutants") != null) {
            // a longer run asked for by hand (README) reports what it covered; the build's default run stays quiet
            System.out.printf("fuzz %s: %d mutants in %.1f s: %d analysed (exit 0, plausible output), %d refused in one "
                    + "line, %d findings%n", format, mutants, seconds, exitZero, oneLineErrors, findings.size());
        }
        assertTrue(findings.isEmpty(), String.join("\n", findings));
    }

    private void check(ExecutorService pool, String[] args, String what) throws Exception {
        Future<CliTest.Run> f = pool.submit(() -> runQuietly(args));
        CliTest.Run r;
        try {
            r = f.get(TIMEOUT_S, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            f.cancel(true);
            findings.add("hang (> " + TIMEOUT_S + " s): " + what);
            return;
        }
        if (r.code() == 0) {
            String bad = impossible(r.out());
            if (bad != null) {
                findings.add("impossible number at exit 0: " + what + ": " + bad);
            } else {
                exitZero++;
            }
            return;
        }
        String err = r.err().strip();
        if (err.lines().count() != 1 || !err.startsWith("straggler: ") || err.contains("Exception")
                || err.contains("\tat ") || err.contains("Error:")) {
            findings.add("not a one-line error (exit " + r.code() + "): " + what + ":\n" + err);
        } else {
            oneLineErrors++;
        }
    }

    /** Main.run captured, on the fuzzer's own lock, so that a hang cannot block the other tests' runs. */
    private static synchronized CliTest.Run runQuietly(String[] args) {
        return CliTest.capture(args);
    }

    private static final Pattern NEGATIVE = Pattern.compile("(^|[\\s(])(-\\d[\\d.,e+-]*)");
    private static final Pattern PERCENT = Pattern.compile("(\\d+(\\.\\d+)?) ?%");

    /** The first impossible number in a report, or null: a negative quantity, a share above 100 %. */
    static String impossible(String report) {
        for (String line : report.lines().toList()) {
            Matcher m = NEGATIVE.matcher(line);
            if (m.find()) {
                return "negative: " + line.strip();
            }
            Matcher p = PERCENT.matcher(line);
            while (p.find()) {
                if (Double.parseDouble(p.group(1)) > 100.05) {
                    return "share above 100 %: " + line.strip();
                }
            }
        }
        return null;
    }

    private static String mutate(Path trace, Random rnd, boolean text) throws IOException {
        List<Path> files;
        if (Files.isDirectory(trace)) {
            try (Stream<Path> s = Files.walk(trace)) {
                files = s.filter(Files::isRegularFile).sorted().toList();
            }
        } else {
            files = List.of(trace);
        }
        // weight by size: event data is most of a trace
        long total = 0;
        for (Path f : files) {
            total += Math.max(1, Files.size(f));
        }
        long pick = (long) (rnd.nextDouble() * total);
        Path file = files.get(files.size() - 1);
        for (Path f : files) {
            pick -= Math.max(1, Files.size(f));
            if (pick < 0) {
                file = f;
                break;
            }
        }
        byte[] b = Files.readAllBytes(file);
        String name = trace.relativize(file).toString();
        if (b.length == 0) {
            return name + ": empty";
        }
        int at = rnd.nextInt(b.length);
        String op;
        switch (text ? rnd.nextInt(7) : rnd.nextInt(5)) {
            case 0 -> {
                int bit = rnd.nextInt(8);
                b[at] ^= (byte) (1 << bit);
                op = "flip bit " + bit + " at " + at;
            }
            case 1 -> {
                b[at] = (byte) rnd.nextInt(256);
                op = "byte at " + at;
            }
            case 2 -> {
                for (int k = at; k < Math.min(b.length, at + 8); k++) {
                    b[k] = (byte) 0xFF;
                }
                op = "0xFF x8 at " + at;
            }
            case 3 -> {
                byte[] c = new byte[at];
                System.arraycopy(b, 0, c, 0, at);
                b = c;
                op = "truncate at " + at;
            }
            case 4 -> {
                int from = rnd.nextInt(b.length);
                int n = Math.min(16, Math.min(b.length - from, b.length - at));
                System.arraycopy(b, from, b, at, n);
                op = "copy 16 bytes from " + from + " to " + at;
            }
            case 5 -> {
                // a digit changed
                int d = digitNear(b, at);
                if (d < 0) {
                    return name + ": no digit";
                }
                b[d] = (byte) ('0' + rnd.nextInt(10));
                op = "digit at " + d;
            }
            default -> {
                // a number negated
                int d = digitNear(b, at);
                if (d < 0) {
                    return name + ": no digit";
                }
                while (d > 0 && Character.isDigit(b[d - 1])) {
                    d--;
                }
                byte[] c = new byte[b.length + 1];
                System.arraycopy(b, 0, c, 0, d);
                c[d] = '-';
                System.arraycopy(b, d, c, d + 1, b.length - d);
                b = c;
                op = "negate number at " + d;
            }
        }
        Files.write(file, b);
        return name + ": " + op;
    }

    private static int digitNear(byte[] b, int at) {
        for (int k = 0; k < b.length; k++) {
            int i = (at + k) % b.length;
            if (b[i] >= '0' && b[i] <= '9') {
                return i;
            }
        }
        return -1;
    }

    private static void copy(Path from, Path to) throws IOException {
        if (!Files.isDirectory(from)) {
            Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
            return;
        }
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(p, t, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    private static void delete(Path p) throws IOException {
        if (!Files.exists(p)) {
            return;
        }
        try (Stream<Path> s = Files.walk(p)) {
            for (Path x : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(x);
            }
        }
    }
}
