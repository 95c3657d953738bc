package dev.straggler.trace;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.StringWriter;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NumbersTest {
    @ParameterizedTest
    @CsvSource({
            "2e-3, 0.002",
            "9.3502e-5, 0.000093502",
            "0.00021603, 0.00021603",
            "0.12731160600000005, 0.12731160600000005",
            "1e23, 1e23",
            "2e23, 2e23",
            "4.9e-324, 5e-324",
            "1e21, 1e21",
            "123456789012345680000, 123456789012345680000",
            "1e-6, 0.000001",
            "1.5e-7, 1.5e-7",
            "1.5e-9, 1.5e-9",
            "100, 100",
            "1024.0, 1024",
            "-0.5, -0.5",
            "-2.5e-8, -2.5e-8",
            "1.7976931348623157e308, 1.7976931348623157e308",
            "4.35, 4.35"})
    void writesTheShortestTextInPlainNotationWhereTheExponentIsModerate(String in, String expected) {
        assertEquals(expected, Numbers.shortest(Double.parseDouble(in)));
    }

    @Test
    void sumsKeepTheDigitsThatTellThemApart() {
        assertEquals("0.30000000000000004", Numbers.shortest(0.1 + 0.2));
    }

    @Test
    void zeroIsZeroWhateverItsSign() {
        assertEquals("0", Numbers.shortest(-0.0));
        assertEquals("0", Numbers.shortest(0.0));
        assertEquals("0", Numbers.shortest(-0.0f));
    }

    @Test
    void valuesThatAreNotFiniteUseTheWordsPandasReads() {
        assertEquals("NaN", Numbers.shortest(Double.NaN));
        assertEquals("Infinity", Numbers.shortest(Double.POSITIVE_INFINITY));
        assertEquals("-Infinity", Numbers.shortest(Double.NEGATIVE_INFINITY));
    }

    /** Java 17's Double.toString gives 1.9999999999999998E23, 4.9E-324 and 9.999999999999999E22 (JDK-4511638). */
    @Test
    void isShorterThanJava17WhereJava17IsNotShortest() {
        assertEquals("2e23", Numbers.shortest(2e23));
        assertEquals("5e-324", Numbers.shortest(Double.MIN_VALUE));
        assertEquals("1e23", Numbers.shortest(1e23));
    }

    @Test
    void floatsReadBackAsFloats() {
        assertEquals("3", Numbers.shortest(3.0f));
        assertEquals("0.1", Numbers.shortest(0.1f));
        assertEquals("1e-45", Numbers.shortest(Float.MIN_VALUE));
        assertEquals("3.4028235e38", Numbers.shortest(Float.MAX_VALUE));
    }

    @Test
    void decimalsLoseTheTrailingZerosOfTheirScaleAndNothingElse() {
        assertEquals("0.00021603", Numbers.decimal(new BigDecimal("0.00021603000000000000")));
        assertEquals("2.5", Numbers.decimal(new BigDecimal("2.50")));
        assertEquals("0", Numbers.decimal(new BigDecimal("0.000")));
        assertEquals("1200", Numbers.decimal(new BigDecimal("1.2E+3")));
        assertEquals("-12345678901234567890.123456789", Numbers.decimal(new BigDecimal("-12345678901234567890.1234567890")));
        assertEquals("1e-20", Numbers.decimal(new BigDecimal("0.00000000000000000001")));
    }

    /** Random bit patterns: every finite double, from subnormals to the largest. */
    @Test
    void randomDoublesReadBackAndAreAsShortAsPossible() {
        SplittableRandom r = new SplittableRandom(20240611);
        for (int i = 0; i < 3_000; i++) {
            double v = Double.longBitsToDouble(r.nextLong());
            if (Double.isFinite(v) && v != 0) {
                check(v);
            }
        }
    }

    /** Values near decimals of one or two digits, where the shortest answer has few digits and is easy to miss. */
    @Test
    void doublesBesideShortDecimalsReadBackAndAreAsShortAsPossible() {
        SplittableRandom r = new SplittableRandom(7);
        for (int i = 0; i < 3_000; i++) {
            double v = Double.parseDouble((1 + r.nextInt(99)) + "e" + (r.nextInt(640) - 330));
            if (v == 0 || Double.isInfinite(v)) {
                continue;
            }
            check(v);
            check(Math.nextUp(v));
            check(Math.nextDown(v));
            check(-v);
        }
        for (int e = -1074; e <= 1023; e += 7) {
            check(Math.scalb(1.0, e));
        }
    }

    @Test
    void randomTimesInSecondsReadBack() {
        SplittableRandom r = new SplittableRandom(11);
        for (int i = 0; i < 10_000; i++) {
            check(r.nextLong(1, 10_000_000_000L) / 1e9);
            check(r.nextDouble() * Math.pow(10, r.nextInt(-9, 6)));
        }
    }

    /** Against an independent search: the fewest digits that read back, and among those the closest decimal. */
    private static void check(double v) {
        if (v == 0) {
            return; // nextDown of the smallest double; zero has a test of its own
        }
        String s = Numbers.shortest(v);
        assertEquals(v, Double.parseDouble(s), s);
        assertFalse(s.contains("E") || s.contains("+"), s);
        BigDecimal got = new BigDecimal(s);
        BigDecimal expected = shortestBySearch(v);
        assertEquals(expected.precision(), got.stripTrailingZeros().precision(), () -> v + ": " + s + " vs " + expected);
        assertEquals(0, expected.compareTo(got), () -> v + ": " + s + " vs " + expected);
        double a = Math.abs(v);
        boolean plain = a >= 1e-6 && a < 1e21;
        assertEquals(plain, !s.contains("e"), s);
        if (s.contains(".")) {
            String mantissa = s.contains("e") ? s.substring(0, s.indexOf('e')) : s;
            assertFalse(mantissa.endsWith("0"), s);
        }
    }

    private static BigDecimal shortestBySearch(double v) {
        BigDecimal exact = new BigDecimal(v);
        // if n digits can read back to v, so can n + 1 (append a zero): search for the fewest
        int lo = 1;
        int hi = 17;
        while (lo < hi) {
            int mid = (lo + hi) / 2;
            if (closestReadingBack(exact, v, mid) != null) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        BigDecimal d = closestReadingBack(exact, v, lo);
        if (d == null) {
            throw new AssertionError("no decimal of 17 digits reads back to " + v);
        }
        return d.stripTrailingZeros();
    }

    /** The n-digit decimal closest to v that reads back to it, or null; the decimals beside v are all to try. */
    private static BigDecimal closestReadingBack(BigDecimal exact, double v, int n) {
        BigDecimal down = exact.round(new MathContext(n, RoundingMode.FLOOR));
        BigDecimal up = exact.round(new MathContext(n, RoundingMode.CEILING));
        boolean downOk = Double.parseDouble(down.toString()) == v;
        boolean upOk = Double.parseDouble(up.toString()) == v;
        if (downOk && upOk) {
            int c = exact.subtract(down).abs().compareTo(up.subtract(exact).abs());
            return c < 0 ? down : c > 0 ? up : down.unscaledValue().testBit(0) ? up : down;
        }
        return downOk ? down : upOk ? up : null;
    }

    @Test
    void jsonNumbersAreWrittenTheSameWayAndReadBack() throws Exception {
        StringWriter w = new StringWriter();
        try (JsonGenerator g = Numbers.shortestNumbers(new JsonFactory().createGenerator(w))) {
            g.writeStartObject();
            g.writeNumberField("a", 9.3502e-5);
            g.writeNumberField("b", 2e23);
            g.writeNumberField("c", 42L);
            g.writeNumberField("d", -0.0);
            g.writeNumberField("e", 0.1f);
            g.writeEndObject();
        }
        assertEquals("{\"a\":0.000093502,\"b\":2e23,\"c\":42,\"d\":0,\"e\":0.1}", w.toString());
        var node = new ObjectMapper().readTree(w.toString());
        assertEquals(9.3502e-5, node.get("a").asDouble());
        assertEquals(2e23, node.get("b").asDouble());
        assertTrue(node.get("d").asDouble() == 0);
    }
}
