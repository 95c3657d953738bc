package dev.straggler.testdata.sim;

/** A message in flight: sent, not yet matched by a receive. Pooled by the simulator. */
final class Message {
    int srcLocal;
    int comm;
    int tag;
    long bytes;
    long sendTime;
    boolean rendezvous;
    /** The sender's request, completed when a rendezvous message is matched; null for eager messages. */
    Request senderRequest;
}
