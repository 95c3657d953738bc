package dev.straggler.trace;

/**
 * The region stack of {@link LocationReader#openRegions()}: ENTER pushes its region, LEAVE pops (a LEAVE on an
 * empty stack is ignored, as the replay and the timeline ignore it). One rule, shared by the store's writer
 * (which indexes the stack at each batch start) and the readers that seek, so that both agree.
 */
public final class OpenRegions {
    private OpenRegions() {
    }

    /**
     * Applies one event to {@code stack[0, depth)} and returns the new depth. The caller guarantees room for one
     * more entry ({@code depth < stack.length}) before the call.
     */
    public static int apply(byte kind, int ref, int[] stack, int depth) {
        if (kind == EventKind.ENTER_CODE) {
            stack[depth] = ref;
            return depth + 1;
        }
        if (kind == EventKind.LEAVE_CODE && depth > 0) {
            return depth - 1;
        }
        return depth;
    }
}
