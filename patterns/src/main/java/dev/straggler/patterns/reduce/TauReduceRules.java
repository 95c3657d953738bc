package dev.straggler.patterns.reduce;

import dev.straggler.trace.TraceFormatException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Exclusion rules in the grammar of TAU's {@code tau_reduce} (reference §4.2): one rule per line, a rule is
 * {@code [GROUP:]FIELD OPERATOR NUMBER} or several of them joined by {@code &} (all must hold), and separate lines
 * are alternatives (any may hold). {@code #} starts a comment line; blank lines are ignored. A region a rule selects
 * is excluded.
 *
 * <p>Fields are evaluated as {@code tau_reduce} reads them from pprof's total section, i.e. summed over ranks:
 * {@code numcalls} visits, {@code numsubrs} calls made to other regions, {@code usec}/{@code cumusec} exclusive and
 * inclusive time in microseconds, {@code usecs/call} inclusive microseconds per call (pprof's column),
 * {@code percent} inclusive time as a percentage of the run's total time, and {@code stddev} the standard deviation
 * of the exclusive microseconds over ranks. The hardware-counter fields ({@code count}, {@code totalcount},
 * {@code counts/call}) parse, but a trace carries no counters, so evaluating them is an error, as in tau_reduce.
 *
 * <p>A group prefix restricts a rule to regions of that group: a {@link ScoreType} name ({@code USR},
 * {@code COM}, {@code MPI}, ...), {@code TAU_USER} (user functions: USR and COM) or {@code TAU_DEFAULT} (every
 * region). Immutable.
 */
public final class TauReduceRules {
    /** tau_reduce's rule when no rule file is given. */
    public static final String DEFAULT_RULE = "numcalls > 1000000 & usecs/call < 2";

    /** The fields of the grammar. */
    public enum Field {
        NUMCALLS("numcalls"), NUMSUBRS("numsubrs"), PERCENT("percent"), USEC("usec"), CUMUSEC("cumusec"),
        COUNT("count"), TOTALCOUNT("totalcount"), STDDEV("stddev"), USECS_PER_CALL("usecs/call"),
        COUNTS_PER_CALL("counts/call");

        final String spelling;

        Field(String spelling) {
            this.spelling = spelling;
        }

        boolean counter() {
            return this == COUNT || this == TOTALCOUNT || this == COUNTS_PER_CALL;
        }

        static Field of(String s) {
            for (Field f : values()) {
                if (f.spelling.equals(s)) {
                    return f;
                }
            }
            return null;
        }
    }

    /** One comparison; {@code group} is null when the rule applies to every region. */
    public record Condition(String group, Field field, char op, double value) {
        @Override
        public String toString() {
            String v = value == Math.rint(value) && Math.abs(value) < 1e15 ? Long.toString((long) value) : Double.toString(value);
            return (group == null ? "" : group + ":") + field.spelling + " " + op + " " + v;
        }
    }

    /** A line: all conditions must hold. */
    public record Rule(List<Condition> conditions) {
        public Rule {
            conditions = List.copyOf(conditions);
        }

        @Override
        public String toString() {
            return String.join(" & ", conditions.stream().map(Condition::toString).toList());
        }
    }

    private final List<Rule> rules;

    public TauReduceRules(List<Rule> rules) {
        this.rules = List.copyOf(rules);
    }

    public List<Rule> rules() {
        return rules;
    }

    public static TauReduceRules defaults() {
        try {
            return parse(DEFAULT_RULE, "default rule");
        } catch (TraceFormatException e) {
            throw new IllegalStateException(e);
        }
    }

    public static TauReduceRules read(Path file) throws IOException {
        return parse(Files.readString(file, StandardCharsets.UTF_8), file.toString());
    }

    /** @throws TraceFormatException naming the line and the offending token */
    public static TauReduceRules parse(String text, String origin) throws TraceFormatException {
        List<Rule> out = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        for (int ln = 0; ln < lines.length; ln++) {
            String line = lines[ln].strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            List<Condition> conds = new ArrayList<>();
            for (String part : line.split("&", -1)) {
                conds.add(condition(part.strip(), origin + ":" + (ln + 1) + ": "));
            }
            out.add(new Rule(conds));
        }
        return new TauReduceRules(out);
    }

    private static Condition condition(String s, String where) throws TraceFormatException {
        if (s.isEmpty()) {
            throw new TraceFormatException(where + "empty condition (a rule is [GROUP:]FIELD OPERATOR NUMBER, joined by &)");
        }
        int op = -1;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '<' || c == '>' || c == '=') {
                op = i;
                break;
            }
        }
        if (op < 0) {
            throw new TraceFormatException(where + "no operator (<, > or =) in '" + s + "'");
        }
        String left = s.substring(0, op).strip();
        String right = s.substring(op + 1).strip();
        String group = null;
        int colon = left.lastIndexOf(':');
        if (colon >= 0) {
            group = left.substring(0, colon).strip();
            left = left.substring(colon + 1).strip();
            if (!knownGroup(group)) {
                throw new TraceFormatException(where + "unknown group '" + group + "' (known: TAU_DEFAULT, TAU_USER, "
                        + String.join(", ", Arrays.stream(ScoreType.values()).map(Enum::name).toList()) + ")");
            }
        }
        Field f = Field.of(left);
        if (f == null) {
            throw new TraceFormatException(where + "unknown field '" + left + "' (fields: "
                    + String.join(", ", Arrays.stream(Field.values()).map(x -> x.spelling).toList()) + ")");
        }
        double v;
        try {
            v = Double.parseDouble(right);
        } catch (NumberFormatException e) {
            throw new TraceFormatException(where + "'" + right + "' is not a number");
        }
        return new Condition(group, f, s.charAt(op), v);
    }

    private static boolean knownGroup(String g) {
        String u = g.toUpperCase(Locale.ROOT);
        if (u.equals("TAU_DEFAULT") || u.equals("TAU_USER")) {
            return true;
        }
        for (ScoreType t : ScoreType.values()) {
            if (t.name().equals(u)) {
                return true;
            }
        }
        return false;
    }

    private static boolean inGroup(String group, ScoreType t) {
        String u = group.toUpperCase(Locale.ROOT);
        return switch (u) {
            case "TAU_DEFAULT" -> true;
            case "TAU_USER" -> t == ScoreType.USR || t == ScoreType.COM;
            default -> t.name().equals(u);
        };
    }

    /**
     * True when some rule selects the region.
     *
     * @throws IllegalArgumentException when a rule uses a hardware-counter field
     */
    public boolean selects(RegionStatistics s, int region, double totalTime) {
        for (Rule r : rules) {
            boolean all = true;
            for (Condition c : r.conditions()) {
                if (!holds(c, s, region, totalTime)) {
                    all = false;
                    break;
                }
            }
            if (all) {
                return true;
            }
        }
        return false;
    }

    /** Rejects rules that cannot be evaluated on a trace (hardware-counter fields). */
    public void checkEvaluable(String origin) {
        for (Rule r : rules) {
            for (Condition c : r.conditions()) {
                if (c.field().counter()) {
                    throw new IllegalArgumentException(origin + ": rule '" + r + "' uses the hardware-counter field '"
                            + c.field().spelling + "', but the profile has timing data only");
                }
            }
        }
    }

    private static boolean holds(Condition c, RegionStatistics s, int r, double totalTime) {
        if (c.group() != null && !inGroup(c.group(), s.type(r))) {
            return false;
        }
        double x = value(c.field(), s, r, totalTime);
        return switch (c.op()) {
            case '<' -> x < c.value();
            case '>' -> x > c.value();
            default -> x == c.value();
        };
    }

    static double value(Field f, RegionStatistics s, int r, double totalTime) {
        return switch (f) {
            case NUMCALLS -> s.visits(r);
            case NUMSUBRS -> s.subroutineCalls(r);
            case PERCENT -> totalTime > 0 ? 100 * s.inclusiveTime(r) / totalTime : 0;
            case USEC -> 1e6 * s.time(r);
            case CUMUSEC -> 1e6 * s.inclusiveTime(r);
            case USECS_PER_CALL -> s.visits(r) > 0 ? 1e6 * s.inclusiveTime(r) / s.visits(r) : 0;
            case STDDEV -> stddevMicros(s, r);
            default -> throw new IllegalArgumentException("the hardware-counter field '" + f.spelling
                    + "' cannot be evaluated: the profile has timing data only");
        };
    }

    private static double stddevMicros(RegionStatistics s, int r) {
        int n = s.ranks();
        if (n == 0) {
            return 0;
        }
        double mean = 1e6 * s.time(r) / n;
        double ss = 0;
        for (int k = 0; k < n; k++) {
            double d = 1e6 * s.time(r, k) - mean;
            ss += d * d;
        }
        return Math.sqrt(ss / n);
    }

    /** The rules in their own grammar, one per line; {@link #parse} reads them back. */
    public String format() {
        StringBuilder sb = new StringBuilder();
        for (Rule r : rules) {
            sb.append(r).append('\n');
        }
        return sb.toString();
    }
}
