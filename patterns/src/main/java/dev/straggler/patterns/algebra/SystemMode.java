package dev.straggler.patterns.algebra;

/** How the algebra treats the system dimension (ranks and threads) of its operands. */
public enum SystemMode {
    /** Per location when all operands have the same locations, else {@link #SUM}. */
    AUTO,
    /** Keep values per location; operands with different locations are an error. */
    PER_LOCATION,
    /** Collapse to one value per (metric, call path): the aggregate over all ranks. */
    SUM,
    /** Collapse to one value per (metric, call path): the aggregate divided by the operand's number of ranks. */
    MEAN
}
