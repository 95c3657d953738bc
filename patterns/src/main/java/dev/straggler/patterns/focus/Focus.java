package dev.straggler.patterns.focus;

import dev.straggler.patterns.callsite.MpiCallKind;
import dev.straggler.patterns.cube.CallPath;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.trace.Region;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The focus of analysis: the part of a run that run-level figures (POP efficiencies, the runs of a scaling study,
 * the computation/MPI series of the scaling models) are computed over, as POP analysts and Cube's Advisor choose
 * one (the Advisor computes its POP tests on the call path selected in the call tree).
 *
 * <p>Three kinds:
 * <ul>
 *   <li>{@link Kind#DEFAULT}: the whole run without the subtrees of {@code MPI_Init}, {@code MPI_Init_thread} and
 *       {@code MPI_Finalize}. Start-up and shut-down are not what a user tunes, yet on a short Score-P run they are
 *       often most of the time (92 % of NPB MG class S at 16 ranks), and counted in they make every efficiency say
 *       "start-up" instead of "the program". This is the default.</li>
 *   <li>{@link Kind#ALL}: every call path, what the Advisor computes on the root call path.</li>
 *   <li>{@link Kind#PATH}: the call-path subtrees named by the user, either a call path ({@code a/b/c}: region names
 *       from a root, or a tail of such a path) or a region name (every call path of that region). Where selected
 *       call paths nest, the outermost counts, so nothing is counted twice.</li>
 * </ul>
 * A focus is applied by {@link #select(SeverityCube)}, which gives the call paths it covers; {@link Selection#cube()}
 * is the cube with everything outside set to zero, so that every figure computed from it (any metric, any
 * location) covers exactly the focus.
 *
 * @param kind what is selected
 * @param spec the text the user gave ({@code default}, {@code all}, or the call path or region)
 */
public record Focus(Kind kind, String spec) {

    /** What a focus selects. */
    public enum Kind { DEFAULT, ALL, PATH }

    /** The separator of region names in a call path given to {@code --focus} (as the reports print call paths). */
    public static final String SEPARATOR = "/";

    /** The MPI regions the default focus leaves out: those that start and end MPI for the process. */
    public static final Set<String> INIT_FINALIZE = Set.of("MPI_Init", "MPI_Init_thread", "MPI_Finalize");

    public static final Focus DEFAULT = new Focus(Kind.DEFAULT, "default");
    public static final Focus ALL = new Focus(Kind.ALL, "all");

    /** What {@code --focus} says in {@code --help}. */
    public static final String HELP = "The focus of analysis: 'default' (the run without MPI_Init, MPI_Init_thread "
            + "and MPI_Finalize; the default), 'all' (the whole run, as Cube's Advisor on the root call path), a call "
            + "path (region names joined by '/', from a root or a tail of one, e.g. mg_mpi/mg3p) or a region name "
            + "(every call path of it).";

    public Focus {
        if (kind == Kind.PATH && (spec == null || spec.isBlank())) {
            throw new IllegalArgumentException("--focus needs 'default', 'all', a call path or a region name");
        }
    }

    /** The focus the text names ({@code default}, {@code all}, a call path or a region name). */
    public static Focus parse(String text) {
        String t = text == null ? "" : text.strip();
        return switch (t.toLowerCase(Locale.ROOT)) {
            case "default" -> DEFAULT;
            case "all" -> ALL;
            default -> new Focus(Kind.PATH, t);
        };
    }

    /** The focus in a few words, for the line that says which part of the run a figure covers. */
    public String description() {
        return switch (kind) {
            case DEFAULT -> "the run without MPI_Init/MPI_Finalize";
            case ALL -> "the whole run";
            case PATH -> spec.contains(SEPARATOR) ? "call path " + spec : "region " + spec;
        };
    }

    /**
     * A short column heading for the time outside the focus: {@code Init/Fin} for the default focus (that is all it
     * leaves out), {@code outside} for a call path; null for {@link Kind#ALL}, which leaves nothing out.
     */
    public String outsideHeading() {
        return switch (kind) {
            case DEFAULT -> "Init/Fin";
            case ALL -> null;
            case PATH -> "outside";
        };
    }

    /**
     * The call paths of {@code cube} this focus covers.
     *
     * @throws IllegalArgumentException for a call path or region that names nothing in the cube (one line, naming
     *                                  the run)
     */
    public Selection select(SeverityCube cube) {
        int n = cube.callPaths().size();
        boolean[] in = new boolean[n];
        switch (kind) {
            case ALL -> Arrays.fill(in, true);
            case DEFAULT -> {
                // a call path is in unless it or an ancestor is MPI_Init/MPI_Init_thread/MPI_Finalize; parents come first
                for (int c = 0; c < n; c++) {
                    CallPath cp = cube.callPaths().get(c);
                    boolean parentIn = cp.parent() < 0 || in[cp.parent()];
                    in[c] = parentIn && !isInitFinalize(cube.regions().get(cp.region()));
                }
            }
            case PATH -> {
                boolean[] named = named(cube);
                for (int c = 0; c < n; c++) {
                    CallPath cp = cube.callPaths().get(c);
                    in[c] = named[c] || cp.parent() >= 0 && in[cp.parent()];
                }
            }
        }
        return new Selection(this, cube, in);
    }

    private static boolean isInitFinalize(Region r) {
        return INIT_FINALIZE.contains(r.name()) && MpiCallKind.isMpi(r);
    }

    /** The call paths the user's path or region names (before their subtrees are added). */
    private boolean[] named(SeverityCube cube) {
        int n = cube.callPaths().size();
        boolean[] out = new boolean[n];
        List<String> want = Arrays.stream(spec.split(SEPARATOR, -1)).map(String::strip).toList();
        if (want.stream().anyMatch(String::isEmpty)) {
            throw new IllegalArgumentException("--focus '" + spec + "': a call path is region names joined by '"
                    + SEPARATOR + "', with no empty name");
        }
        boolean fromRoot = false;
        for (int c = 0; c < n; c++) {
            List<String> names = cube.pathNames(c);
            if (names.equals(want)) {
                out[c] = true;
                fromRoot = true;
            }
        }
        if (!fromRoot) {
            // a tail of a call path, or (one name) a region wherever it is called
            for (int c = 0; c < n; c++) {
                List<String> names = cube.pathNames(c);
                out[c] = names.size() >= want.size() && names.subList(names.size() - want.size(), names.size()).equals(want);
            }
        }
        boolean any = false;
        for (boolean b : out) {
            any |= b;
        }
        if (!any) {
            throw new IllegalArgumentException("--focus '" + spec + "' names no call path of "
                    + dev.straggler.patterns.algebra.CubeAttributes.describe(cube, "the run") + " (give region names "
                    + "joined by '" + SEPARATOR + "', as the reports print call paths, or one region name)");
        }
        return out;
    }

    /**
     * A focus applied to one run. Its cube without what lies outside the focus is made once, when first asked for:
     * a study takes the POP metrics, the runs table and the scaling series from the same selection.
     */
    public static final class Selection {
        private final Focus focus;
        private final SeverityCube whole;
        private final boolean[] in;
        private SeverityCube cube;

        /**
         * @param focus the focus
         * @param whole the run's cube
         * @param in    per call path of {@code whole}: whether the focus covers it
         */
        Selection(Focus focus, SeverityCube whole, boolean[] in) {
            this.focus = focus;
            this.whole = whole;
            this.in = in;
        }

        public Focus focus() {
            return focus;
        }

        /** The run's cube as analysed, the focus not applied. */
        public SeverityCube whole() {
            return whole;
        }

        /** Whether the focus covers every call path (nothing is left out). */
        public boolean coversAll() {
            for (boolean b : in) {
                if (!b) {
                    return false;
                }
            }
            return true;
        }

        /**
         * The run's cube with every value outside the focus removed (the same metrics, call paths and locations), so
         * that any figure computed from it covers the focus; the whole cube itself when the focus covers everything.
         */
        public synchronized SeverityCube cube() {
            if (cube == null) {
                cube = coversAll() ? whole : withoutOutside();
            }
            return cube;
        }

        private SeverityCube withoutOutside() {
            SeverityCube c = whole.mutableCopy();
            for (int m = 0; m < c.metrics().size(); m++) {
                for (int cp = 0; cp < in.length; cp++) {
                    if (!in[cp] && c.rowOrNull(m, cp) != null) {
                        for (int l = 0; l < c.locations().size(); l++) {
                            c.set(m, cp, l, 0);
                        }
                    }
                }
            }
            return c.freeze();
        }

        /** A metric summed over the call paths of the focus and all locations. */
        public double total(String metric) {
            return sum(metric, true);
        }

        /** A metric summed over the call paths outside the focus and all locations. */
        public double outside(String metric) {
            return sum(metric, false);
        }

        private double sum(String metric, boolean inside) {
            int m = whole.metricIndex(metric);
            if (m < 0) {
                return 0;
            }
            double s = 0;
            for (int cp = 0; cp < in.length; cp++) {
                if (in[cp] == inside) {
                    s += whole.sumOverLocations(m, cp);
                }
            }
            return s;
        }

        /**
         * One line saying which part of the run the figures cover, e.g. "Focus: the run without MPI_Init/MPI_Finalize
         * (left out: 7.81 s of 8.48 s, 92.1 % of the time summed over processes)".
         */
        public String line() {
            double all = whole.metricIndex("time") >= 0 ? whole.total("time") : 0;
            double out = outside("time");
            if (coversAll() || all <= 0) {
                return focus.kind() == Kind.DEFAULT ? "Focus: the whole run (it has no MPI_Init/MPI_Finalize)"
                        : "Focus: " + focus.description();
            }
            return String.format(Locale.ROOT, "Focus: %s (left out: %s s of %s s, %.1f %% of the time summed over "
                            + "processes; --focus all includes it)", focus.description(), seconds(out), seconds(all),
                    Math.min(100, 100 * out / all));
        }

        private static String seconds(double v) {
            return String.format(Locale.ROOT, "%.3g", v);
        }

        /** The call paths of the focus, for tests and reports. */
        public List<Integer> callPaths() {
            List<Integer> out = new ArrayList<>();
            for (int c = 0; c < in.length; c++) {
                if (in[c]) {
                    out.add(c);
                }
            }
            return out;
        }
    }
}
