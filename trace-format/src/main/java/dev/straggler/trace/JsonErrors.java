package dev.straggler.trace;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;

/**
 * A JSON parsing or mapping error in words, in one line: the file, the line and column, the field (as a path such as
 * {@code locations[0].events}) and what is wrong with it, without the parser's class names and source excerpts.
 */
public final class JsonErrors {
    private JsonErrors() {
    }

    /** {@code FILE: line L, column C: field F: what}. */
    public static String describe(String file, JsonProcessingException e) {
        StringBuilder b = new StringBuilder(file);
        JsonLocation at = e.getLocation();
        if (at != null && at.getLineNr() > 0) {
            b.append(": line ").append(at.getLineNr()).append(", column ").append(at.getColumnNr());
        }
        String field = e instanceof JsonMappingException m ? path(m) : "";
        if (!field.isEmpty()) {
            b.append(": field ").append(field);
        }
        b.append(": ").append(what(e));
        return b.toString();
    }

    /** A {@link TraceFormatException} carrying {@link #describe}. */
    public static TraceFormatException format(String file, JsonProcessingException e) {
        return new TraceFormatException(describe(file, e), e);
    }

    private static String path(JsonMappingException m) {
        StringBuilder p = new StringBuilder();
        for (JsonMappingException.Reference r : m.getPath()) {
            if (r.getFieldName() != null) {
                if (p.length() > 0) {
                    p.append('.');
                }
                p.append(r.getFieldName());
            } else if (r.getIndex() >= 0) {
                p.append('[').append(r.getIndex()).append(']');
            }
        }
        return p.toString();
    }

    private static String what(JsonProcessingException e) {
        if (e instanceof JsonEOFException
                || (e.getOriginalMessage() != null && e.getOriginalMessage().startsWith("Unexpected end-of-input"))) {
            return "the JSON ends early (the file is truncated)";
        }
        if (e instanceof InvalidFormatException f) {
            return "\"" + f.getValue() + "\" is not " + kind(f.getTargetType());
        }
        if (e instanceof com.fasterxml.jackson.databind.exc.ValueInstantiationException v) {
            Throwable cause = v.getCause();
            String type = v.getType() == null ? "the object" : v.getType().getRawClass().getSimpleName();
            return cause instanceof NullPointerException
                    ? "a required field of " + type + " is missing (misspelled or damaged?)"
                    : "invalid " + type + (cause == null || cause.getMessage() == null ? "" : ": " + cause.getMessage());
        }
        if (e instanceof UnrecognizedPropertyException u) {
            return "unknown field \"" + u.getPropertyName() + "\"";
        }
        if (e instanceof MismatchedInputException m && m.getTargetType() != null) {
            return "expected " + kind(m.getTargetType());
        }
        String msg = e.getOriginalMessage();
        if (msg == null) {
            return "malformed JSON";
        }
        msg = msg.lines().findFirst().orElse(msg).replace('`', '\'');
        int cut = msg.indexOf(" (for ");
        return "malformed JSON: " + (cut > 0 ? msg.substring(0, cut) : msg);
    }

    private static String kind(Class<?> t) {
        if (t == null) {
            return "a valid value";
        }
        if (t == long.class || t == Long.class || t == int.class || t == Integer.class) {
            return "a whole number";
        }
        if (t == double.class || t == Double.class || t == float.class) {
            return "a number";
        }
        if (t == boolean.class || t == Boolean.class) {
            return "true or false";
        }
        if (t == String.class) {
            return "a string";
        }
        if (java.util.Collection.class.isAssignableFrom(t) || t.isArray()) {
            return "a list";
        }
        if (java.util.Map.class.isAssignableFrom(t)) {
            return "an object";
        }
        if (t.isEnum()) {
            return "one of " + java.util.Arrays.toString(t.getEnumConstants());
        }
        return "an object (" + t.getSimpleName() + ")";
    }
}
