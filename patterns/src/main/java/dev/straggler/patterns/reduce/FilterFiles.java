package dev.straggler.patterns.reduce;

import dev.straggler.trace.TraceFormatException;
import dev.straggler.trace.filter.RegionFilter;
import dev.straggler.trace.filter.ScorepFilter;
import dev.straggler.trace.filter.TauSelectFile;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes a {@link ReductionPlan} as a Score-P filter file or a TAU selective instrumentation file, as an exclude
 * list (the dropped functions) or an include list (the kept user functions, everything else dropped), and reads
 * either kind back as a {@link RegionFilter}.
 *
 * <p>Names are written literally: in a Score-P file the fnmatch wildcards of a name ({@code * ? [ \}) are escaped
 * and blanks and {@code #} backslash-quoted (reference §4.3); in a TAU file, whose routine wildcard is {@code #},
 * an entry starting with {@code #} is double-quoted (reference §4.1). Reading the file back with Straggler's
 * parsers selects exactly the plan's regions.
 */
public final class FilterFiles {
    public enum Format { SCOREP, TAU }

    public enum ListKind { EXCLUDE, INCLUDE }

    private FilterFiles() {
    }

    /** The plan as a filter file; {@code comment} lines become {@code #} comments at the top. */
    public static String write(ReductionPlan plan, Format format, ListKind kind, String comment) {
        return switch (format) {
            case SCOREP -> scorep(plan, kind).format(comment);
            case TAU -> tau(plan, kind).format(comment);
        };
    }

    public static ScorepFilter scorep(ReductionPlan plan, ListKind kind) {
        List<ScorepFilter.Rule> rules = new ArrayList<>();
        if (kind == ListKind.EXCLUDE) {
            for (String n : plan.excludedNames()) {
                rules.add(new ScorepFilter.Rule(true, false, globLiteral(n)));
            }
        } else {
            // last match wins: everything out, then the kept functions back in
            rules.add(new ScorepFilter.Rule(true, false, "*"));
            for (String n : keptUserFunctions(plan)) {
                rules.add(new ScorepFilter.Rule(false, false, globLiteral(n)));
            }
        }
        return new ScorepFilter(rules, List.of());
    }

    public static TauSelectFile tau(ReductionPlan plan, ListKind kind) {
        if (kind == ListKind.EXCLUDE) {
            return new TauSelectFile(plan.excludedNames(), List.of(), List.of(), List.of(), List.of());
        }
        return new TauSelectFile(List.of(), keptUserFunctions(plan), List.of(), List.of(), List.of());
    }

    /** Kept regions a filter could have dropped (user functions; MPI and measurement regions need no listing). */
    static List<String> keptUserFunctions(ReductionPlan plan) {
        List<String> out = new ArrayList<>();
        for (ReductionPlan.Decision d : plan.decisions()) {
            if (!d.excluded() && d.type().filterable() && !out.contains(d.name())) {
                out.add(d.name());
            }
        }
        return out;
    }

    /** A name as an fnmatch pattern that matches only itself. */
    static String globLiteral(String name) {
        StringBuilder sb = new StringBuilder(name.length() + 4);
        for (char c : name.toCharArray()) {
            if (c == '*' || c == '?' || c == '[' || c == '\\') {
                sb.append('\\');
            }
            sb.append(c);
        }
        return sb.toString();
    }

    /**
     * Reads a Score-P filter file or a TAU selective instrumentation file, recognised by its block keywords.
     *
     * @throws TraceFormatException naming the file when it is neither, or for a syntax error (with its line)
     */
    public static RegionFilter read(Path file) throws IOException {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        return parse(text, file.toString());
    }

    public static RegionFilter parse(String text, String origin) throws TraceFormatException {
        if (text.contains("SCOREP_REGION_NAMES_BEGIN") || text.contains("SCOREP_FILE_NAMES_BEGIN")) {
            return ScorepFilter.parse(text, origin);
        }
        for (String l : text.split("\n")) {
            String t = l.strip();
            if (t.startsWith("BEGIN_") && (t.endsWith("_LIST") || t.equals("BEGIN_INSTRUMENT_SECTION"))) {
                return TauSelectFile.parse(text, origin);
            }
        }
        throw new TraceFormatException(origin + ": neither a Score-P filter file (no SCOREP_REGION_NAMES_BEGIN or "
                + "SCOREP_FILE_NAMES_BEGIN) nor a TAU selective instrumentation file (no BEGIN_EXCLUDE_LIST, "
                + "BEGIN_INCLUDE_LIST, BEGIN_FILE_..._LIST)");
    }
}
