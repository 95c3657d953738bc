package dev.straggler.patterns;

/**
 * Kinds of clock-condition violation: an effect timestamped before its cause (reference §1.1, §2). Each is
 * detected where Scalasca detects it, counted once per affected receive or collective member, and clipped.
 */
public enum ViolationKind {
    /** A receive record timestamped before the record of its send. */
    RECEIVE_BEFORE_SEND(true, "receive before its send"),
    /** A collective member ends before the latest (sending) member began. */
    END_BEFORE_LATEST_BEGIN(false, "collective end before the last begin"),
    /** A 1-to-N member ends before the root began. */
    END_BEFORE_ROOT_BEGIN(false, "collective end before the root's begin"),
    /** A rank leaves MPI_Init or MPI_Finalize before the last rank entered it. */
    INIT_FINALIZE_LEAVE_BEFORE_LAST_ENTER(false, "MPI_Init/MPI_Finalize left before the last rank entered");

    private final boolean pointToPoint;
    private final String description;

    ViolationKind(boolean pointToPoint, String description) {
        this.pointToPoint = pointToPoint;
        this.description = description;
    }

    public boolean pointToPoint() {
        return pointToPoint;
    }

    public String description() {
        return description;
    }
}
