package dev.straggler.trace;

import java.io.IOException;
import java.util.Arrays;

/**
 * Delivers the events of an underlying reader from the first one with time {@code >= fromTick}, dropping the
 * earlier ones while keeping the ENTER/LEAVE stack they leave open (see {@link LocationReader#openRegions()}).
 * The default of {@link TraceSource#openLocation(int, long)}: it decodes everything before the seek point.
 */
public final class TimeSkippingReader implements LocationReader {
    private final LocationReader in;
    private final long fromTick;
    private final EventBatch buffer = new EventBatch(1024);
    private int[] stack = new int[16];
    private int depth;
    private boolean positioned;
    /** Offset in {@link #buffer} of the first event to deliver, or -1 when the buffer is spent. */
    private int offset = -1;

    public TimeSkippingReader(LocationReader in, long fromTick) {
        this.in = in;
        this.fromTick = fromTick;
    }

    /** Reads up to the first event {@code >= fromTick}, keeping the batch that holds it. */
    private void position() throws IOException {
        if (positioned) {
            return;
        }
        positioned = true;
        while (in.next(buffer)) {
            for (int i = 0; i < buffer.size; i++) {
                if (buffer.time[i] >= fromTick) {
                    offset = i;
                    return;
                }
                depth = OpenRegions.apply(buffer.kind[i], buffer.ref[i], stack, depth);
                if (depth == stack.length) {
                    stack = Arrays.copyOf(stack, depth * 2);
                }
            }
        }
    }

    @Override
    public boolean next(EventBatch batch) throws IOException {
        position();
        if (offset >= 0) {
            batch.clear();
            batch.addAll(buffer, offset, buffer.size);
            batch.firstIndex = buffer.firstIndex + offset;
            offset = -1;
            return true;
        }
        return in.next(batch);
    }

    @Override
    public int[] openRegions() throws IOException {
        position();
        return Arrays.copyOf(stack, depth);
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
