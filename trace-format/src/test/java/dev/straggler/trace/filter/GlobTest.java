package dev.straggler.trace.filter;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

class GlobTest {
    // Expected values follow POSIX fnmatch(pattern, name, 0) (no FNM_PATHNAME: '*' crosses '/').
    @ParameterizedTest(name = "fnmatch({0}, {1}) = {2}")
    @CsvSource(delimiter = '|', value = {
            "binvcrhs|binvcrhs|true",
            "binvcrhs|binvcrhs_|false",
            "*_solve_cell|x_solve_cell|true",
            "*_solve_cell|x_solve|false",
            "?_solve|y_solve|true",
            "?_solve|yy_solve|false",
            "[xyz]_solve|z_solve|true",
            "[xyz]_solve|w_solve|false",
            "[!xyz]_solve|w_solve|true",
            "[^xyz]_solve|x_solve|false",
            "[a-c]*|beta|true",
            "[a-c]*|delta|false",
            "*|anything/with/slashes|true",
            "src/*.c|src/sub/a.c|true",
            "a\\*b|a*b|true",
            "a\\*b|axb|false",
            "[]]x|]x|true",
            "[x|[x|true",
            "**|''|true",
            "a*b*c|abxbyc|true",
            "a*b*c|abxbyd|false",
    })
    void matchesLikePosixFnmatch(String pattern, String name, boolean expected) {
        assertEquals(expected, Glob.matches(pattern, name.equals("''") ? "" : name));
    }
}
