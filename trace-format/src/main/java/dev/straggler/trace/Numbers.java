package dev.straggler.trace;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.NumberOutput;
import com.fasterxml.jackson.core.util.JsonGeneratorDelegate;

import java.io.IOException;
import java.math.BigDecimal;

/**
 * Numbers as text for machine-readable output (CSV, SQL results, JSON): the shortest decimal that reads back to the
 * same value, in the notation of ECMAScript's Number::toString (ECMA-262, 6.1.6.1.20): plain decimal for
 * 1e-6 &lt;= |x| &lt; 1e21 ({@code 0.000093502}, {@code 1024}), otherwise one digit before the point and a
 * lower-case exponent ({@code 1.5e-9}, {@code 1e23}; no {@code +} sign, which every reader accepts either way).
 * Never a trailing zero, {@code 0} for both zeros, {@code NaN}, {@code Infinity} and {@code -Infinity} for the
 * values that are not finite (pandas reads all three).
 *
 * <p>Why not {@link Double#toString(double)}: on Java 17 it is not always the shortest ({@code 2e23} prints as
 * {@code 1.9999999999999998E23}, {@code 4.9E-324} where {@code 5e-324} reads back to the same double; JDK-4511638,
 * fixed in JDK 19 by Giulietti's Schubfach algorithm) and it switches to {@code E} notation below 1e-3. The digits
 * here come from Schubfach as jackson-core ships it ({@link NumberOutput#toString(double, boolean)} with its fast
 * writer, since 2.14), a library this module already uses: it gives the shortest decimal that rounds to the double
 * and, among those, the closest. One rule of its own is undone here: like JDK 19 it never gives fewer than two
 * digits, so a two-digit answer is checked against the one-digit decimals beside it.
 */
public final class Numbers {
    private Numbers() {
    }

    /** The shortest text that {@link Double#parseDouble} reads back to {@code v} (see the class comment). */
    public static String shortest(double v) {
        return shortest(v, false);
    }

    /** The shortest text that {@link Float#parseFloat} reads back to {@code v}. */
    public static String shortest(float v) {
        return shortest(v, true);
    }

    /** @param isFloat {@code v} is a float: its digits are the float's, which read back to it as a float */
    private static String shortest(double v, boolean isFloat) {
        if (v == 0) {
            return "0";
        }
        if (!Double.isFinite(v)) {
            return Double.isNaN(v) ? "NaN" : v > 0 ? "Infinity" : "-Infinity";
        }
        Decimal d = Decimal.parse(isFloat ? NumberOutput.toString((float) v, true) : NumberOutput.toString(v, true));
        if (d.digits.length() == 2) {
            d = oneDigit(d, v, isFloat);
        }
        return d.format();
    }

    /**
     * An exact decimal (a SQL DECIMAL, say) in the same notation: its value exactly, without the trailing zeros of
     * its scale ({@code 0.00021603000000000000} is {@code 0.00021603}).
     */
    public static String decimal(BigDecimal v) {
        if (v.signum() == 0) {
            return "0";
        }
        BigDecimal s = v.stripTrailingZeros();
        String digits = s.unscaledValue().abs().toString();
        return new Decimal(s.signum() < 0, digits, digits.length() - s.scale()).format();
    }

    /**
     * A JSON generator that writes every floating-point number as {@link #shortest(double)} does; everything else
     * passes through. Values that are not finite are left to the generator (JSON has no literal for them).
     */
    public static JsonGenerator shortestNumbers(JsonGenerator g) {
        return new JsonGeneratorDelegate(g, true) {
            @Override
            public void writeNumber(double v) throws IOException {
                if (Double.isFinite(v)) {
                    super.writeNumber(shortest(v));
                } else {
                    super.writeNumber(v);
                }
            }

            @Override
            public void writeNumber(float v) throws IOException {
                if (Float.isFinite(v)) {
                    super.writeNumber(shortest(v));
                } else {
                    super.writeNumber(v);
                }
            }
        };
    }

    /**
     * Schubfach's two-digit answer {@code d}, or the one-digit decimal closest to {@code v} when one reads back to it.
     * The decimals that read back to {@code v} form an interval holding {@code d}; a one-digit decimal inside it
     * means the one-digit neighbour of {@code d} on that side is inside too, so the two neighbours are all there is
     * to try.
     */
    private static Decimal oneDigit(Decimal d, double v, boolean isFloat) {
        int first = d.digits.charAt(0) - '0';
        Decimal below = new Decimal(d.negative, Integer.toString(first), d.point);
        Decimal above = first == 9 ? new Decimal(d.negative, "1", d.point + 1)
                : new Decimal(d.negative, Integer.toString(first + 1), d.point);
        boolean belowReads = below.readsBackTo(v, isFloat);
        boolean aboveReads = above.readsBackTo(v, isFloat);
        if (belowReads && aboveReads) {
            BigDecimal exact = new BigDecimal(v);
            int c = below.exact().subtract(exact).abs().compareTo(above.exact().subtract(exact).abs());
            // equally close: the even digit, as round-half-even and Schubfach choose
            return c < 0 || c == 0 && first % 2 == 0 ? below : above;
        }
        return belowReads ? below : aboveReads ? above : d;
    }

    /**
     * A decimal {@code ±0.DIGITS × 10^point}: {@code digits} without leading or trailing zeros, so that
     * {@code 10^(point-1) <= |value| < 10^point} (ECMAScript's k digits and n).
     */
    private record Decimal(boolean negative, String digits, int point) {
        /** Parses Java's number text: {@code [-]D.DDD} or {@code [-]D.DDDE[-]N}. */
        static Decimal parse(String s) {
            boolean negative = s.charAt(0) == '-';
            int start = negative ? 1 : 0;
            int e = s.indexOf('E');
            int exponent = e < 0 ? 0 : Integer.parseInt(s.substring(e + 1));
            String mantissa = s.substring(start, e < 0 ? s.length() : e);
            int dot = mantissa.indexOf('.');
            String digits = dot < 0 ? mantissa : mantissa.substring(0, dot) + mantissa.substring(dot + 1);
            int point = (dot < 0 ? mantissa.length() : dot) + exponent;
            int lead = 0;
            while (lead < digits.length() - 1 && digits.charAt(lead) == '0') {
                lead++;
            }
            int end = digits.length();
            while (end > lead + 1 && digits.charAt(end - 1) == '0') {
                end--;
            }
            return new Decimal(negative, digits.substring(lead, end), point - lead);
        }

        BigDecimal exact() {
            return new BigDecimal(new java.math.BigInteger(digits), digits.length() - point).multiply(
                    negative ? BigDecimal.ONE.negate() : BigDecimal.ONE);
        }

        boolean readsBackTo(double v, boolean isFloat) {
            String text = format();
            return isFloat ? Float.parseFloat(text) == (float) v : Double.parseDouble(text) == v;
        }

        /** ECMAScript's Number::toString steps 6 to 10, with the exponent's {@code +} left out. */
        String format() {
            int k = digits.length();
            int n = point;
            StringBuilder b = new StringBuilder(k + 8);
            if (negative) {
                b.append('-');
            }
            if (k <= n && n <= 21) {
                b.append(digits);
                b.append("0".repeat(n - k));
            } else if (0 < n && n <= 21) {
                b.append(digits, 0, n).append('.').append(digits, n, k);
            } else if (-6 < n && n <= 0) {
                b.append("0.").append("0".repeat(-n)).append(digits);
            } else {
                b.append(digits.charAt(0));
                if (k > 1) {
                    b.append('.').append(digits, 1, k);
                }
                b.append('e').append(n - 1);
            }
            return b.toString();
        }
    }
}
