package dev.straggler.patterns;

import java.util.List;
import java.util.Objects;

/**
 * Why one of the most severe wait-state instances waited: the delay the root-cause analysis charged its waiting to
 * (Scalasca's short-term delay costs; Böhme et al., reference §9). The delaying location's execution since its
 * previous synchronisation with the waiting side is compared with the waiting side's over the same stretch; the
 * call paths where the delaying location spent more time carry the delay, scaled so that delay and propagated
 * waiting together explain at most the wait. Times are seconds since the start of the measurement. Serializable: a
 * distributed engine finds a cause where the delaying location is held.
 *
 * @param instance   the instance explained (one of {@link AnalysisResult#mostSevere})
 * @param rank       rank of the delaying location: the late sender or receiver, or the member of a collective
 *                   whose late arrival the others waited for
 * @param thread     thread of the delaying location
 * @param from       begin of the stretch compared on the delaying location: the call of its previous
 *                   synchronisation with the waiting side, or its first event when there was none
 * @param to         end of that stretch: the begin of the call the waiting side waited for
 * @param delay      seconds of the instance's waiting charged to that stretch (the sum of {@code callPaths}),
 *                   never more than the instance's severity
 * @param propagated seconds of the instance's waiting explained instead by the delaying location itself waiting
 *                   within the stretch (waiting that propagated); {@code delay + propagated} never exceeds the
 *                   instance's severity
 * @param callPaths  where the delay lies, the largest part first: every call path with a positive part
 */
public record DelayCause(Instance instance, int rank, int thread, double from, double to, double delay,
                         double propagated, List<Part> callPaths) implements java.io.Serializable {
    public DelayCause {
        Objects.requireNonNull(instance, "instance");
        callPaths = List.copyOf(callPaths);
    }

    /** One call path's part of a delay: seconds of the waiting charged to it. */
    public record Part(int callPath, double seconds) implements java.io.Serializable {
    }
}
