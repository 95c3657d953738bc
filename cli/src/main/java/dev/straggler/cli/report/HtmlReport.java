package dev.straggler.cli.report;

import dev.straggler.patterns.CommunicatorWaits;
import dev.straggler.patterns.algebra.CubeAttributes;
import dev.straggler.patterns.cube.SeverityCube;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

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
    private SeverityCube perProcessMeans;

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
     * For a difference of runs with different numbers of processes (a cube summed over processes): the same
     * difference of per-process means, each run's sums divided by its processes (the algebra's
     * {@code SystemMode.MEAN}); the explorer shows it beside the whole-run values, labelled as such.
     */
    public HtmlReport perProcessMeans(SeverityCube means) {
        this.perProcessMeans = means;
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

    private TimelinesSection timelines;

    /** The run and its worst instances on a time axis (a section read from the trace; none by default). */
    public HtmlReport timelines(TimelinesSection section) {
        this.timelines = section;
        return this;
    }

    /** The page with the standard sections, to write or to extend with more sections. */
    public HtmlPage page() {
        String sub = subtitle.isEmpty() ? defaultSubtitle() : subtitle;
        HtmlPage page = new HtmlPage(title, sub);
        page.add(new SummarySection(summary, cube, difference));
        if (timelines != null) {
            page.add(timelines);
        }
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
        page.add(new CubeExplorerSection(cube, difference, maxRowValues, perProcessMeans));
        if (messages != null) {
            page.add(new CommMatrixSection(messages, bytes));
        }
        return page;
    }

    /**
     * The cube's dimensions in words. A collapsed cube's one location stands for all processes of its runs, so it is
     * not counted as a location: the subtitle says what its values are instead.
     */
    private String defaultSubtitle() {
        String system;
        if (CubeExplorerSection.collapsed(cube)) {
            int[] ranks = CubeAttributes.operandRanks(cube);
            String processes = ranks == null || Arrays.stream(ranks).anyMatch(r -> r <= 0) ? ""
                    : " (runs on " + Arrays.stream(ranks).mapToObj(Integer::toString)
                    .collect(Collectors.joining(" and ")) + " processes)";
            system = (CubeAttributes.SYSTEM_MEAN.equals(CubeAttributes.system(cube)) ? "values as means per process"
                    : "values summed over processes") + processes;
        } else {
            int n = cube.locations().size();
            system = n + (n == 1 ? " location" : " locations");
        }
        return system + ", " + cube.callPaths().size() + " call paths, " + cube.metrics().size() + " metrics"
                + (difference ? " (difference of two experiments)" : "");
    }

    public void write(Path out) throws IOException {
        page().write(out);
    }

    public String render() {
        return page().render();
    }
}
