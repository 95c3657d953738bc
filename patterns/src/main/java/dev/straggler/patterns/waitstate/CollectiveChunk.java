package dev.straggler.patterns.waitstate;

/**
 * A run of consecutive collective instances of one communicator, evaluated together: the unit of work of the
 * collective stage on one machine (a task) and on Spark (one group of a keyed grouping by communicator and chunk).
 * Both engines cut the instances the same way ({@link #instancesPerChunk}) and merge the chunks' most severe
 * occurrences in (communicator, chunk) order, so they keep the same occurrences even where severities tie.
 */
public final class CollectiveChunk {
    /** About this many member records per chunk: bounded work and memory whatever the communicator size. */
    private static final int RECORDS_PER_CHUNK = 1 << 16;

    private CollectiveChunk() {
    }

    /** Instances per chunk on a communicator of {@code size} members. */
    public static int instancesPerChunk(int size) {
        return Math.max(1, RECORDS_PER_CHUNK / Math.max(1, size));
    }

    /**
     * Member records of {@code instances} consecutive instances of a communicator of {@code size} members, as
     * columns in (instance, communicator rank) order: row {@code k * size + j} is member j's record of the chunk's
     * k-th instance.
     *
     * @param location the member's location, record its row in that location's collective table
     * @param path     the unified call path of the record
     */
    public record Members(int size, int instances, long[] begin, long[] end, long[] sent, long[] received, byte[] op,
                         int[] root, int[] location, int[] record, int[] path, int[] rank, int[] thread) {
    }

    /**
     * Receives each member's outcome of an evaluated instance: instance {@code k} of the chunk, member (communicator
     * rank) {@code j}, whose record is row {@code k * size + j} of the {@link Members}.
     */
    public interface Sink {
        void outcome(int k, int j, long waitTime, long completion, byte violation, byte flags, int reference);
    }

    /**
     * Evaluates the instances with their patterns, passes every member's outcome to {@code sink} and returns the
     * chunk's most severe occurrences.
     */
    public static InstanceCollector evaluate(Members m, int topInstances, Sink sink) {
        InstanceCollector found = new InstanceCollector(topInstances);
        CollectiveInstance inst = new CollectiveInstance();
        for (int k = 0; k < m.instances(); k++) {
            int instance = k;
            inst.load(m, k);
            CollectiveReplay.evaluate(inst, found, (in, j) -> sink.outcome(instance, j, in.waitTime[j],
                    in.completion[j], in.violation[j], CollectiveOutcomes.flagsOf(in, j), in.reference));
        }
        return found;
    }
}
