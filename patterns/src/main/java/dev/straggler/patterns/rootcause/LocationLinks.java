package dev.straggler.patterns.rootcause;

import dev.straggler.replay.CallPathIntervals;
import dev.straggler.replay.LocationData;

import java.util.Arrays;

/**
 * Where each communication record of a location sits among its marks ({@link CallPathIntervals}): the mark of a
 * send, of its completion, of a receive, of its request and of a collective end. -1 where there is none.
 */
final class LocationLinks {
    final int[] sendMark;
    final int[] sendCompleteMark;
    final int[] recvMark;
    final int[] requestMark;
    final int[] collectiveMark;
    int initMark = -1;
    int finalizeMark = -1;

    LocationLinks(LocationData loc) {
        CallPathIntervals iv = loc.intervals();
        sendMark = filled(loc.sends().size());
        sendCompleteMark = filled(loc.sends().size());
        recvMark = filled(loc.receives().size());
        requestMark = filled(loc.receives().size());
        collectiveMark = filled(loc.collectives().size());
        for (int m = 0; m < iv.size(); m++) {
            int r = iv.ref(m);
            switch (iv.kind(m)) {
                case CallPathIntervals.SEND -> {
                    sendMark[r] = m;
                    if (sendCompleteMark[r] < 0) {
                        // a blocking send is its own completion; an Isend's completion comes later
                        sendCompleteMark[r] = m;
                    }
                }
                case CallPathIntervals.SEND_COMPLETE -> sendCompleteMark[r] = m;
                case CallPathIntervals.RECV -> {
                    recvMark[r] = m;
                    if (requestMark[r] < 0) {
                        requestMark[r] = m;
                    }
                }
                case CallPathIntervals.RECV_REQUEST -> {
                    if (r >= 0) {
                        requestMark[r] = m;
                    }
                }
                case CallPathIntervals.COLLECTIVE_END -> collectiveMark[r] = m;
                case CallPathIntervals.INIT -> initMark = m;
                case CallPathIntervals.FINALIZE -> finalizeMark = m;
                default -> {
                }
            }
        }
    }

    private static int[] filled(int n) {
        int[] a = new int[n];
        Arrays.fill(a, -1);
        return a;
    }
}
