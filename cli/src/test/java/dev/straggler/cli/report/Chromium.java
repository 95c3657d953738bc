package dev.straggler.cli.report;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runs a page's scripts in headless Chromium and returns the resulting DOM; tests using it are skipped where no
 * Chromium is installed. A probe script added after the page's own scripts can measure the laid-out page (sizes,
 * canvas pixels) and leave its findings in the {@code data-probe} attribute of the body.
 */
public final class Chromium {
    private Chromium() {
    }

    /** The DOM of {@code html} after its scripts ran; skips the calling test without Chromium. */
    public static String dom(String html, Path dir) throws IOException, InterruptedException {
        Path page = Files.createTempFile(dir, "page", ".html");
        Files.writeString(page, html, StandardCharsets.UTF_8);
        return dom(page, "");
    }

    /**
     * The DOM of the page file after its scripts ran, opened at {@code fragment} (e.g. {@code #metric=x}, or empty);
     * skips the calling test without Chromium.
     */
    public static String dom(Path page, String fragment) throws IOException, InterruptedException {
        String chromium = List.of("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome").stream()
                .filter(p -> Files.isExecutable(Path.of(p))).findFirst().orElse(null);
        Assumptions.assumeTrue(chromium != null, "no Chromium installed (apt-get install chromium); browser rendering not checked");
        Path profile = Files.createTempDirectory(page.toAbsolutePath().getParent(), "profile");
        Process p = new ProcessBuilder(chromium, "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--user-data-dir=" + profile, "--window-size=1400,1000", "--dump-dom", page.toUri() + fragment)
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "chromium did not finish");
        return new String(out, StandardCharsets.UTF_8);
    }

    /** The page with {@code script} run after all of its own scripts. */
    public static String withProbe(String html, String script) {
        int end = html.lastIndexOf("</body>");
        return html.substring(0, end) + "<script>\n" + script + "\n</script>\n" + html.substring(end);
    }

    /** What the probe left in {@code document.body.dataset.probe}, unescaped. */
    public static String probe(String dom) {
        Matcher m = Pattern.compile("data-probe=\"([^\"]*)\"").matcher(dom);
        assertTrue(m.find(), "the probe left no result");
        return unescape(m.group(1));
    }

    /** Text of markup with its entities resolved (those Chromium writes). */
    public static String unescape(String s) {
        return s.replace("&quot;", "\"").replace("&lt;", "<").replace("&gt;", ">").replace("&#39;", "'")
                .replace("&nbsp;", "\u00a0").replace("&amp;", "&");
    }
}
