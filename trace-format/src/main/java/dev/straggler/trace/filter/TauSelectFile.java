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
 * A TAU selective instrumentation file (reference §4.1): routine lists {@code BEGIN_EXCLUDE_LIST} /
 * {@code BEGIN_INCLUDE_LIST}, file lists {@code BEGIN_FILE_EXCLUDE_LIST} / {@code BEGIN_FILE_INCLUDE_LIST}, each
 * closed by the matching {@code END_...}, and an {@code BEGIN_INSTRUMENT_SECTION} kept verbatim.
 *
 * <p>Routine entries use {@code #} as wildcard (C signatures contain {@code *}); since {@code #} also starts a
 * comment line, an entry starting with the wildcard is written in double quotes. File entries use {@code *}.
 * An include list keeps only what it lists; an exclude list drops what it lists. TAU entries are full signatures
 * ({@code void quicksort(int *, int, int)}); traces carry plain names, so an entry matches a region when it
 * matches the region's name or canonical name, or when its function name (the identifier before the first
 * parenthesis) does. MPI regions are never filtered.
 */
public final class TauSelectFile implements RegionFilter {
    private final List<String> excludeRoutines;
    private final List<String> includeRoutines;
    private final List<String> excludeFiles;
    private final List<String> includeFiles;
    private final List<String> instrumentSection;

    public TauSelectFile(List<String> excludeRoutines, List<String> includeRoutines, List<String> excludeFiles,
                         List<String> includeFiles, List<String> instrumentSection) {
        this.excludeRoutines = List.copyOf(excludeRoutines);
        this.includeRoutines = List.copyOf(includeRoutines);
        this.excludeFiles = List.copyOf(excludeFiles);
        this.includeFiles = List.copyOf(includeFiles);
        this.instrumentSection = List.copyOf(instrumentSection);
    }

    public List<String> excludeRoutines() {
        return excludeRoutines;
    }

    public List<String> includeRoutines() {
        return includeRoutines;
    }

    public List<String> excludeFiles() {
        return excludeFiles;
    }

    public List<String> includeFiles() {
        return includeFiles;
    }

    public static TauSelectFile read(Path file) throws IOException {
        return parse(Files.readString(file, StandardCharsets.UTF_8), file.toString());
    }

    /** @throws TraceFormatException naming the line for unbalanced or unknown block keywords */
    public static TauSelectFile parse(String text, String origin) throws TraceFormatException {
        List<String> exR = new ArrayList<>();
        List<String> inR = new ArrayList<>();
        List<String> exF = new ArrayList<>();
        List<String> inF = new ArrayList<>();
        List<String> section = new ArrayList<>();
        List<String> current = null;
        String open = null;
        String[] lines = text.split("\n", -1);
        for (int ln = 0; ln < lines.length; ln++) {
            String line = lines[ln].strip();
            String where = origin + ":" + (ln + 1) + ": ";
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            if (line.startsWith("BEGIN_") && !"BEGIN_INSTRUMENT_SECTION".equals(open)) {
                if (current != null) {
                    throw new TraceFormatException(where + line + " inside an open " + open);
                }
                open = line;
                current = switch (line) {
                    case "BEGIN_EXCLUDE_LIST" -> exR;
                    case "BEGIN_INCLUDE_LIST" -> inR;
                    case "BEGIN_FILE_EXCLUDE_LIST" -> exF;
                    case "BEGIN_FILE_INCLUDE_LIST" -> inF;
                    case "BEGIN_INSTRUMENT_SECTION" -> section;
                    default -> throw new TraceFormatException(where + "unknown block " + line);
                };
                continue;
            }
            if (line.startsWith("END_")) {
                if (open == null || !line.equals("END_" + open.substring("BEGIN_".length()))) {
                    throw new TraceFormatException(where + line + (open == null ? " without a BEGIN" : " closes " + open));
                }
                open = null;
                current = null;
                continue;
            }
            if (current == null) {
                throw new TraceFormatException(where + "entry '" + line + "' outside a list");
            }
            current.add(current == section ? line : unquote(line));
        }
        if (open != null) {
            throw new TraceFormatException(origin + ": " + open + " is not closed");
        }
        return new TauSelectFile(exR, inR, exF, inF, section);
    }

