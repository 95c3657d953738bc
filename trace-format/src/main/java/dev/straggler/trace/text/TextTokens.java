package dev.straggler.trace.text;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a line of the text format into tokens: whitespace separates, double quotes group (with {@code \"} and
 * {@code \\} escapes), and a quote may start after {@code key=}. Also quotes values for writing.
 */
final class TextTokens {
    private TextTokens() {
    }

    /** @throws IllegalArgumentException on an unterminated quote */
    static List<String> split(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean inToken = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '"') {
                inToken = true;
                i++;
                boolean closed = false;
                for (; i < line.length(); i++) {
                    char q = line.charAt(i);
                    if (q == '\\' && i + 1 < line.length()) {
                        cur.append(line.charAt(++i));
                    } else if (q == '"') {
                        closed = true;
                        break;
                    } else {
                        cur.append(q);
                    }
                }
                if (!closed) {
                    throw new IllegalArgumentException("unterminated quoted string");
                }
            } else if (Character.isWhitespace(c)) {
                if (inToken) {
                    out.add(cur.toString());
                    cur.setLength(0);
                    inToken = false;
                }
            } else {
                cur.append(c);
                inToken = true;
            }
        }
        if (inToken) {
            out.add(cur.toString());
        }
        return out;
    }

    /** A value as it must be written so that {@link #split} gives it back unchanged. */
    static String quote(String s) {
        boolean plain = !s.isEmpty();
        for (int i = 0; i < s.length() && plain; i++) {
            char c = s.charAt(i);
            plain = !Character.isWhitespace(c) && c != '"' && c != '\\' && c != '#' && c != '=';
        }
        if (plain) {
            return s;
        }
        return '"' + s.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }
}
