package dev.straggler.patterns.algebra;

import java.util.Locale;

/**
 * Number formatting for terminal reports: values with their unit, signed differences, percentages. No text it
 * returns carries the sign of a number that prints as zero: "-0.0 %" or "-0 s" reads as a loss that did not happen,
 * "+0.000 s" as a gain.
 */
public final class Format {
    private Format() {
    }

    /** A value in its Cube unit: seconds with three decimals (or three digits when tiny), counts and bytes whole. */
    public static String value(double v, String unit) {
        if (Double.isNaN(v)) {
            return "-";
        }
        return unsignedZero(switch (unit) {
            case "sec" -> seconds(v, false);
            case "bytes" -> String.format(Locale.ROOT, "%,.0f B", v);
            default -> v == Math.rint(v) ? String.format(Locale.ROOT, "%,.0f", v) : String.format(Locale.ROOT, "%,.2f", v);
        });
    }

    /** Like {@link #value} with an explicit sign. */
    public static String signed(double v, String unit) {
        if (Double.isNaN(v)) {
            return "-";
        }
        if ("sec".equals(unit)) {
            return unsignedZero(seconds(v, true));
        }
        String s = value(Math.abs(v), unit);
        return unsignedZero((v < 0 ? "-" : "+") + s);
    }

    private static String seconds(double v, boolean sign) {
        String f = Math.abs(v) >= 1e-3 || v == 0 ? (sign ? "%+,.3f s" : "%,.3f s") : (sign ? "%+.3g s" : "%.3g s");
        return String.format(Locale.ROOT, f, v);
    }

    /** A fraction as a signed percentage with one decimal; "-" for NaN; "0.0 %" for what rounds to zero. */
    public static String relative(double fraction) {
        return Double.isNaN(fraction) || Double.isInfinite(fraction) ? "-"
                : unsignedZero(String.format(Locale.ROOT, "%+.1f %%", 100 * fraction));
    }

    /** A fraction as a percentage with one decimal, signed only when negative; "-" for NaN. */
    public static String share(double fraction) {
        return Double.isNaN(fraction) || Double.isInfinite(fraction) ? "-"
                : unsignedZero(String.format(Locale.ROOT, "%.1f %%", 100 * fraction));
    }

    /**
     * {@code s} without the sign of its number when every digit of that number is 0 ("-0.0 %" becomes "0.0 %",
     * "+0.000 s" becomes "0.000 s", "-0 B" becomes "0 B"). The number is the first one in {@code s}, after any
     * padding; a padded text keeps its width. Text without a leading signed number is returned as it is.
     */
    public static String unsignedZero(String s) {
        int i = 0;
        while (i < s.length() && s.charAt(i) == ' ') {
            i++;
        }
        if (i >= s.length() || (s.charAt(i) != '-' && s.charAt(i) != '+' && s.charAt(i) != '\u2212')) {
            return s;
        }
        boolean digits = false;
        for (int j = i + 1; j < s.length(); j++) {
            char c = s.charAt(j);
            if (c >= '1' && c <= '9') {
                return s;
            }
            if (c == '0') {
                digits = true;
            } else if (c != '.' && c != ',') {
                break;
            }
        }
        if (!digits) {
            return s;
        }
        return i > 0 ? s.substring(0, i) + ' ' + s.substring(i + 1) : s.substring(1);
    }

    /**
     * Pads to a column width (left aligned). Nothing is cut: a longer text keeps a line of its own and the columns
     * that follow start on the next line, under their headings.
     */
    public static String left(String s, int width) {
        if (s.length() > width) {
            return s + "\n" + " ".repeat(width);
        }
        return s + " ".repeat(width - s.length());
    }

    /** Right-aligns in a column. */
    public static String right(String s, int width) {
        return s.length() >= width ? s : " ".repeat(width - s.length()) + s;
    }
}
