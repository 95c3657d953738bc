package dev.straggler.replay;

import com.lmax.disruptor.BlockingWaitStrategy;
import com.lmax.disruptor.EventPoller;
import com.lmax.disruptor.RingBuffer;
import dev.straggler.trace.EventBatch;
import dev.straggler.trace.LocationReader;
import dev.straggler.trace.TraceSource;

import java.io.IOException;
import java.util.concurrent.locks.LockSupport;

/**
 * Reads one location on a dedicated decoding thread and hands its batches to the replaying thread through a
 * Disruptor ring of pre-allocated {@link EventBatch} slots: the reader decodes straight into a slot, so the
 * hand-off copies nothing and allocates nothing per batch (Disruptor moves ~90 M events/s when batched, style.md).
 * It pays only when a core is left idle by the replay threads ({@link Reading#AUTO}, measurements there).
 *
 * <p>One consumer: {@link #drain} is called once, by the thread that owns this reader.
 */
public final class PipelinedReader implements AutoCloseable {
    private static final int SLOTS = 8;

    /** A ring slot: a batch, or the end of the stream, or the reader's failure. */
    private static final class Slot {
        final EventBatch batch;
        final int capacity;
        boolean end;
        IOException error;

        Slot(int capacity) {
            this.capacity = capacity;
            batch = new EventBatch(capacity);
        }
    }

    /**
     * Slots of closed readers, for the next reader: a replay opens one reader per location, and allocating (and
     * zeroing) eight batches of seven columns each time had cost as much as a tenth of a root-cause analysis of many
     * small locations. Bounded by what the analysis threads use at once.
     */
    private static final java.util.concurrent.ConcurrentLinkedQueue<Slot> FREE =
            new java.util.concurrent.ConcurrentLinkedQueue<>();
    private static final java.util.concurrent.atomic.AtomicInteger FREE_COUNT =
            new java.util.concurrent.atomic.AtomicInteger();
    private static final int FREE_LIMIT = 2 * SLOTS * Runtime.getRuntime().availableProcessors();

    private static Slot take(int capacity) {
        for (Slot s; (s = FREE.poll()) != null; ) {
            FREE_COUNT.decrementAndGet();
            if (s.capacity == capacity) {
                s.end = false;
                s.error = null;
                s.batch.clear();
                return s;
            }
        }
        return new Slot(capacity);
    }

    /** Receives each batch on the draining thread; the batch is only valid during the call. */
    @FunctionalInterface
    public interface BatchHandler {
        void accept(EventBatch batch) throws IOException;
    }

    private final RingBuffer<Slot> ring;
    private final EventPoller<Slot> poller;
    private final Thread producer;
    private volatile boolean stopped;

    public PipelinedReader(TraceSource source, int location, int batchSize) {
        ring = RingBuffer.createSingleProducer(() -> take(batchSize), SLOTS, new BlockingWaitStrategy());
        poller = ring.newPoller();
        ring.addGatingSequences(poller.getSequence());
        producer = new Thread(() -> produce(source, location), "straggler-decode-" + location);
        producer.setDaemon(true);
        producer.start();
    }

    private void produce(TraceSource source, int location) {
        // a sequence claimed but not yet published: a failing read must publish its failure in that very slot, since
        // publishing a later one would hand the consumer this slot with whatever it held before
        long claimed = -1;
        try (LocationReader r = source.openLocation(location)) {
            while (!stopped) {
                claimed = ring.next();
                Slot s = ring.get(claimed);
                s.error = null;
                s.end = !r.next(s.batch);
                ring.publish(claimed);
                claimed = -1;
                if (s.end) {
                    return;
                }
            }
        } catch (IOException | RuntimeException e) {
            long seq = claimed >= 0 ? claimed : ring.next();
            Slot s = ring.get(seq);
            s.batch.clear();
            s.end = true;
            s.error = e instanceof IOException io ? io : new IOException(e.getMessage(), e);
            ring.publish(seq);
        }
    }

    /** Passes every batch of the location to {@code handler}, in order, then returns. */
    public void drain(BatchHandler handler) throws IOException {
        final boolean[] finished = {false};
        final IOException[] failure = {null};
        int idle = 0;
        while (!finished[0]) {
            EventPoller.PollState state;
            try {
                state = poller.poll((slot, sequence, endOfBatch) -> {
                    if (slot.end) {
                        finished[0] = true;
                        failure[0] = slot.error;
                        return false;
                    }
                    handler.accept(slot.batch);
                    return true;
                });
            } catch (IOException | RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IOException(e.getMessage(), e);
            }
            if (state == EventPoller.PollState.PROCESSING) {
                idle = 0;
            } else if (++idle < 100) {
                Thread.onSpinWait();
            } else {
                // the decoder is behind: back off instead of burning the core it needs
                LockSupport.parkNanos(10_000);
            }
        }
        if (failure[0] != null) {
            throw failure[0];
        }
    }

    @Override
    public void close() {
        stopped = true;
        // Release the ring so that a decoder blocked on a full ring can see the stop flag and exit.
        while (producer.isAlive()) {
            try {
                poller.poll((slot, sequence, endOfBatch) -> true);
            } catch (Exception e) {
                // discarding slots cannot fail
            }
            LockSupport.parkNanos(100_000);
        }
        // the decoder has ended: no one writes the slots any more
        for (int i = 0; i < SLOTS; i++) {
            if (FREE_COUNT.incrementAndGet() <= FREE_LIMIT) {
                FREE.add(ring.get(i));
            } else {
                FREE_COUNT.decrementAndGet();
            }
        }
    }
}
