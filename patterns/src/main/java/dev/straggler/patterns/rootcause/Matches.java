package dev.straggler.patterns.rootcause;

import dev.straggler.replay.LocationData;
import dev.straggler.replay.MessageMatching;
import dev.straggler.replay.Replay;

import java.io.IOException;
import java.util.Arrays;
import java.util.concurrent.ExecutorService;

/**
 * Both directions of the point-to-point matching, as random-access arrays (the replay's cursors walk in order
 * only): per receive its send, per send its receive, each as (location, row); -1 where unmatched.
 */
final class Matches {
    private final int[][] recvLoc;
    private final int[][] recvIdx;
    private final int[][] sendLoc;
    private final int[][] sendIdx;

    /** Locations on the pool's threads: a send is the partner of at most one receive, so no row is written twice. */
    Matches(Replay replay, ExecutorService pool, int threads) throws IOException {
        int n = replay.locations().size();
        recvLoc = new int[n][];
        recvIdx = new int[n][];
        sendLoc = new int[n][];
        sendIdx = new int[n][];
        RootCauses.forEach(pool, threads, n, l -> {
            LocationData d = replay.location(l);
            sendLoc[l] = new int[d.sends().size()];
            sendIdx[l] = new int[d.sends().size()];
            Arrays.fill(sendLoc[l], -1);
            Arrays.fill(sendIdx[l], -1);
        });
        RootCauses.forEach(pool, threads, n, l -> {
            LocationData d = replay.location(l);
            int size = d.receives().size();
            recvLoc[l] = new int[size];
            recvIdx[l] = new int[size];
            MessageMatching.ReceiveCursor c = replay.messages().receiveCursor(l);
            for (int i = 0; i < size; i++) {
                int j = c.partner(i);
                int sl = c.partnerLocation();
                recvLoc[l][i] = j < 0 ? -1 : sl;
                recvIdx[l][i] = j;
                if (j >= 0) {
                    sendLoc[sl][j] = l;
                    sendIdx[sl][j] = i;
                }
            }
        });
    }

    int recvPartnerLocation(int location, int recv) {
        return recvLoc[location][recv];
    }

    int recvPartner(int location, int recv) {
        return recvIdx[location][recv];
    }

    int sendPartnerLocation(int location, int send) {
        return sendLoc[location][send];
    }

    int sendPartner(int location, int send) {
        return sendIdx[location][send];
    }
}
