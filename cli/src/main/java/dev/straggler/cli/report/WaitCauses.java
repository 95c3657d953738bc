package dev.straggler.cli.report;

import dev.straggler.patterns.cube.SeverityCube;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Cause and effect of each wait-state kind in a cube: where processes wait (call paths and locations holding the
 * waiting time, for point-to-point waiting split into direct/indirect and terminal/propagating) and which call
 * paths on which locations hold the delay costs of that kind, short-term and long-term.
 *
 * <p>Every value is cleaned ({@link Shares#nonNegative}): waiting and costs are never negative, and an indirect or
 * propagating part never exceeds the waiting it is part of. The two sides are linked by kind only, as Scalasca's
 * delay costs are (reference §1.6).
 */
final class WaitCauses {
    private WaitCauses() {
    }

    /**
     * Waiting on one call path.
     *
     * @param indirect    part caused by waiting on the delaying process (0 when not classified)
     * @param propagating part that caused further waiting elsewhere (0 when not classified)
     * @param perLocation the waiting per location
     */
    record Effect(int path, double waiting, double indirect, double propagating, double[] perLocation) {
        double direct() {
            return waiting - indirect;
        }

        double terminal() {
            return waiting - propagating;
        }
    }

    /**
     * Delay costs on one call path.
     *
     * @param perLocation short-term plus long-term costs per location
     */
    record Cause(int path, double shortTerm, double longTerm, double[] perLocation) {
        double total() {
            return shortTerm + longTerm;
        }
    }

    /**
     * One wait-state kind.
     *
     * @param classified whether the cube has the direct/indirect and terminal/propagating split for it
     * @param effects    call paths with waiting, largest first
     * @param causes     call paths with delay costs, largest first
     */
    record View(WaitKind kind, double waiting, double indirect, double propagating, boolean classified,
                double shortTerm, double longTerm, List<Effect> effects, List<Cause> causes,
                double[] waitingPerLocation, double[] delayPerLocation) {
        double delay() {
            return shortTerm + longTerm;
        }
    }

    /** The kinds with waiting in the cube, largest waiting first; empty when none or when the cube lacks them. */
    static List<View> of(SeverityCube cube) {
        List<View> views = new ArrayList<>();
        for (WaitKind k : WaitKind.values()) {
            View v = view(cube, k);
            if (v != null) {
                views.add(v);
            }
        }
        views.sort(Comparator.comparingDouble((View v) -> -v.waiting()).thenComparing(View::kind));
        return views;
    }

    /** True when some wait-state kind has both waiting and delay costs: the root-cause stage found something. */
    static boolean anyCause(List<View> views) {
        return views.stream().anyMatch(v -> v.delay() > 0);
    }

    private static View view(SeverityCube cube, WaitKind k) {
        int wait = cube.metricIndex(k.waiting);
        if (wait < 0) {
            return null;
        }
        double scale = Math.abs(cube.total(wait));
        int[] also = java.util.Arrays.stream(k.alsoWaiting).mapToInt(cube::metricIndex).filter(m -> m >= 0).toArray();
        for (int m : also) {
            scale += Math.abs(cube.total(m));
        }
        int indirect = k.indirect == null ? -1 : cube.metricIndex(k.indirect);
        int propagating = k.propagating == null ? -1 : cube.metricIndex(k.propagating);
        int shortTerm = cube.metricIndex(k.shortTerm);
        int longTerm = cube.metricIndex(k.longTerm);
        int nl = cube.locations().size();
        double[] waitPerLoc = new double[nl];
        double[] delayPerLoc = new double[nl];
        List<Effect> effects = new ArrayList<>();
        List<Cause> causes = new ArrayList<>();
        double waiting = 0;
        double indirectSum = 0;
        double propagatingSum = 0;
        double shortSum = 0;
        double longSum = 0;
        for (int p = 0; p < cube.callPaths().size(); p++) {
            double[] w = cleanRow(cube, wait, p, scale);
            for (int m : also) {
                double[] x = cleanRow(cube, m, p, scale);
                if (x != null) {
                    if (w == null) {
                        w = x;
                    } else {
                        add(w, x);
                    }
                }
            }
            if (w != null) {
                double sum = sum(w);
                double ind = Math.min(sum, Shares.nonNegative(sum(cube, indirect, p), scale));
                double prop = Math.min(sum, Shares.nonNegative(sum(cube, propagating, p), scale));
                effects.add(new Effect(p, sum, ind, prop, w));
                waiting += sum;
                indirectSum += ind;
                propagatingSum += prop;
                add(waitPerLoc, w);
            }
            double st = Shares.nonNegative(sum(cube, shortTerm, p), scale);
            double lt = Shares.nonNegative(sum(cube, longTerm, p), scale);
            if (st + lt > 0) {
                double[] row = new double[nl];
                add(row, cleanRow(cube, shortTerm, p, scale));
                add(row, cleanRow(cube, longTerm, p, scale));
                causes.add(new Cause(p, st, lt, row));
                shortSum += st;
                longSum += lt;
                add(delayPerLoc, row);
            }
        }
        if (!(waiting > 0)) {
            return null;
        }
        effects.sort(Comparator.comparingDouble((Effect e) -> -e.waiting()).thenComparingInt(Effect::path));
        causes.sort(Comparator.comparingDouble((Cause c) -> -c.total()).thenComparingInt(Cause::path));
        return new View(k, waiting, indirectSum, propagatingSum, indirect >= 0 && propagating >= 0, shortSum,
                longSum, effects, causes, waitPerLoc, delayPerLoc);
    }

    /** A row with residue and negative values set to 0; null when nothing is left. */
    private static double[] cleanRow(SeverityCube cube, int metric, int path, double scale) {
        double[] r = metric < 0 ? null : cube.rowOrNull(metric, path);
        if (r == null) {
            return null;
        }
        double[] out = new double[r.length];
        boolean any = false;
        for (int l = 0; l < r.length; l++) {
            out[l] = Shares.nonNegative(r[l], scale);
            any |= out[l] > 0;
        }
        return any ? out : null;
    }

    private static double sum(SeverityCube cube, int metric, int path) {
        return metric < 0 ? 0 : cube.sumOverLocations(metric, path);
    }

    private static double sum(double[] v) {
        double s = 0;
        for (double x : v) {
            s += x;
        }
        return s;
    }

    private static void add(double[] into, double[] v) {
        if (v != null) {
            for (int i = 0; i < into.length; i++) {
                into[i] += v[i];
            }
        }
    }
}
