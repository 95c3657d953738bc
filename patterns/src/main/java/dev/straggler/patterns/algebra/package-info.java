/**
 * Profile algebra on severity cubes (reference §3.7): {@link dev.straggler.patterns.algebra.ProfileAlgebra#diff},
 * {@link dev.straggler.patterns.algebra.ProfileAlgebra#merge}, {@link dev.straggler.patterns.algebra.ProfileAlgebra#mean}
 * and {@link dev.straggler.patterns.algebra.ProfileAlgebra#collapse}, and the
 * {@link dev.straggler.patterns.algebra.DiffReport} that explains a difference in one sentence, and the change of
 * the waiting by its causes ({@link dev.straggler.patterns.algebra.DelayCauses}), with
 * {@link dev.straggler.patterns.algebra.DiffText} and {@link dev.straggler.patterns.algebra.DiffJson} renderers.
 * {@link dev.straggler.patterns.algebra.CauseMetrics} says how the root-cause metrics take part: not at all from an
 * operand analysed without them, and the critical path never per rank.
 *
 * <p>Call trees are unified by region name and file, callsite and parent ({@link dev.straggler.patterns.algebra.DimensionUnion});
 * operands with different ranks are compared as sums over ranks ({@link dev.straggler.patterns.algebra.SystemMode}),
 * and results record that in their attributes ({@link dev.straggler.patterns.algebra.CubeAttributes}). Operands are
 * never modified; results are frozen cubes that can be operands again or be written as {@code .cubex}.
 * {@link dev.straggler.patterns.algebra.Operands#load} reads an operand from a {@code .cubex}, an analysis document or a
 * trace analysed on the fly.
 */
package dev.straggler.patterns.algebra;
