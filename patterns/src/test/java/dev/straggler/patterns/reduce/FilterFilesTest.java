package dev.straggler.patterns.reduce;

import dev.straggler.trace.MemoryTrace;
import dev.straggler.trace.Region;
import dev.straggler.trace.TraceFormatException;
import dev.straggler.trace.filter.RegionFilter;
import dev.straggler.trace.filter.ScorepFilter;
import dev.straggler.trace.filter.TauSelectFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Filter files written from a plan read back, through the grammars of reference §4.1 and §4.3, as exactly the
 * plan's selection, also for names full of wildcard and comment characters.
 */
class FilterFilesTest {
    static final List<String> AWKWARD = List.of("void Release(T**) [with T = double]", "#hash start", "a#b",
            "operator*", "what?", "back\\slash", "two  spaces");

    private static ReductionPlan plan() throws Exception {
        MemoryTrace t = HandTraces.twoCallersOfSend(AWKWARD);
        RegionStatistics s = RegionStatistics.of(TraceProfiler.profile(t));
        // every USR function called once or a thousand times: h, leaf and the awkward ones
        return ReductionPlanner.plan(s, ReductionOptions.defaults()
                .withRules(TauReduceRules.parse("USR:numcalls = 1\nUSR:numcalls = 1000", "r")));
    }

    @ParameterizedTest
    @EnumSource(FilterFiles.Format.class)
    void excludeListSelectsExactlyThePlansRegions(FilterFiles.Format format) throws Exception {
        ReductionPlan p = plan();
        assertTrue(p.excludedNames().containsAll(AWKWARD), p.excludedNames().toString());
        String text = FilterFiles.write(p, format, FilterFiles.ListKind.EXCLUDE, "test\nsecond line");
        sameSelection(p, FilterFiles.parse(text, "written"), text);
    }

    @ParameterizedTest
    @EnumSource(FilterFiles.Format.class)
    void includeListSelectsExactlyThePlansRegions(FilterFiles.Format format) throws Exception {
        ReductionPlan p = plan();
        String text = FilterFiles.write(p, format, FilterFiles.ListKind.INCLUDE, null);
        sameSelection(p, FilterFiles.parse(text, "written"), text);
    }

    private static void sameSelection(ReductionPlan p, RegionFilter f, String text) {
        for (int r : p.statistics().presentRegions()) {
            Region reg = p.statistics().regions().get(r);
            assertEquals(p.excluded(r), f.excludes(reg), reg.name() + " in\n" + text);
        }
    }

    @Test
    void scorepFileIsTheDocumentedLayout() throws Exception {
        String text = FilterFiles.write(plan(), FilterFiles.Format.SCOREP, FilterFiles.ListKind.EXCLUDE, "why");
        List<String> lines = text.lines().toList();
        assertEquals("# why", lines.get(0));
        assertEquals("SCOREP_REGION_NAMES_BEGIN", lines.get(1));
        assertEquals("EXCLUDE", lines.get(2).strip());
        assertEquals("SCOREP_REGION_NAMES_END", lines.get(lines.size() - 1));
        assertTrue(text.contains("void\\ Release(T\\*\\*)\\ \\[with\\ T\\ =\\ double]"), text);
        assertTrue(text.contains("\\#hash\\ start"), text);
    }

    @Test
    void scorepIncludeListExcludesEverythingThenIncludesTheKept() throws Exception {
        String text = FilterFiles.write(plan(), FilterFiles.Format.SCOREP, FilterFiles.ListKind.INCLUDE, null);
        ScorepFilter f = ScorepFilter.parse(text, "t");
        assertEquals(new ScorepFilter.Rule(true, false, "*"), f.regionRules().get(0));
        assertTrue(f.regionRules().stream().skip(1).allMatch(r -> !r.exclude()));
    }

    @Test
    void tauFileQuotesEntriesStartingWithTheWildcard() throws Exception {
        String text = FilterFiles.write(plan(), FilterFiles.Format.TAU, FilterFiles.ListKind.EXCLUDE, null);
        assertTrue(text.lines().anyMatch(l -> l.equals("\"#hash start\"")), text);
        TauSelectFile f = TauSelectFile.parse(text, "t");
        assertTrue(f.excludeRoutines().contains("#hash start"));
        assertEquals(text, f.format(null));
    }

    @Test
    void writtenFilesRoundTripThroughTheirParsers() throws Exception {
        ReductionPlan p = plan();
        for (FilterFiles.ListKind k : FilterFiles.ListKind.values()) {
            String s = FilterFiles.write(p, FilterFiles.Format.SCOREP, k, "c");
            assertEquals(s, ScorepFilter.parse(s, "s").format("c"));
            String t = FilterFiles.write(p, FilterFiles.Format.TAU, k, "c");
            assertEquals(t, TauSelectFile.parse(t, "t").format("c"));
        }
    }

    @Test
    void aFileOfNeitherKindIsRefusedByName() {
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> FilterFiles.parse("foo\nbar\n", "x.filt"));
        assertTrue(e.getMessage().startsWith("x.filt: neither a Score-P filter file"), e.getMessage());
    }
}
