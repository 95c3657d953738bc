package dev.straggler.cli.report;

import dev.straggler.patterns.CommunicatorWaits;
import dev.straggler.patterns.cube.SeverityCube;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The analysis report as one self-contained HTML file: summary; when the cube holds root causes, why processes
 * wait (cause → effect per wait state, {@link WaitCauseSection}) and the critical path
 * ({@link CriticalPathSection}); interactive cube explorer (metric tree, call tree, per-process chart) and, when
 * given, the communication-matrix heatmap.
 *
 * <pre>{@code
 * HtmlReport.of(cube)
 *     .title("npb-mg.S-4")
 *     .summary(Map.of("Trace", "traces.otf2", "Processes", "4"))
 *     .communication(messages, bytes)
 *     .write(Path.of("report.html"));
 * }</pre>
 *
 * For a difference of two experiments (minuend minus subtrahend) call {@link #difference(boolean)}:
 * negative values are then shown in their own colour. Further views (e.g. scaling curves) are added as
 * {@link HtmlSection}s on the {@link HtmlPage} that {@link #page()} returns.
 */
public final class HtmlReport {
    private final SeverityCube cube;
    private String title = "Straggler report";
    private String subtitle = "";
    private final Map<String, String> summary = new LinkedHashMap<>();
    private long[][] messages;
    private long[][] bytes;
    private boolean difference;
    private List<CommunicatorWaits> communicators = List.of();
    private long maxRowValues = CubeExplorerSection.DEFAULT_MAX_ROW_VALUES;

    private HtmlReport(SeverityCube cube) {
        this.cube = Objects.requireNonNull(cube, "cube");
    }

    public static HtmlReport of(SeverityCube cube) {
        return new HtmlReport(cube);
    }

    public HtmlReport title(String title) {
        this.title = Objects.requireNonNull(title, "title");
        return this;
    }

    /** A line under the title, e.g. what was analysed and when. */
    public HtmlReport subtitle(String subtitle) {
        this.subtitle = subtitle == null ? "" : subtitle;
        return this;
    }

    /** Key facts about the trace, shown in the given order. */
    public HtmlReport summary(Map<String, String> facts) {
        summary.putAll(facts);
        return this;
    }

    /** Rank × rank point-to-point traffic, [sender][receiver]; bytes may be null. */
    public HtmlReport communication(long[][] messages, long[][] bytes) {
        this.messages = messages;
        this.bytes = bytes;
        return this;
    }

    /** The wait states per communicator of the analysis (a section when waiting is on several communicators). */
    public HtmlReport communicators(List<CommunicatorWaits> comms) {
        this.communicators = List.copyOf(comms);
        return this;
    }

    /** Marks the cube as a difference of two experiments. */
    public HtmlReport difference(boolean difference) {
        this.difference = difference;
        return this;
    }

    /**
     * Upper bound of per-location values embedded for the explorer's per-process chart (see
     * {@link CubeExplorerSection}); the critical-path view embeds at most half as many again.
     */
    public HtmlReport maxEmbeddedRowValues(long values) {
        if (values < 0) {
            throw new IllegalArgumentException("negative budget " + values);
        }
        this.maxRowValues = values;
        return this;
    }

    /** The page with the standard sections, to write or to extend with more sections. */
    public HtmlPage page() {
        String sub = subtitle.isEmpty()
                ? cube.locations().size() + " locations, " + cube.callPaths().size() + " call paths, "
                + cube.metrics().size() + " metrics" + (difference ? " (difference of two experiments)" : "")
                : subtitle;
        HtmlPage page = new HtmlPage(title, sub);
        page.add(new SummarySection(summary, cube, difference));
        if (!difference) {
            // a difference of delay costs or of critical paths has no causal reading: shares of it would mislead
            WaitCauseSection causes = WaitCauseSection.forCube(cube);
            if (causes != null) {
                page.add(causes);
            }
            CriticalPathSection criticalPath = CriticalPathSection.forCube(cube, maxRowValues / 2);
            if (criticalPath != null) {
                page.add(criticalPath);
            }
        }
        CommunicatorWaitsSection byComm = CommunicatorWaitsSection.of(communicators);
        if (byComm != null) {
            page.add(byComm);
        }
        page.add(new CubeExplorerSection(cube, difference, maxRowValues));
        if (messages != null) {
            page.add(new CommMatrixSection(messages, bytes));
        }
        return page;
    }

    public void write(Path out) throws IOException {
        page().write(out);
    }

    public String render() {
        return page().render();
    }
}
