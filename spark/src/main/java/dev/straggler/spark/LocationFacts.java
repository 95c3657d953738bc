package dev.straggler.spark;

import dev.straggler.replay.Anomaly;
import dev.straggler.replay.CallTree;
import dev.straggler.replay.CollectiveTable;
import dev.straggler.replay.LocationData;
import dev.straggler.replay.RecvTable;
import it.unimi.dsi.fastutil.ints.Int2IntAVLTreeMap;

import java.io.Serializable;

/**
 * What the driver needs of one location, a few hundred bytes: its call tree (merged on the driver), its timing and
 * MPI_Init/MPI_Finalize facts, anomaly counts, how many collective records it has per communicator (the
 * collective instances are formed from these counts) and whether it recorded an OpenMP construct. No per-event data.
 */
record LocationFacts(int location, int rank, long events, long firstTime, long lastTime, boolean hasMpi,
                     boolean hasInit, long initEnter, long initLeave, boolean hasFinalize, long finalizeEnter,
                     long finalizeLeave, long[] anomalies, long recordBytes, long receivesInMpi,
                     CallTree.LocalTree tree, int[] collectiveComms, int[] collectiveCounts, boolean threadRecords,
                     long marks)
        implements Serializable {

    static LocationFacts of(LocationData d) {
        long[] anomalies = new long[Anomaly.values().length];
        d.anomalyCounts().forEach((a, n) -> anomalies[a.ordinal()] = n);
        RecvTable r = d.receives();
        long inMpi = 0;
        for (int i = 0; i < r.size(); i++) {
            if (r.inMpi(i)) {
                inMpi++;
            }
        }
        Int2IntAVLTreeMap perComm = new Int2IntAVLTreeMap();
        CollectiveTable c = d.collectives();
        for (int i = 0; i < c.size(); i++) {
            perComm.addTo(c.comm(i), 1);
        }
        int[] comms = perComm.keySet().toIntArray();
        int[] counts = perComm.values().toIntArray();
        boolean mpi = d.sends().size() > 0 || r.size() > 0 || c.size() > 0 || d.hasInit();
        return new LocationFacts(d.location(), d.rank(), d.events(), d.firstTime(), d.lastTime(), mpi, d.hasInit(),
                d.initEnter(), d.initLeave(), d.hasFinalize(), d.finalizeEnter(), d.finalizeLeave(), anomalies,
                d.recordBytes(), inMpi, CallTree.LocalTree.of(d.profile()), comms, counts, !d.threads().isEmpty(),
                d.intervals() == null ? 0 : d.intervals().size());
    }

    /** Collective records on communicator {@code comm}. */
    int collectives(int comm) {
        for (int i = 0; i < collectiveComms.length; i++) {
            if (collectiveComms[i] == comm) {
                return collectiveCounts[i];
            }
        }
        return 0;
    }
}
