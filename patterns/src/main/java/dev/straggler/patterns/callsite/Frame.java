package dev.straggler.patterns.callsite;

import java.util.Objects;

/**
 * One level of a callsite's stack: the function that made the call, where (mpiP's {@code Lev},
 * {@code File/Address}, {@code Line}, {@code Parent_Funct}, reference §5).
 *
 * @param file source file, or an address when the source is unknown; empty when not known at all
 * @param line source line of the call, 0 when unknown
 */
public record Frame(String function, String file, int line) {
    public Frame {
        Objects.requireNonNull(function, "function");
        file = file == null ? "" : file;
    }
}
