package dev.straggler.trace;

import java.util.Objects;

/**
 * A node of the system tree above a process (OTF2 SystemTreeNode): its class ("machine", "node", ...) and name
 * ("Linux", "vm"). Cube tools show it as {@code class + " " + name}, which is how Scalasca names it.
 */
public record SystemNode(String className, String name) {
    public SystemNode {
        Objects.requireNonNull(className, "className");
        Objects.requireNonNull(name, "name");
    }

    /** The name Scalasca writes into a cube's system tree. */
    public String displayName() {
        return name.isEmpty() ? className : className.isEmpty() ? name : className + " " + name;
    }
}
