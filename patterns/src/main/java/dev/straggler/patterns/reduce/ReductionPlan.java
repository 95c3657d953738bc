package dev.straggler.patterns.reduce;

import dev.straggler.trace.Region;
import dev.straggler.trace.filter.RegionFilter;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The outcome of {@link ReductionPlanner}: which regions to drop and why, and the trace before and after.
 *
 * @param statistics the figures the plan was made from
 * @param excluded   per region id: dropped
 * @param decisions  one per visited region, in the order of {@link RegionStatistics#presentRegions()}
 * @param before     events and bytes of the trace as it is
 * @param after      the estimate with the dropped regions' ENTER/LEAVE (and Score-P's records of them) removed
 * @param budgetMet  true without a budget, else whether {@code after} fits it
 * @param notes      what the planner could not do (a budget out of reach, a COM function kept to avoid a merge)
 * @param policy     the policy applied, in words (shown with the table)
 */
public record ReductionPlan(RegionStatistics statistics, boolean[] excluded, List<Decision> decisions,
                            RegionStatistics.Totals before, RegionStatistics.Totals after, boolean budgetMet,
                            List<String> notes, String policy) {

    /** Why a region is kept or dropped. */
    public record Decision(int region, String name, ScoreType type, boolean excluded, String reason) {
    }

    public ReductionPlan {
        excluded = excluded.clone();
        decisions = List.copyOf(decisions);
        notes = List.copyOf(notes);
    }

    public boolean excluded(int region) {
        return excluded[region];
    }

    public List<String> excludedNames() {
        return names(true);
    }

    /** Visited regions that stay. */
    public List<String> keptNames() {
        return names(false);
    }

    private List<String> names(boolean dropped) {
        List<String> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (Decision d : decisions) {
            if (d.excluded() == dropped && seen.add(d.name())) {
                out.add(d.name());
            }
        }
        return out;
    }

    /** The plan as a filter over region definitions: a region is excluded when one of that name is dropped. */
    public RegionFilter asFilter() {
        Set<String> drop = new HashSet<>(excludedNames());
        return (Region r) -> !RegionFilter.protectedRegion(r) && drop.contains(r.name());
    }
}
