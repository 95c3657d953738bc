package dev.straggler.trace;

import java.util.Objects;

/**
 * A thread of execution that records its own event stream.
 *
 * @param index  position in {@link TraceDefinitions#locations()}; event streams are addressed by it
 * @param id     the location's identifier in the source format (OTF2 location reference), kept for export
 * @param rank   the process (MPI rank for MPI programs, else location-group index) it belongs to
 * @param thread index of the location within its process (0 = master thread)
 * @param events number of event records, as declared by the source (-1 when not declared)
 */
public record Location(int index, long id, String name, LocationType type, int rank, int thread, long events) {

    public Location {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        if (index < 0) {
            throw new IllegalArgumentException("location index must be >= 0: " + index);
        }
    }

    /** The master CPU thread of a rank, named as Score-P names it. */
    public static Location masterThread(int index, int rank) {
        return new Location(index, index, "Master thread", LocationType.CPU_THREAD, rank, 0, -1);
    }

    public Location withEvents(long count) {
        return new Location(index, id, name, type, rank, thread, count);
    }
}
