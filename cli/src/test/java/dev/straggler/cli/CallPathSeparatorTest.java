package dev.straggler.cli;

import dev.straggler.cli.CliTest.Run;
import dev.straggler.cli.report.Chromium;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.straggler.cli.CliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every report writes a call path the same way, region names joined by "/" as {@code analyze} prints them: no "›"
 * or " > " between region names in any terminal report, HTML page (text, tooltips, data) or CSV, on the simulated
 * GYRO-like runs at p = 16, 32, 64 and 96 (only 96 does not divide the work, so it waits; with root causes).
 */
class CallPathSeparatorTest {
    @TempDir
    static Path tmp;
    /** Terminal output of each command. */
    static final Map<String, String> TEXT = new LinkedHashMap<>();
    /** HTML pages and CSV written. */
    static final Map<String, Path> FILES = new LinkedHashMap<>();

    @BeforeAll
    static void reports() throws Exception {
        Path runs = tmp.resolve("runs");
        Run g = run("generate", "gyro-like", "-n", "16,32,64,96", "-o", runs.toString(), "-q");
        assertEquals(0, g.code(), g.err());
        List<String> all = new ArrayList<>();
        for (int p : new int[]{16, 32, 64, 96}) {
            all.add(runs.resolve("gyro-like.p" + p + ".r0").toString());
        }
        String waiting = all.get(3);
        command("analyze", List.of(waiting, "--root-causes", "--html", file("analyze.html"), "--csv", file("analyze.csv")));
        command("study", concat(all, "-o", tmp.resolve("study").toString()));
        FILES.put("study.html", tmp.resolve("study").resolve("study.html"));
        command("scaling", concat(all, "--root-causes", "--html", file("scaling.html")));
        command("model", concat(all, "--root-causes", "--html", file("model.html")));
        command("pop", concat(all, "--html", file("pop.html")));
        command("diff", List.of(waiting, all.get(2), "--root-causes", "--html", file("diff.html")));
        command("callsites", List.of(waiting, "--phase-depth", "2"));
    }

    private static String file(String name) {
        Path f = tmp.resolve(name);
        FILES.put(name, f);
        return f.toString();
    }

    private static List<String> concat(List<String> runs, String... more) {
        List<String> out = new ArrayList<>(runs);
        out.addAll(List.of(more));
        return out;
    }

    private static void command(String name, List<String> args) {
        List<String> a = new ArrayList<>(List.of(name, "-q"));
        a.addAll(args);
        Run r = run(a.toArray(String[]::new));
        assertEquals(0, r.code(), name + ": " + r.err());
        TEXT.put(name, r.out());
    }

    /** The other separators, between two region names: "a › b", "a > b" (not "x > 0" or "->"). */
    private static final Pattern OTHER = Pattern.compile("\\w \u203a \\w|\u203a|[\\w)] > [A-Za-z_]");

    private static void assertOneSeparator(String where, String text) {
        Matcher m = OTHER.matcher(text);
        if (m.find()) {
            int from = Math.max(0, m.start() - 120);
            throw new AssertionError(where + " joins a call path with another separator than '/': ..."
                    + text.substring(from, Math.min(text.length(), m.end() + 80)) + "...");
        }
    }

    @Test
    void terminalReportsJoinCallPathsWithSlashes() {
        TEXT.forEach(CallPathSeparatorTest::assertOneSeparator);
        assertTrue(TEXT.get("study").contains("at gyro-like/main/timestep/transpose/MPI_Alltoall"), TEXT.get("study"));
        assertTrue(TEXT.get("model").contains("@ gyro-like/main/"), TEXT.get("model"));
    }

    @Test
    void csvJoinsCallPathsWithSlashes() throws Exception {
        String csv = Files.readString(FILES.get("analyze.csv"));
        assertOneSeparator("analyze.csv", csv);
        assertTrue(csv.contains(",gyro-like/main/timestep/transpose/MPI_Alltoall,"), csv.substring(0, 400));
    }

    /** Page text, tooltips and embedded data after the page's scripts ran; the scripts themselves are code. */
    @Test
    void htmlReportsJoinCallPathsWithSlashes() throws Exception {
        for (Map.Entry<String, Path> e : FILES.entrySet()) {
            if (!e.getKey().endsWith(".html")) {
                continue;
            }
            String dom = Chromium.dom(Files.readString(e.getValue()), tmp);
            String data = String.join("\n", matches(dom, "<script type=\"application/json\"[^>]*>(.*?)</script>"));
            String page = Chromium.unescape(dom.replaceAll("(?s)<script.*?</script>", ""));
            assertOneSeparator(e.getKey(), page.replaceAll("<[^>]*>", " ").replaceAll("\\s+", " ")
                    + " " + String.join(" ", matches(page, "(?:title|aria-label)=\"([^\"]*)\"")));
            assertOneSeparator(e.getKey() + " data", data.replace("\\u003e", ">").replace("\\u203a", "\u203a"));
        }
        String analyze = Chromium.unescape(Chromium.dom(Files.readString(FILES.get("analyze.html")), tmp));
        assertTrue(analyze.contains("gyro-like/main/timestep/transpose/MPI_Alltoall"), "explorer and tooltips name whole paths");
    }

    /**
     * The growth sentence is shared with the terminal, which quotes names in backticks; on the page the name is set as
     * code and no backtick shows.
     */
    @Test
    void theStudyPageShowsNoBacktick() throws Exception {
        String html = Files.readString(FILES.get("study.html"));
        String text = html.replaceAll("(?s)<script.*?</script>", "");
        assertTrue(TEXT.get("study").contains("under `transpose`"), TEXT.get("study"));
        assertFalse(text.contains("`"), text.substring(Math.max(0, text.indexOf('`') - 200), Math.max(0, text.indexOf('`')) + 50));
        assertTrue(text.contains("under <code>transpose</code>"), "the caller is set as code");
    }

    private static List<String> matches(String s, String regex) {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile(regex, Pattern.DOTALL).matcher(s);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }
}
