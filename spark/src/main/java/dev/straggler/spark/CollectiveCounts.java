package dev.straggler.spark;

import dev.straggler.trace.TraceDefinitions;

import java.util.List;

/**
 * The collective instances formed on the driver from each master location's record count per communicator, by the
 * rule of the single-machine matching: instance k of a communicator is every member's k-th collective on it, so a
 * communicator has as many complete instances as its member with the fewest records; records beyond that, and all
 * records of a communicator with a member rank missing from the trace, belong to no instance.
 */
final class CollectiveCounts {
    final int[] instances;
    long total;
    long unmatchedRecords;
    long incompleteCommunicators;

    private CollectiveCounts(int comms) {
        instances = new int[comms];
    }

    static CollectiveCounts form(TraceDefinitions defs, List<LocationFacts> facts) {
        int[] locationOfRank = defs.masterLocationByRank();
        int comms = defs.communicators().size();
        CollectiveCounts out = new CollectiveCounts(comms);
        for (int c = 0; c < comms; c++) {
            int[] members = defs.communicator(c).members();
            int min = Integer.MAX_VALUE;
            int max = 0;
            boolean complete = true;
            int[] counts = new int[members.length];
            boolean[] present = new boolean[members.length];
            for (int j = 0; j < members.length; j++) {
                int rank = members[j];
                int l = rank >= 0 && rank < locationOfRank.length ? locationOfRank[rank] : -1;
                if (l < 0) {
                    complete = false;
                } else {
                    present[j] = true;
                    counts[j] = facts.get(l).collectives(c);
                }
                min = Math.min(min, counts[j]);
                max = Math.max(max, counts[j]);
            }
            if (members.length == 0 || max == 0) {
                continue;
            }
            if (!complete) {
                out.incompleteCommunicators++;
                for (int j = 0; j < members.length; j++) {
                    if (present[j]) {
                        out.unmatchedRecords += counts[j];
                    }
                }
                continue;
            }
            out.instances[c] = min;
            out.total += min;
            for (int j = 0; j < members.length; j++) {
                out.unmatchedRecords += counts[j] - min;
            }
        }
        return out;
    }
}
