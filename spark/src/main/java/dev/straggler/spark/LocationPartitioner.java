package dev.straggler.spark;

import org.apache.spark.Partitioner;

/**
 * Locations in contiguous ranges, in location order: partition p holds locations
 * {@code [p·n/P, (p+1)·n/P)}. The location records and everything keyed by location (partners, collective outcomes)
 * share it, so joining them moves only the small side, and the partitions come back in location order.
 */
final class LocationPartitioner extends Partitioner {
    private final int locations;
    private final int partitions;

    LocationPartitioner(int locations, int partitions) {
        this.locations = Math.max(1, locations);
        this.partitions = Math.max(1, partitions);
    }

    @Override
    public int numPartitions() {
        return partitions;
    }

    @Override
    public int getPartition(Object key) {
        int l = (Integer) key;
        return (int) ((long) l * partitions / locations);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LocationPartitioner p && p.locations == locations && p.partitions == partitions;
    }

    @Override
    public int hashCode() {
        return 31 * locations + partitions;
    }
}
