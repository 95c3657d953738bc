package dev.straggler.trace.filter;

/**
 * Shell-style pattern matching with the semantics of POSIX {@code fnmatch(pattern, name, 0)}, which Score-P
 * uses for filter rules (reference §4.3): {@code *} any run of characters (including {@code /}), {@code ?} one
 * character, {@code [...]} a bracket expression with ranges and {@code !} or {@code ^} negation, and a backslash
 * quoting the next character.
 */
public final class Glob {
    private Glob() {
    }

    public static boolean matches(String pattern, String name) {
        return match(pattern, 0, name, 0);
    }

    /** True when the pattern has no wildcard, so it can only match itself. */
    public static boolean isLiteral(String pattern) {
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == '*' || c == '?' || c == '[' || c == '\\') {
                return false;
            }
        }
        return true;
    }

    private static boolean match(String p, int pi, String s, int si) {
        while (pi < p.length()) {
            char c = p.charAt(pi);
            switch (c) {
                case '*' -> {
                    while (pi < p.length() && p.charAt(pi) == '*') {
                        pi++;
                    }
                    if (pi == p.length()) {
                        return true;
                    }
                    for (int k = si; k <= s.length(); k++) {
                        if (match(p, pi, s, k)) {
                            return true;
                        }
                    }
                    return false;
                }
                case '?' -> {
                    if (si >= s.length()) {
                        return false;
                    }
                    pi++;
                    si++;
                }
                case '[' -> {
                    int end = bracketEnd(p, pi);
                    if (end < 0) {
                        // an unterminated bracket is an ordinary character, as in fnmatch
                        if (si >= s.length() || s.charAt(si) != '[') {
                            return false;
                        }
                        pi++;
                        si++;
                    } else {
                        if (si >= s.length() || !inBracket(p, pi + 1, end, s.charAt(si))) {
                            return false;
                        }
                        pi = end + 1;
                        si++;
                    }
                }
                case '\\' -> {
                    if (pi + 1 < p.length()) {
                        pi++;
                    }
                    if (si >= s.length() || s.charAt(si) != p.charAt(pi)) {
                        return false;
                    }
                    pi++;
                    si++;
                }
                default -> {
                    if (si >= s.length() || s.charAt(si) != c) {
                        return false;
                    }
                    pi++;
                    si++;
                }
            }
        }
        return si == s.length();
    }

    /** Index of the closing bracket of the expression opening at {@code open}, or -1. */
    private static int bracketEnd(String p, int open) {
        int i = open + 1;
        if (i < p.length() && (p.charAt(i) == '!' || p.charAt(i) == '^')) {
            i++;
        }
        if (i < p.length() && p.charAt(i) == ']') {
            i++; // a leading ']' is a member, not the end
        }
        for (; i < p.length(); i++) {
            if (p.charAt(i) == ']') {
                return i;
            }
        }
        return -1;
    }

    private static boolean inBracket(String p, int from, int end, char ch) {
        boolean negate = p.charAt(from) == '!' || p.charAt(from) == '^';
        int i = negate ? from + 1 : from;
        boolean hit = false;
        boolean first = true;
        while (i < end) {
            char lo = p.charAt(i);
            if (lo == ']' && !first) {
                break;
            }
            first = false;
            if (i + 2 < end && p.charAt(i + 1) == '-') {
                char hi = p.charAt(i + 2);
                if (ch >= lo && ch <= hi) {
                    hit = true;
                }
                i += 3;
            } else {
                if (ch == lo) {
                    hit = true;
                }
                i++;
            }
        }
        return hit != negate;
    }
}
