package dev.straggler.testdata.sim;

/**
 * A point-to-point request of one rank: a user request (Isend/Irecv, in a slot) or the internal request of a
 * blocking call. Reused: a slot's request object serves every Isend/Irecv made on that slot.
 */
final class Request {
    final int owner;
    boolean active;
    boolean send;
    /** True once the completion time is known (eager sends at once; otherwise when matched). */
    boolean matched;
    /** True while its owner is blocked in a call that waits for it. */
    boolean waited;
    long completeAt;
    /** OTF2 request id; 0 for the internal requests of blocking calls. */
    long id;

    // receive: what it matches, and when it was posted
    int comm;
    int source;
    int tag;
    long postTime;

    // receive: the message it matched (source rank in the communicator, tag, length)
    int peer;
    int msgTag;
    long bytes;

    Request(int owner) {
        this.owner = owner;
    }

    void startSend(long requestId) {
        active = true;
        send = true;
        matched = false;
        waited = false;
        id = requestId;
    }

    void startRecv(long requestId, int communicator, int src, int tg, long posted) {
        active = true;
        send = false;
        matched = false;
        waited = false;
        id = requestId;
        comm = communicator;
        source = src;
        tag = tg;
        postTime = posted;
    }

    boolean accepts(Message m) {
        return m.comm == comm && (source == Program.ANY_SOURCE || source == m.srcLocal)
                && (tag == Program.ANY_TAG || tag == m.tag);
    }
}
