package dev.straggler.patterns.algebra;

import java.util.Locale;

/** Number formatting for terminal reports: values with their unit, signed differences, percentages. */
public final class Format {
    private Format() {
    }

    /** A value in its Cube unit: seconds with three decimals (or three digits when tiny), counts and bytes whole. */
    public static String value(double v, String unit) {
        if (Double.isNaN(v)) {
            return "-";
        }
        return switch (unit) {
            case "sec" -> seconds(v, false);
            case "bytes" -> String.format(Locale.ROOT, "%,.0f B", v);
            default -> v == Math.rint(v) ? String.format(Locale.ROOT, "%,.0f", v) : String.format(Locale.ROOT, "%,.2f", v);
        };
    }

    /** Like {@link #value} with an explicit sign. */
    public static String signed(double v, String unit) {
        if (Double.isNaN(v)) {
            return "-";
        }
        if ("sec".equals(unit)) {
            return seconds(v, true);
        }
        String s = value(Math.abs(v), unit);
        return (v < 0 ? "-" : "+") + s;
    }

    private static String seconds(double v, boolean sign) {
        String f = Math.abs(v) >= 1e-3 || v == 0 ? (sign ? "%+,.3f s" : "%,.3f s") : (sign ? "%+.3g s" : "%.3g s");
        return String.format(Locale.ROOT, f, v);
    }

    /** A fraction as a signed percentage with one decimal; "-" for NaN. */
    public static String relative(double fraction) {
        return Double.isNaN(fraction) || Double.isInfinite(fraction) ? "-" : String.format(Locale.ROOT, "%+.1f %%", 100 * fraction);
    }

    /** A fraction as an unsigned-style percentage with one decimal; "-" for NaN. */
    public static String share(double fraction) {
        return Double.isNaN(fraction) || Double.isInfinite(fraction) ? "-" : String.format(Locale.ROOT, "%.1f %%", 100 * fraction);
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
