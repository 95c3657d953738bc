package dev.straggler.patterns.callsite;

import dev.straggler.patterns.scaling.ScalingExperiment;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * mpiP-style callsite statistics of one run, from a trace or from an mpiP report.
 *
 * @param origin    the trace or report it came from
 * @param depth     call-stack depth of the callsites (mpiP's {@code -k}); 0 means callsites are just MPI operations
 * @param appTime   per rank (index = rank): wall time from the end of MPI_Init to the start of MPI_Finalize, seconds
 * @param mpiTime   per rank: time inside MPI calls within that span, seconds
 * @param callsites by id
 * @param notes     what the source lacked or what was skipped (sections, events), for the user
 */
public record CallsiteStatistics(String origin, int depth, double[] appTime, double[] mpiTime,
                                 List<CallsiteEntry> callsites, List<String> notes) {
    public CallsiteStatistics {
        callsites = List.copyOf(callsites);
        notes = List.copyOf(notes);
        if (appTime.length != mpiTime.length) {
            throw new IllegalArgumentException("AppTime and MPITime differ in rank count");
        }
    }

    public int ranks() {
        return appTime.length;
    }

    public double appTotal() {
        double s = 0;
        for (double v : appTime) {
            s += v;
        }
        return s;
    }

    public double mpiTotal() {
        double s = 0;
        for (double v : mpiTime) {
            s += v;
        }
        return s;
    }

    /** Share of the rank's AppTime spent at this callsite, in %; for the All row the share of the summed AppTime. */
    public double appPercent(RankStats r) {
        double denom = r.rank() == RankStats.ALL ? appTotal() : (r.rank() < appTime.length ? appTime[r.rank()] : 0);
        return denom > 0 ? 100 * r.total() / denom : 0;
    }

    /** Share of the rank's MPI time, in %; for the All row the share of the summed MPI time. */
    public double mpiPercent(RankStats r) {
        double denom = r.rank() == RankStats.ALL ? mpiTotal() : (r.rank() < mpiTime.length ? mpiTime[r.rank()] : 0);
        return denom > 0 ? 100 * r.total() / denom : 0;
    }

    /** Callsites by total time, largest first (mpiP's aggregate-time order). */
    public List<CallsiteEntry> byTime() {
        List<CallsiteEntry> out = new ArrayList<>(callsites);
        out.sort((a, b) -> Double.compare(b.all().total(), a.all().total()));
        return out;
    }

    /**
     * This run as an experiment of the rank-correlation analysis: each callsite's aggregate time under its
     * cross-run {@link Callsite#key()}, divided later by the aggregate MPI time.
     */
    public ScalingExperiment toScalingExperiment(String label) {
        Map<String, Double> times = new LinkedHashMap<>();
        for (CallsiteEntry e : callsites) {
            times.merge(e.site().key(), e.all().total(), Double::sum);
        }
        return new ScalingExperiment(label, ranks(), times, mpiTotal());
    }
}
