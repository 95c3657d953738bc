package dev.straggler.trace.filter;

import dev.straggler.trace.Region;
import dev.straggler.trace.TraceFormatException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A Score-P filter file (reference §4.3): {@code SCOREP_REGION_NAMES_BEGIN ... SCOREP_REGION_NAMES_END} and
 * {@code SCOREP_FILE_NAMES_BEGIN ... SCOREP_FILE_NAMES_END} blocks in which {@code EXCLUDE}/{@code INCLUDE}
 * switch the mode of the patterns that follow ({@code MANGLED} after them selects mangled names, which Straggler
 * matches against the canonical name). Rules apply in file order and the last matching rule wins; a region is
 * filtered when its file or its name is filtered. MPI regions are never filtered.
 */
public final class ScorepFilter implements RegionFilter {

    /** One pattern with the mode in force where it appeared. */
    public record Rule(boolean exclude, boolean mangled, String pattern) {
    }

    private final List<Rule> regionRules;
    private final List<Rule> fileRules;

    public ScorepFilter(List<Rule> regionRules, List<Rule> fileRules) {
        this.regionRules = List.copyOf(regionRules);
        this.fileRules = List.copyOf(fileRules);
    }

    public List<Rule> regionRules() {
        return regionRules;
    }

    public List<Rule> fileRules() {
        return fileRules;
    }

    public static ScorepFilter read(Path file) throws IOException {
        return parse(Files.readString(file, StandardCharsets.UTF_8), file.toString());
    }

    /** @throws TraceFormatException naming the line for a syntax error */
    public static ScorepFilter parse(String text, String origin) throws TraceFormatException {
        List<Rule> regions = new ArrayList<>();
        List<Rule> files = new ArrayList<>();
        List<Rule> block = null;
        String blockName = null;
        Boolean exclude = null;
        boolean mangled = false;
        String[] lines = text.split("\n", -1);
        for (int ln = 0; ln < lines.length; ln++) {
            String line = lines[ln];
            if (line.endsWith("\\") && !line.endsWith("\\\\")) {
                throw new TraceFormatException(origin + ":" + (ln + 1) + ": line continuation is not allowed in a filter file");
            }
            for (String tok : tokens(line)) {
                String where = origin + ":" + (ln + 1) + ": ";
                if (block == null) {
                    switch (tok) {
                        case "SCOREP_REGION_NAMES_BEGIN" -> {
                            block = regions;
                            blockName = "SCOREP_REGION_NAMES";
                        }
                        case "SCOREP_FILE_NAMES_BEGIN" -> {
                            block = files;
                            blockName = "SCOREP_FILE_NAMES";
                        }
                        default -> throw new TraceFormatException(where + "'" + tok
                                + "' outside a block (expected SCOREP_REGION_NAMES_BEGIN or SCOREP_FILE_NAMES_BEGIN)");
                    }
                    exclude = null;
                    mangled = false;
                    continue;
                }
                switch (tok) {
                    case "EXCLUDE", "INCLUDE" -> {
                        exclude = tok.equals("EXCLUDE");
                        mangled = false;
                    }
                    case "MANGLED" -> {
                        if (exclude == null || block != regions) {
                            throw new TraceFormatException(where + "MANGLED must follow EXCLUDE or INCLUDE in a region block");
                        }
                        mangled = true;
                    }
                    case "SCOREP_REGION_NAMES_END", "SCOREP_FILE_NAMES_END" -> {
                        if (!tok.startsWith(blockName)) {
                            throw new TraceFormatException(where + tok + " closes a " + blockName + " block");
                        }
                        block = null;
                    }
                    default -> {
                        if (tok.endsWith("_BEGIN") && tok.startsWith("SCOREP_")) {
                            throw new TraceFormatException(where + tok + " inside an open " + blockName + " block");
                        }
                        if (exclude == null) {
                            throw new TraceFormatException(where + "pattern '" + tok + "' before EXCLUDE or INCLUDE");
                        }
                        block.add(new Rule(exclude, mangled, tok));
                    }
                }
            }
        }
        if (block != null) {
            throw new TraceFormatException(origin + ": " + blockName + " block is not closed");
        }
        return new ScorepFilter(regions, files);
    }

    /** Splits at unescaped white space, drops comments ({@code #} unless escaped), resolves escapes. */
    static List<String> tokens(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '\\' && i + 1 < line.length()) {
                char n = line.charAt(i + 1);
                if (n == '#' || Character.isWhitespace(n)) {
                    cur.append(n);
                    i++;
                    continue;
                }
                cur.append(c); // other escapes are kept for fnmatch, which treats them itself
                continue;
            }
            if (c == '#') {
                break;
            }
            if (Character.isWhitespace(c)) {
                if (!cur.isEmpty()) {
                    out.add(cur.toString());
                    cur.setLength(0);
                }
            } else {
                cur.append(c);
            }
        }
        if (!cur.isEmpty()) {
            out.add(cur.toString());
        }
        return out;
    }

    private static boolean lastMatchExcludes(List<Rule> rules, String name, String mangledName) {
        boolean excluded = false;
        for (Rule r : rules) {
            String subject = r.mangled() && mangledName != null ? mangledName : name;
            // the state only changes when a rule of the other mode matches: net effect, the last match wins
            if (r.exclude() != excluded && Glob.matches(r.pattern(), subject)) {
                excluded = r.exclude();
            }
        }
        return excluded;
    }

    @Override
    public boolean excludes(Region region) {
        if (RegionFilter.protectedRegion(region)) {
            return false;
        }
        if (!region.sourceFile().isEmpty() && lastMatchExcludes(fileRules, region.sourceFile(), null)) {
            return true;
        }
        return lastMatchExcludes(regionRules, region.name(), region.canonicalName());
    }

    /** The filter as Score-P reads it; {@link #parse} gives back the same rules. */
    public String format(String comment) {
        StringBuilder sb = new StringBuilder();
        if (comment != null && !comment.isEmpty()) {
            for (String l : comment.split("\n")) {
                sb.append("# ").append(l).append('\n');
            }
        }
        appendBlock(sb, "SCOREP_REGION_NAMES", regionRules);
        appendBlock(sb, "SCOREP_FILE_NAMES", fileRules);
        if (regionRules.isEmpty() && fileRules.isEmpty()) {
            // a filter that drops nothing is still a filter file: an empty block says so to Score-P and to readers
            sb.append("SCOREP_REGION_NAMES_BEGIN\nSCOREP_REGION_NAMES_END\n");
        }
        return sb.toString();
    }

    private static void appendBlock(StringBuilder sb, String name, List<Rule> rules) {
        if (rules.isEmpty()) {
            return;
        }
        sb.append(name).append("_BEGIN\n");
        Boolean mode = null;
        boolean mangled = false;
        for (Rule r : rules) {
            if (mode == null || mode != r.exclude() || mangled != r.mangled()) {
                sb.append("  ").append(r.exclude() ? "EXCLUDE" : "INCLUDE").append(r.mangled() ? " MANGLED" : "").append('\n');
                mode = r.exclude();
                mangled = r.mangled();
            }
            sb.append("    ").append(escape(r.pattern())).append('\n');
        }
        sb.append(name).append("_END\n");
    }

    private static String escape(String pattern) {
        StringBuilder sb = new StringBuilder();
        for (char c : pattern.toCharArray()) {
            if (c == '#' || Character.isWhitespace(c)) {
                sb.append('\\');
            }
            sb.append(c);
        }
        return sb.toString();
    }
}
