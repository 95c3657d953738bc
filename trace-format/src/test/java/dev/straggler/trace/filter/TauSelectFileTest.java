package dev.straggler.trace.filter;

import dev.straggler.trace.TraceFormatException;
import org.junit.jupiter.api.Test;

import static dev.straggler.trace.filter.ScorepFilterTest.user;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TauSelectFileTest {

    @Test
    void excludeListUsesHashAsWildcardAndQuotesLeadingHash() throws Exception {
        TauSelectFile f = TauSelectFile.parse("""
                # a comment line
                BEGIN_EXCLUDE_LIST
                void quicksort(int *, int, int)
                matmul#
                "#_sub"
                END_EXCLUDE_LIST
                """, "select.tau");
        assertEquals(3, f.excludeRoutines().size());
        assertTrue(f.excludes(user("quicksort", "")), "signature entry matches the plain name");
        assertTrue(f.excludes(user("matmul_sub", "")));
        assertTrue(f.excludes(user("matvec_sub", "")));
        assertFalse(f.excludes(user("x_solve", "")));
    }

    @Test
    void starInARoutineEntryIsLiteral() throws Exception {
        TauSelectFile f = TauSelectFile.parse("BEGIN_EXCLUDE_LIST\nint *get(void)\nEND_EXCLUDE_LIST\n", "t");
        assertTrue(f.excludes(user("get", "")));
        assertFalse(f.excludes(user("getter", "")));
    }

    @Test
    void includeListKeepsOnlyWhatItLists() throws Exception {
        TauSelectFile f = TauSelectFile.parse("BEGIN_INCLUDE_LIST\nmain\n\"#solve#\"\nEND_INCLUDE_LIST\n", "t");
        assertFalse(f.excludes(user("main", "")));
        assertFalse(f.excludes(user("x_solve_cell", "")));
        assertTrue(f.excludes(user("exact", "")));
    }

    @Test
    void fileListsUseStarWildcard() throws Exception {
        TauSelectFile f = TauSelectFile.parse("BEGIN_FILE_EXCLUDE_LIST\n*.so\nutil/*\nEND_FILE_EXCLUDE_LIST\n", "t");
        assertTrue(f.excludes(user("f", "libm.so")));
        assertTrue(f.excludes(user("f", "util/x.c")));
        assertFalse(f.excludes(user("f", "main.c")));
    }

    @Test
    void formatThenParseGivesTheSameLists() throws Exception {
        TauSelectFile f = TauSelectFile.parse("""
                BEGIN_EXCLUDE_LIST
                "#_sub"
                void f(int)
                END_EXCLUDE_LIST
                BEGIN_FILE_INCLUDE_LIST
                *.f90
                END_FILE_INCLUDE_LIST
                BEGIN_INSTRUMENT_SECTION
                loops routine="#"
                END_INSTRUMENT_SECTION
                """, "t");
        TauSelectFile back = TauSelectFile.parse(f.format("generated"), "formatted");
        assertEquals(f.excludeRoutines(), back.excludeRoutines());
        assertEquals(f.includeFiles(), back.includeFiles());
        assertEquals(f.format(""), back.format(""));
    }

    @Test
    void mismatchedEndIsAnErrorWithLine() {
        var e = assertThrows(TraceFormatException.class,
                () -> TauSelectFile.parse("BEGIN_EXCLUDE_LIST\nf\nEND_INCLUDE_LIST\n", "t.tau"));
        assertTrue(e.getMessage().startsWith("t.tau:3:"), e.getMessage());
    }

    @Test
    void entryOutsideAListIsAnError() {
        assertThrows(TraceFormatException.class, () -> TauSelectFile.parse("foo\n", "t.tau"));
    }
}
