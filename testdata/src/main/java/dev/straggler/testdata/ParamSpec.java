package dev.straggler.testdata;

import java.util.Objects;

/**
 * A parameter of a scenario, as {@code straggler generate --list} shows it and {@code --param name=value} sets it.
 * Times are given in seconds, sizes in bytes.
 *
 * @param defaultValue the value used when none is given, as it would be typed
 * @param description  what it means, one line
 */
public record ParamSpec(String name, String defaultValue, String description) {
    public ParamSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(defaultValue, "defaultValue");
        description = description == null ? "" : description;
    }
}
