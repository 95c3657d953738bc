package dev.straggler.experiments;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Trials of an experiment database named where runs are expected: {@code db:DATABASE?app=cg&experiment=e&processes=16
 * &trial=3&param.size=W}; every key is optional and they combine with "and". DATABASE is a DuckDB file or a
 * PostgreSQL URL (then the URL's own query comes first, the selection after a {@code #}:
 * {@code db:postgresql://host/db?user=u#app=cg}).
 */
public record Selection(String database, String application, String experiment, Integer processes, Integer trial,
                        Map<String, String> parameters) {
    public static final String PREFIX = "db:";

    public Selection {
        parameters = Map.copyOf(parameters);
    }

    public static boolean isSelection(String s) {
        return s.startsWith(PREFIX);
    }

    /** Everything in the database. */
    public static Selection all(String database) {
        return new Selection(database, null, null, null, null, Map.of());
    }

    /**
     * The selection as the user wrote it: commands take their runs as file paths, and a path collapses a database
     * URL's "//" into "/" ({@code db:postgresql:/host/db} back to {@code db:postgresql://host/db}).
     */
    public static String asWritten(String spec) {
        return spec.replaceFirst("^" + java.util.regex.Pattern.quote(PREFIX) + "(jdbc:)?(postgresql|postgres):/(?!/)",
                PREFIX + "$1$2://");
    }

    /** @throws IllegalArgumentException with a one-line reason naming the selection */
    public static Selection parse(String spec) {
        if (!isSelection(spec)) {
            throw new IllegalArgumentException(spec + ": a database selection starts with " + PREFIX);
        }
        String rest = asWritten(spec).substring(PREFIX.length());
        boolean url = isUrl(rest);
        int q = url ? rest.indexOf('#') : rest.indexOf('?');
        String db = q < 0 ? rest : rest.substring(0, q);
        if (db.isEmpty()) {
            throw new IllegalArgumentException(spec + ": no database before the selection");
        }
        String app = null;
        String exp = null;
        Integer p = null;
        Integer t = null;
        Map<String, String> params = new LinkedHashMap<>();
        if (q >= 0) {
            for (String kv : rest.substring(q + 1).split("&")) {
                if (kv.isEmpty()) {
                    continue;
                }
                int eq = kv.indexOf('=');
                if (eq <= 0) {
                    throw new IllegalArgumentException(spec + ": '" + kv + "' is not key=value");
                }
                String k = kv.substring(0, eq);
                String v = URLDecoder.decode(kv.substring(eq + 1), StandardCharsets.UTF_8);
                switch (k) {
                    case "app", "application" -> app = v;
                    case "experiment" -> exp = v;
                    case "processes", "p" -> p = number(spec, k, v);
                    case "trial" -> t = number(spec, k, v);
                    default -> {
                        if (!k.startsWith("param.") || k.length() == "param.".length()) {
                            throw new IllegalArgumentException(spec + ": unknown key '" + k + "' (app, experiment, "
                                    + "processes, trial, param.NAME)");
                        }
                        params.put(k.substring("param.".length()), v);
                    }
                }
            }
        }
        return new Selection(db, app, exp, p, t, params);
    }

    private static boolean isUrl(String database) {
        return database.startsWith("postgresql://") || database.startsWith("postgres://") || database.startsWith("jdbc:");
    }

    /** The selection of one trial of this database: how a trial loaded through a wider selection is named. */
    public String ofTrial(int id) {
        return PREFIX + database + (isUrl(database) ? "#" : "?") + "trial=" + id;
    }

    private static int number(String spec, String key, String v) {
        try {
            int n = Integer.parseInt(v);
            if (n < 1) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(spec + ": " + key + " must be a positive whole number, not '" + v + "'");
        }
    }
}
