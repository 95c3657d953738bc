package dev.straggler.trace.filter;

import dev.straggler.trace.Paradigm;
import dev.straggler.trace.Region;
import dev.straggler.trace.RegionRole;
import dev.straggler.trace.TraceFormatException;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ScorepFilterTest {
    static Region user(String name, String file) {
        return new Region(0, name, name, file, 0, 0, Paradigm.USER, RegionRole.FUNCTION);
    }

    @Test
    void excludeListWithContinuationLinesFiltersEachName() throws Exception {
        // same shape as the NPB filter: one EXCLUDE followed by names on the following lines
        ScorepFilter f = ScorepFilter.parse("""
                # leaf routines
                SCOREP_REGION_NAMES_BEGIN
                  EXCLUDE binvcrhs
                          matmul_sub   # trailing comment
                          exact*
                SCOREP_REGION_NAMES_END
                """, "npb.filter");
        assertEquals(3, f.regionRules().size());
        assertTrue(f.excludes(user("binvcrhs", "bt.f")));
        assertTrue(f.excludes(user("exact_solution", "bt.f")));
        assertFalse(f.excludes(user("x_solve", "bt.f")));
    }

    @Test
    void lastMatchingRuleWins() throws Exception {
        ScorepFilter f = ScorepFilter.parse("""
                SCOREP_REGION_NAMES_BEGIN
                  EXCLUDE *
                  INCLUDE *_solve
                  EXCLUDE z_*
                SCOREP_REGION_NAMES_END
                """, "f");
        assertTrue(f.excludes(user("compute_rhs", "")));
        assertFalse(f.excludes(user("x_solve", "")));
        assertTrue(f.excludes(user("z_solve", "")));
    }

    @Test
    void fileRulesFilterEveryRegionOfTheFile() throws Exception {
        ScorepFilter f = ScorepFilter.parse("""
                SCOREP_FILE_NAMES_BEGIN
                  EXCLUDE */util/*
                SCOREP_FILE_NAMES_END
                """, "f");
        assertTrue(f.excludes(user("helper", "/src/util/h.c")));
        assertFalse(f.excludes(user("helper", "/src/main.c")));
    }

    @Test
    void mpiRegionsAreNeverFiltered() throws Exception {
        ScorepFilter f = ScorepFilter.parse("SCOREP_REGION_NAMES_BEGIN EXCLUDE * SCOREP_REGION_NAMES_END", "f");
        assertFalse(f.excludes(new Region(0, "MPI_Send", "MPI_Send", "MPI", 0, 0, Paradigm.MPI, RegionRole.POINT2POINT)));
        assertTrue(f.excludes(user("main", "")));
    }

    @Test
    void escapedHashAndSpaceArePartOfThePattern() throws Exception {
        ScorepFilter f = ScorepFilter.parse("SCOREP_REGION_NAMES_BEGIN\nEXCLUDE a\\#b c\\ d # comment\nSCOREP_REGION_NAMES_END\n", "f");
        assertEquals("a#b", f.regionRules().get(0).pattern());
        assertEquals("c d", f.regionRules().get(1).pattern());
    }

    @Test
    void mangledRulesMatchTheCanonicalName() throws Exception {
        ScorepFilter f = ScorepFilter.parse("SCOREP_REGION_NAMES_BEGIN\nEXCLUDE MANGLED _Z3foov\nSCOREP_REGION_NAMES_END\n", "f");
        assertTrue(f.excludes(new Region(0, "foo()", "_Z3foov", "a.cpp", 0, 0, Paradigm.USER, RegionRole.FUNCTION)));
    }

    @Test
    void formatThenParseGivesTheSameRules() throws Exception {
        ScorepFilter f = ScorepFilter.parse("""
                SCOREP_REGION_NAMES_BEGIN
                  EXCLUDE a b\\ c
                  INCLUDE MANGLED _Z1xv
                  EXCLUDE d\\#e
                SCOREP_REGION_NAMES_END
                SCOREP_FILE_NAMES_BEGIN
                  INCLUDE *.f
                SCOREP_FILE_NAMES_END
                """, "f");
        ScorepFilter back = ScorepFilter.parse(f.format("generated\nby a test"), "formatted");
        assertEquals(f.regionRules(), back.regionRules());
        assertEquals(f.fileRules(), back.fileRules());
    }

    @Test
    void patternOutsideABlockIsAnErrorWithLine() {
        var e = assertThrows(TraceFormatException.class, () -> ScorepFilter.parse("\nEXCLUDE foo\n", "bad.filter"));
        assertTrue(e.getMessage().startsWith("bad.filter:2:"), e.getMessage());
    }

    @Test
    void unclosedBlockIsAnError() {
        var e = assertThrows(TraceFormatException.class,
                () -> ScorepFilter.parse("SCOREP_REGION_NAMES_BEGIN\nEXCLUDE foo\n", "bad.filter"));
        assertTrue(e.getMessage().contains("not closed"), e.getMessage());
    }

    @Test
    void patternBeforeModeIsAnError() {
        var e = assertThrows(TraceFormatException.class,
                () -> ScorepFilter.parse("SCOREP_REGION_NAMES_BEGIN\nfoo\nSCOREP_REGION_NAMES_END\n", "bad.filter"));
        assertTrue(e.getMessage().contains("before EXCLUDE or INCLUDE"), e.getMessage());
    }

    @Test
    void lineContinuationIsRejected() {
        assertThrows(TraceFormatException.class,
                () -> ScorepFilter.parse("SCOREP_REGION_NAMES_BEGIN\nEXCLUDE foo \\\nbar\nSCOREP_REGION_NAMES_END\n", "f"));
    }
}