    private static String unquote(String s) {
        return s.length() >= 2 && s.startsWith("\"") && s.endsWith("\"") ? s.substring(1, s.length() - 1) : s;
    }

    /** TAU's routine wildcard {@code #} as a glob, everything else literal. */
    static boolean routineMatches(String entry, String name) {
        StringBuilder glob = new StringBuilder();
        for (char c : entry.toCharArray()) {
            if (c == '#') {
                glob.append('*');
            } else {
                if (c == '*' || c == '?' || c == '[' || c == '\\') {
                    glob.append('\\');
                }
                glob.append(c);
            }
        }
        return Glob.matches(glob.toString(), name);
    }

    private static boolean routineListed(List<String> entries, Region r) {
        for (String e : entries) {
            if (routineMatches(e, r.name()) || routineMatches(e, r.canonicalName())) {
                return true;
            }
            int paren = e.indexOf('(');
            if (paren > 0) {
                String head = e.substring(0, paren).strip();
                String fn = head.substring(Math.max(head.lastIndexOf(' '), head.lastIndexOf('*')) + 1);
                if (!fn.isEmpty() && (routineMatches(fn, r.name()) || routineMatches(fn, r.canonicalName()))) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean fileListed(List<String> entries, String file) {
        for (String e : entries) {
            if (Glob.matches(e, file) || Glob.matches(e, Path.of(file).getFileName() == null ? file : Path.of(file).getFileName().toString())) {
                return true;
            }
        }
        return false;
    }

    @Override
    public boolean excludes(Region r) {
        if (RegionFilter.protectedRegion(r)) {
            return false;
        }
        String file = r.sourceFile();
        if (!file.isEmpty()) {
            if (!includeFiles.isEmpty() && !fileListed(includeFiles, file)) {
                return true;
            }
            if (fileListed(excludeFiles, file)) {
                return true;
            }
        }
        if (!includeRoutines.isEmpty() && !routineListed(includeRoutines, r)) {
            return true;
        }
        return routineListed(excludeRoutines, r);
    }

    /** The file as TAU reads it; {@link #parse} gives back the same lists. */
    public String format(String comment) {
        StringBuilder sb = new StringBuilder();
        if (comment != null && !comment.isEmpty()) {
            for (String l : comment.split("\n")) {
                sb.append("# ").append(l).append('\n');
            }
        }
        list(sb, "EXCLUDE_LIST", excludeRoutines, true);
        list(sb, "INCLUDE_LIST", includeRoutines, true);
        list(sb, "FILE_EXCLUDE_LIST", excludeFiles, false);
        list(sb, "FILE_INCLUDE_LIST", includeFiles, false);
        list(sb, "INSTRUMENT_SECTION", instrumentSection, false);
        if (excludeRoutines.isEmpty() && includeRoutines.isEmpty() && excludeFiles.isEmpty() && includeFiles.isEmpty()
                && instrumentSection.isEmpty()) {
            // a list that drops nothing is still a selective instrumentation file
            sb.append("BEGIN_EXCLUDE_LIST\nEND_EXCLUDE_LIST\n");
        }
        return sb.toString();
    }

    private static void list(StringBuilder sb, String name, List<String> entries, boolean routines) {
        if (entries.isEmpty()) {
            return;
        }
        sb.append("BEGIN_").append(name).append('\n');
        for (String e : entries) {
            // an entry starting with '#' would read as a comment: TAU wants it quoted
            sb.append(routines && (e.startsWith("#") || e.startsWith("\"")) ? '"' + e + '"' : e).append('\n');
        }
        sb.append("END_").append(name).append('\n');
    }
}
