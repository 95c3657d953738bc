package dev.straggler.cli.report;

import com.fasterxml.jackson.core.JsonGenerator;

import java.io.IOException;

/**
 * One part of an {@link HtmlPage}: a heading, static HTML, optionally a JSON data block and a script that
 * renders from it. Sections know nothing of each other; the page gives each a unique element id prefix.
 *
 * <p>Contract for the script: it runs after the whole document is parsed, finds its data with
 * {@code Straggler.data(id)} and its container with {@code document.getElementById(id)}, and must not
 * fetch anything (the page forbids network access through its Content-Security-Policy).
 */
public interface HtmlSection {
    /** Element id of the section; letters, digits and '-' only, unique within the page. */
    String id();

    /** The section heading shown to the user. */
    String title();

    /** Writes the section body (without the heading); all text must go through {@link HtmlPage#esc}. */
    void writeBody(Appendable html) throws IOException;

    /** Whether the section has a data block; when true {@link #writeData} is called once. */
    default boolean hasData() {
        return false;
    }

    /** Writes the section's data as one JSON value. */
    default void writeData(JsonGenerator json) throws IOException {
    }

    /** Name of a classpath resource next to this class holding the section's script, or null for none. */
    default String scriptResource() {
        return null;
    }

    /**
     * The section's scripts in the order they run (a script shared by sections is included once, where it is first
     * named); by default {@link #scriptResource}.
     */
    default java.util.List<String> scriptResources() {
        return scriptResource() == null ? java.util.List.of() : java.util.List.of(scriptResource());
    }
}
