/** Reading mpiP reports ({@code *.mpiP}, reference §5) into {@link dev.straggler.patterns.callsite.CallsiteStatistics}. */
package dev.straggler.patterns.mpip;
