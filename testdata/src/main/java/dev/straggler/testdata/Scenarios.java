package dev.straggler.testdata;

import dev.straggler.testdata.scenario.Catalogue;

import java.util.List;
import java.util.Optional;

/** The catalogue of scenarios, in the order {@code straggler generate --list} shows them. */
public final class Scenarios {
    private Scenarios() {
    }

    public static List<Scenario> all() {
        return Catalogue.ALL;
    }

    public static Optional<Scenario> find(String name) {
        return all().stream().filter(s -> s.name().equals(name)).findFirst();
    }

    /** @throws IllegalArgumentException naming the known scenarios when there is none of that name */
    public static Scenario byName(String name) {
        return find(name).orElseThrow(() -> new IllegalArgumentException("no scenario named '" + name
                + "'; known: " + String.join(", ", all().stream().map(Scenario::name).toList())));
    }
}
