package dev.straggler.patterns.reduce;

import dev.straggler.trace.filter.RegionFilter;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Decides which regions an include list drops (reference §4; the policy is {@link ReductionOptions}'s):
 *
 * <ol>
 *   <li>never MPI calls and the other non-filterable types, never the names the user keeps, never a function on a
 *       call path to an OpenMP construct;</li>
 *   <li>USR functions selected by the tau_reduce rules, or by default the short ones that weigh in the trace;</li>
 *   <li>under a byte budget, more functions, cheapest to lose first: USR before COM, shorter inclusive time per
 *       visit first, then the larger byte count; a COM function only when dropping it merges no two communication
 *       call paths of which one carries wait states ({@link WaitStates}).</li>
 * </ol>
 *
 * Regions sharing a name are dropped together or not at all, since filter files select by name.
 */
public final class ReductionPlanner {
    private ReductionPlanner() {
    }

    /** Per region: some call path through it leads to an OpenMP region (which itself is never filtered). */
    private static boolean[] leadsToOpenMp(RegionStatistics s) {
        boolean[] out = new boolean[s.regions().size()];
        CallTreeProfile p = s.profile();
        for (int node = 0; node < p.nodeCount(); node++) {
            if (s.type(p.region(node)) != ScoreType.OMP) {
                continue;
            }
            for (int a = p.parent(node); a >= 0; a = p.parent(a)) {
                if (s.type(p.region(a)) != ScoreType.OMP) {
                    out[p.region(a)] = true;
                }
            }
        }
        return out;
    }

    /** Plans with the conservative assumption that every communication call path may carry wait states. */
    public static ReductionPlan plan(RegionStatistics s, ReductionOptions o) {
        return plan(s, o, WaitStates.possible(s));
    }

    /**
     * @param carries per profile node: the call path carries wait states (from {@link WaitStates})
     * @throws IllegalArgumentException when a rule cannot be evaluated on the profile
     */
    public static ReductionPlan plan(RegionStatistics s, ReductionOptions o, boolean[] carries) {
        if (o.rules() != null) {
            o.rules().checkEvaluable("rules");
        }
        int nr = s.regions().size();
        RegionStatistics.Totals before = s.totals(null);
        List<Integer> present = s.presentRegions();
        boolean[] drop = new boolean[nr];
        String[] reason = new String[nr];
        boolean[] locked = new boolean[nr];
        Map<String, List<Integer>> byName = new HashMap<>();
        for (int r : present) {
            byName.computeIfAbsent(s.regions().get(r).name(), k -> new ArrayList<>()).add(r);
        }
        boolean[] leadsToOpenMp = leadsToOpenMp(s);
        for (int r : present) {
            String name = s.regions().get(r).name();
            if (s.protectedRegion(r)) {
                reason[r] = s.type(r) == ScoreType.SCOREP ? "measurement system" : s.type(r) + " call: never filtered";
                locked[r] = true;
            } else if (o.keep().contains(name)) {
                reason[r] = "kept on request";
                locked[r] = true;
            } else if (o.causes().containsKey(name)) {
                reason[r] = "causes waiting: " + o.causes().get(name);
                locked[r] = true;
            } else if (leadsToOpenMp[r]) {
                // the OpenMP analysis hangs a team's call paths under the master's at the fork (docs/openmp.md):
                // without this function, the parallel regions below it would lose their place
                reason[r] = "leads to an OpenMP construct";
                locked[r] = true;
            }
        }
        // a name is droppable only when none of its regions is locked
        for (List<Integer> same : byName.values()) {
            if (same.stream().anyMatch(r -> locked[r])) {
                same.forEach(r -> {
                    if (!locked[r]) {
                        locked[r] = true;
                        reason[r] = "shares its name with a region that is kept";
                    }
                });
            }
        }
        boolean[] communicating = new boolean[nr];
        for (int r = 0; r < nr; r++) {
            communicating[r] = s.type(r).marksCallers();
        }
        PathMerges merges = new PathMerges(s.profile(), communicating, carries);
        List<String> notes = new ArrayList<>();
        double totalTime = before.time();
        long[] current = before.bytesPerRank().clone();
        long largest = before.maxBytes();

        for (int r : present) {
            if (locked[r]) {
                continue;
            }
            String why = null;
            if (o.rules() != null) {
                if (o.rules().selects(s, r, totalTime)) {
                    why = "rule: " + firstRule(o.rules(), s, r, totalTime);
                }
            } else if (s.type(r) == ScoreType.USR && o.policy() == ReductionOptions.Policy.PAPER) {
                // TAU/KOJAK: a user function that never leads to MPI is not instrumented, however long it runs
                why = String.format(Locale.ROOT, "never leads to MPI (%.3g µs per visit)", perVisitMicros(s, r));
            } else if (s.type(r) == ScoreType.USR) {
                double perVisit = perVisitMicros(s, r);
                double share = largest == 0 ? 0 : s.maxBytes(r) / (double) largest;
                if (perVisit < o.shortCallMicros() && share >= o.minBufferShare()) {
                    why = String.format(Locale.ROOT, "short: %.3g µs per visit, %.1f %% of max_buf", perVisit, 100 * share);
                }
            }
            if (why != null) {
                tryDrop(s, byName, drop, reason, r, why, merges, notes, current);
            }
        }

        if (o.budgetBytes() >= 0 && !fits(current, o)) {
            List<Integer> candidates = new ArrayList<>();
            for (int r : present) {
                if (!locked[r] && !drop[r]) {
                    candidates.add(r);
                }
            }
            candidates.sort(Comparator.<Integer>comparingInt(r -> s.type(r) == ScoreType.COM ? 1 : 0)
                    .thenComparingDouble(r -> perVisitMicros(s, r))
                    .thenComparing(Comparator.<Integer>comparingLong(s::bytes).reversed())
                    .thenComparingInt(r -> r));
            for (int r : candidates) {
                if (fits(current, o)) {
                    break;
                }
                if (!drop[r]) {
                    tryDrop(s, byName, drop, reason, r, "budget", merges, notes, current);
                }
            }
        }
        boolean met = o.budgetBytes() < 0 || fits(current, o);
        RegionStatistics.Totals after = s.totals(drop);
        if (!met) {
            notes.add(String.format(Locale.ROOT, "the budget of %,d bytes%s is out of reach: dropping every function "
                            + "that may be dropped leaves %,d bytes", o.budgetBytes(), o.budgetPerRank() ? " per rank" : "",
                    o.budgetPerRank() ? after.maxBytes() : after.bytes()));
        }
        List<ReductionPlan.Decision> decisions = new ArrayList<>();
        for (int r : present) {
            String why = reason[r] != null ? reason[r] : keptReason(s, r, o);
            decisions.add(new ReductionPlan.Decision(r, s.regions().get(r).name(), s.type(r), drop[r], why));
        }
        return new ReductionPlan(s, drop, decisions, before, after, met, notes, o.describe());
    }

    /**
     * The effect of an existing filter (a Score-P filter file or TAU list, as {@code scorep-score -f} shows it):
     * the regions it excludes, except those no filter may drop.
     */
    public static ReductionPlan evaluate(RegionStatistics s, RegionFilter filter, String origin) {
        int nr = s.regions().size();
        boolean[] drop = new boolean[nr];
        List<ReductionPlan.Decision> decisions = new ArrayList<>();
        for (int r : s.presentRegions()) {
            boolean locked = s.protectedRegion(r);
            drop[r] = !locked && filter.excludes(s.regions().get(r));
            String why = locked ? s.type(r) + ": never filtered" : drop[r] ? "excluded by " + origin : "not excluded by " + origin;
            decisions.add(new ReductionPlan.Decision(r, s.regions().get(r).name(), s.type(r), drop[r], why));
        }
        return new ReductionPlan(s, drop, decisions, s.totals(null), s.totals(drop), true, List.of(),
                "the filter " + origin);
    }

    private static void tryDrop(RegionStatistics s, Map<String, List<Integer>> byName, boolean[] drop, String[] reason,
                                int r, String why, PathMerges merges, List<String> notes, long[] current) {
        if (drop[r]) {
            return;
        }
        List<Integer> same = byName.get(s.regions().get(r).name());
        for (int x : same) {
            drop[x] = true;
        }
        if (same.stream().anyMatch(x -> s.type(x) == ScoreType.COM)) {
            String merged = merges.merge(drop);
            if (merged != null) {
                for (int x : same) {
                    drop[x] = false;
                    reason[x] = "COM: dropping it would fold call paths with wait states together, " + merged;
                }
                notes.add("kept " + s.regions().get(r).name() + ": dropping it would fold call paths with wait states "
                        + "together, " + merged);
                return;
            }
        }
        for (int x : same) {
            reason[x] = why;
            for (int k = 0; k < current.length; k++) {
                current[k] -= s.bytes(x, k);
            }
        }
    }

    private static boolean fits(long[] bytesPerRank, ReductionOptions o) {
        long total = 0;
        long max = 0;
        for (long b : bytesPerRank) {
            total += b;
            max = Math.max(max, b);
        }
        return (o.budgetPerRank() ? max : total) <= o.budgetBytes();
    }

    static double perVisitMicros(RegionStatistics s, int r) {
        long v = s.visits(r);
        return v == 0 ? 0 : 1e6 * s.inclusiveTime(r) / v;
    }

    private static String firstRule(TauReduceRules rules, RegionStatistics s, int r, double totalTime) {
        for (TauReduceRules.Rule rule : rules.rules()) {
            if (new TauReduceRules(List.of(rule)).selects(s, r, totalTime)) {
                return rule.toString();
            }
        }
        return "?";
    }

    private static String keptReason(RegionStatistics s, int r, ReductionOptions o) {
        if (s.type(r) == ScoreType.COM) {
            return "COM: on a path to communication";
        }
        if (o.rules() != null) {
            return "no rule selects it";
        }
        double perVisit = perVisitMicros(s, r);
        if (perVisit >= o.shortCallMicros()) {
            return String.format(Locale.ROOT, "long: %.3g µs per visit", perVisit);
        }
        return "short, but too few bytes to matter";
    }
}
