package dev.straggler.patterns.callsite;

import java.util.List;
import java.util.Objects;

/**
 * An MPI callsite: the MPI operation and the stack of calling functions up to the configured depth, innermost
 * first (mpiP's callsite, reference §5: two calls share a callsite when operation and every frame are equal).
 *
 * @param id      1-based number within one report or trace, as mpiP's callsite ID; not comparable across runs
 * @param mpiCall the MPI operation as the source names it ("MPI_Allreduce" from traces, "Allreduce" from mpiP)
 * @param frames  calling functions, innermost first; empty at depth 0, where a callsite is just the operation
 */
public record Callsite(int id, String mpiCall, List<Frame> frames) {
    public Callsite {
        Objects.requireNonNull(mpiCall, "mpiCall");
        frames = List.copyOf(frames);
    }

    /** The operation without its {@code MPI_} prefix, as mpiP prints it. */
    public String operation() {
        return mpiCall.regionMatches(true, 0, "MPI_", 0, 4) ? mpiCall.substring(4) : mpiCall;
    }

    /**
     * What identifies the callsite across experiments, readable: operation without its prefix and frames by
     * function, file and line ("Allreduce < solve (cg.f:312) < main (cg.f:40)"). Callsite ids differ between runs;
     * this does not.
     */
    public String key() {
        StringBuilder sb = new StringBuilder(operation());
        for (Frame f : frames) {
            sb.append(" < ").append(f.function());
            if (!f.file().isEmpty() || f.line() != 0) {
                sb.append(" (").append(f.file()).append(':').append(f.line()).append(')');
            }
        }
        return sb.toString();
    }

    /** "Allreduce @ solve < main", for tables. */
    public String label() {
        if (frames.isEmpty()) {
            return operation();
        }
        StringBuilder sb = new StringBuilder(operation()).append(" @ ");
        for (int i = 0; i < frames.size(); i++) {
            if (i > 0) {
                sb.append(" < ");
            }
            sb.append(frames.get(i).function());
        }
        return sb.toString();
    }
}
