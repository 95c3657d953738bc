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
        int n = ranks(d);
        int locs = d.locations().size();
        long[][][] rows = new long[locs][][];
        ParallelLocations.forEach(locs, l -> rows[l] = senderRow(trace, l, n));
        long[][] m = new long[n][n];
        long[][] b = new long[n][n];
        for (int l = 0; l < locs; l++) {
            add(m, b, d.location(l).rank(), rows[l]);
        }
        return new CommunicationMatrix(m, b);
    }

    /** The matrix's size: every rank a location or a communicator names. */
    public static int ranks(TraceDefinitions d) {
        int ranks = 0;
        for (Location l : d.locations()) {
            ranks = Math.max(ranks, l.rank() + 1);
        }
        for (Communicator c : d.communicators()) {
            for (int m : c.members()) {
                ranks = Math.max(ranks, m + 1);
            }
        }
        return ranks;
    }

    /** Adds a location's {@link #senderRow} to the row of its rank. */
    public static void add(long[][] messages, long[][] bytes, int rank, long[][] row) {
        for (int j = 0; j < row[0].length; j++) {
            if (row[0][j] != 0 || row[1][j] != 0) {
                messages[rank][j] += row[0][j];
                bytes[rank][j] += row[1][j];
            }
        }
    }

    /**
     * One location's sends: {@code [0][dst]} messages and {@code [1][dst]} bytes to each global rank (the row of the
     * location's rank). Engines that read locations elsewhere sum these rows with {@link #add}.
     */
    public static long[][] senderRow(TraceSource trace, int l, int ranks) throws IOException {
        TraceDefinitions d = trace.definitions();
        long[] m = new long[ranks];
        long[] b = new long[ranks];
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
                        m[dst]++;
                        b[dst] += e.bytes[i];
                    }
                }
            }
        }
        return new long[][] {m, b};
    }
}
