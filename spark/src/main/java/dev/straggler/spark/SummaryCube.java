package dev.straggler.spark;

import dev.straggler.patterns.MetricTree;
import dev.straggler.patterns.cube.SeverityCube;

/**
 * The cube the terminal report reads when the rows stayed on the executors ({@link StreamedCube}): the metric tree,
 * call tree, locations and attributes of the run, and the sums the report takes from a cube, each formed where the
 * rows were by the same additions in the same order as {@link SeverityCube} makes them — per (metric, call path)
 * its sum over locations ({@link #sumOverLocations}, and through it {@link #total}), per (metric, location) its
 * sum over call paths ({@link #perLocation}) — and the rows of {@code delay} and {@code delay_mpi} (the report names
 * the ranks holding a call path's delay). Any other value is not here: asking for one throws instead of answering zero.
 *
 * <p>The report's POP line covers the default focus (the run without MPI_Init/MPI_Finalize), for which the focus
 * makes a copy without the call paths outside it ({@link #mutableCopy}); this cube answers that copy's sums too,
 * having them from the executors. Another focus cannot be answered (the engine chooses the whole-cube path then).
 */
final class SummaryCube extends SeverityCube {
    private final StreamedCube.Summary summary;
    private final boolean[] inFocus;
    /** True for the copy without the call paths outside the default focus. */
    private final boolean focused;

    SummaryCube(SeverityCube shape, StreamedCube.Summary summary, boolean[] inFocus, boolean focused) {
        super(shape.metrics(), shape.regions(), shape.callPaths(), shape.locations(), shape.attributes());
        int[] ids = new int[shape.callPaths().size()];
        for (int c = 0; c < ids.length; c++) {
            ids[c] = shape.cnodeId(c);
        }
        if (ids.length > 0 && ids[0] >= 0) {
            setCnodeIds(ids);
        }
        // the metrics that do not apply to the run (OpenMP ones without OpenMP) stay left out
        for (int m = 0; m < shape.metrics().size(); m++) {
            if (shape.isOmitted(m)) {
                omit(m);
            }
        }
        this.summary = summary;
        this.inFocus = inFocus;
        this.focused = focused;
    }

    private static UnsupportedOperationException absent(String what) {
        return new UnsupportedOperationException("the cube's rows were written by the Spark executors and are not "
                + "held by the driver (" + what + ")");
    }

    @Override
    public double sumOverLocations(int metric, int callPath) {
        return focused && !inFocus[callPath] ? 0 : summary.sums()[metric][callPath];
    }

    @Override
    public double[] perLocation(int metric) {
        double[] sums = (focused ? summary.perLocationInFocus() : summary.perLocation())[metric];
        if (sums != null) {
            return sums.clone();
        }
        if (focused) {
            throw absent("sums over the focus of " + metrics().get(metric).uniqueName());
        }
        // a metric without a value at any location
        return new double[locations().size()];
    }

    @Override
    public boolean[] ranInParallelRegion() {
        return summary.ranInParallelRegion().clone();
    }

    @Override
    public double get(int metric, int callPath, int location) {
        if ((metric == MetricTree.DELAY || metric == MetricTree.DELAY_MPI) && !focused) {
            double[] row = summary.delayRows().get(StreamedCube.delayKey(metric, callPath, callPaths().size()));
            return row == null ? 0 : row[location];
        }
        throw absent("value of " + metrics().get(metric).uniqueName());
    }

    @Override
    public double[] rowOrNull(int metric, int callPath) {
        if (focused && !inFocus[callPath]) {
            // the copy's rows outside the focus are all zero: that is what the focus asks about them
            return null;
        }
        throw absent("row of " + metrics().get(metric).uniqueName());
    }

    @Override
    public void add(int metric, int callPath, int location, double v) {
        throw absent("add");
    }

    @Override
    public void set(int metric, int callPath, int location, double v) {
        throw absent("set");
    }

    /** The copy the default focus makes: the same sums without the call paths outside the focus. */
    @Override
    public SeverityCube mutableCopy() {
        if (focused) {
            throw absent("copy of a copy");
        }
        return new SummaryCube(this, summary, inFocus, true);
    }
}
