package dev.straggler.patterns.rootcause;

import java.util.Arrays;

/**
 * A call path → seconds map of one synchronisation interval (Scalasca's {@code timemap_t} with its
 * {@code TimeMapSum}): keys are unified call-tree ids in ascending order, {@code sum} is carried separately because
 * Scalasca's operations do not always keep it equal to the sum of the values (pruning subtracts from it, and
 * {@code GetSynchpointTimes} replaces it by the interval's waiting time). Immutable once built.
 */
record TimeMap(int[] paths, double[] seconds, double sum) {
    static final TimeMap EMPTY = new TimeMap(new int[0], new double[0], 0);

    int size() {
        return paths.length;
    }

    /** The value of a call path, 0 when absent. */
    double get(int path) {
        int i = Arrays.binarySearch(paths, path);
        return i < 0 ? 0 : seconds[i];
    }

    TimeMap withSum(double s) {
        return new TimeMap(paths, seconds, s);
    }

    /** Scalasca's {@code CalculateDiff}: the positive part of {@code this − other}, per call path. */
    TimeMap minusPositive(TimeMap other) {
        int[] p = new int[paths.length];
        double[] v = new double[paths.length];
        int n = 0;
        double s = 0;
        int[] op = other.paths;
        int j = 0;
        for (int i = 0; i < paths.length; i++) {
            // both key lists ascend: a merge instead of a search per key
            while (j < op.length && op[j] < paths[i]) {
                j++;
            }
            double d = seconds[i] - (j < op.length && op[j] == paths[i] ? other.seconds[j] : 0);
            if (d > 0) {
                p[n] = paths[i];
                v[n++] = d;
                s += d;
            }
        }
        return new TimeMap(Arrays.copyOf(p, n), Arrays.copyOf(v, n), s);
    }
}
