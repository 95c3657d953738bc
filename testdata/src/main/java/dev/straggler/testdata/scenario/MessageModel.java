package dev.straggler.testdata.scenario;

import dev.straggler.testdata.sim.MpiCall;
import dev.straggler.testdata.sim.NetworkModel;

/**
 * The simulator's cost model for one message, in closed form: when the calls of a blocking send and a blocking
 * receive are left, given when they were entered (see {@link NetworkModel}).
 */
final class MessageModel {
    private MessageModel() {
    }

    /** {sendLeave, recvLeave} of a blocking send entered at {@code t} and its blocking receive entered at {@code p}. */
    static long[] blocking(NetworkModel net, MpiCall send, long bytes, long t, long p) {
        long o = net.overhead();
        if (net.rendezvous(send, bytes)) {
            long done = Math.max(t, p) + net.transfer(bytes);
            return new long[] {Math.max(t + o, done), Math.max(p + o, done)};
        }
        return new long[] {t + o, Math.max(p + o, t + net.transfer(bytes))};
    }

    /**
     * Completion times of the send and receive requests of a message sent (Isend, or the send half of a call) at
     * {@code t} and whose receive was posted at {@code p}: {sendComplete, recvComplete}.
     */
    static long[] requests(NetworkModel net, MpiCall send, long bytes, long t, long p) {
        if (net.rendezvous(send, bytes)) {
            long done = Math.max(t, p) + net.transfer(bytes);
            return new long[] {done, done};
        }
        return new long[] {t + net.overhead(), t + net.transfer(bytes)};
    }
}
