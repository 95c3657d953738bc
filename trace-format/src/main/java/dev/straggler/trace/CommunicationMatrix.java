package dev.straggler.trace;

import java.io.IOException;

/**
 * Point-to-point traffic between ranks, counted from the send side (MPI_SEND and MPI_ISEND records; sends whose
 * request is later cancelled are included, as the record was written). Peers are translated from communicator
 * ranks to global ranks through the communicator's member list (reference §6.7).
 *
 * @param messages [sender][receiver] number of messages
 * @param bytes    [sender][receiver] bytes sent
 */
public record CommunicationMatrix(long[][] messages, long[][] bytes) {

    public int ranks() {
        return messages.length;
    }

    public long totalMessages() {
        long s = 0;
        for (long[] row : messages) {
            for (long v : row) {
                s += v;
            }
        }
        return s;
    }

    public long totalBytes() {
        long s = 0;
        for (long[] row : bytes) {
            for (long v : row) {
                s += v;
            }
        }
        return s;
    }

    /** Scans all locations in parallel. @throws TraceFormatException for a send on an undefined communicator or peer */
    public static CommunicationMatrix compute(TraceSource trace) throws IOException {
        TraceDefinitions d = trace.definitions();
        int ranks = 0;
        for (Location l : d.locations()) {
            ranks = Math.max(ranks, l.rank() + 1);
        }
        for (Communicator c : d.communicators()) {
            for (int m : c.members()) {
                ranks = Math.max(ranks, m + 1);
            }
        }
        int n = ranks;
        int locs = d.locations().size();
        long[][][] msg = new long[locs][][];
        long[][][] by = new long[locs][][];
        ParallelLocations.forEach(locs, l -> {
                long[][] m = new long[n][n];
                long[][] b = new long[n][n];
                int src = d.location(l).rank();
                EventBatch e = new EventBatch(8192);
                try (LocationReader r = trace.openLocation(l)) {
                    while (r.next(e)) {
                        for (int i = 0; i < e.size; i++) {
                            if (e.kind[i] == EventKind.MPI_SEND_CODE || e.kind[i] == EventKind.MPI_ISEND_CODE) {
                                int c = e.comm[i];
                                if (c < 0 || c >= d.communicators().size() || e.ref[i] < 0
                                        || e.ref[i] >= d.communicator(c).size()) {
                                    throw new TraceFormatException(trace.origin() + ": location " + l
                                            + ", event " + (e.firstIndex + i) + ": send to rank " + e.ref[i]
                                            + " of undefined or smaller communicator " + c);
                                }
                                int dst = d.communicator(c).members()[e.ref[i]];
                                m[src][dst]++;
                                b[src][dst] += e.bytes[i];
                            }
                        }
                    }
                }
                msg[l] = m;
                by[l] = b;
            });
        long[][] m = new long[n][n];
        long[][] b = new long[n][n];
        for (int l = 0; l < locs; l++) {
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    m[i][j] += msg[l][i][j];
                    b[i][j] += by[l][i][j];
                }
            }
        }
        return new CommunicationMatrix(m, b);
    }
}
