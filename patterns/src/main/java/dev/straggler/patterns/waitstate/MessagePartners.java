package dev.straggler.patterns.waitstate;

/**
 * The partner of each point-to-point record of one location, as the patterns need it: for a receive, its send's
 * Enter and record time, size and sender rank; for a send, its receive's request Enter (the receive call's Enter,
 * or the Irecv's for a non-blocking receive) and receiver rank. Asked in increasing row order, receives first, then
 * sends; the values of the last match stay valid until the next call. On one machine the envelope queues answer
 * ({@link ReplayPartners}); on Spark, a keyed join of all sends with all receives does. One instance per location,
 * used by one thread.
 */
public interface MessagePartners {
    /** True when receive row {@code i} has a matching send; then the {@code send*} accessors describe it. */
    boolean matchReceive(int i);

    long sendEnter();

    long sendTime();

    long sendBytes();

    int sendRank();

    /** True when send row {@code j} has a matching receive; then the {@code receive*} accessors describe it. */
    boolean matchSend(int j);

    long receiveRequestEnter();

    int receiveRank();
}
