/**
 * mpiP-style callsite statistics (reference §5), the IPM-style communication profile and the per-phase
 * computation / MPI / load-imbalance breakdown.
 *
 * <p>{@link dev.straggler.patterns.callsite.CallsiteProfiler} computes all three from a trace in one pass per rank
 * ({@link dev.straggler.patterns.callsite.TraceProfile}); {@link dev.straggler.patterns.callsite.CallsiteStatistics}
 * is also what {@link dev.straggler.patterns.mpip.MpipParser} makes of an mpiP report, so mpiP data feeds the
 * scaling analyses too. {@link dev.straggler.patterns.callsite.CallsiteText} prints mpiP's layout,
 * {@link dev.straggler.patterns.callsite.CallsiteJson} writes {@code straggler.callsites/1}.
 */
package dev.straggler.patterns.callsite;
