package io.railmap.matrix.plan;

import java.util.List;

/** No rank order follows a cycle of the cable graph through every requested node. */
public final class NoRingException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final List<String> unplaceable;

    /** Nodes the message names at most; {@link #unplaceable()} holds them all. */
    public static final int NODES_NAMED = 8;

    /**
     * @param unplaceable the nodes that cannot be placed on a ring
     * @param reason      why, as a sentence
     */
    public NoRingException(List<String> unplaceable, String reason) {
        super("no ring order through " + named(unplaceable) + ": " + reason);
        this.unplaceable = List.copyOf(unplaceable);
    }

    /** @return the first {@value #NODES_NAMED} nodes, and how many more: the message stays one short line for 2,000 nodes */
    private static String named(List<String> nodes) {
        return nodes.size() <= NODES_NAMED ? String.join(", ", nodes)
                : String.join(", ", nodes.subList(0, NODES_NAMED)) + " and " + (nodes.size() - NODES_NAMED) + " more";
    }

    /** @return the nodes that cannot be placed */
    public List<String> unplaceable() {
        return unplaceable;
    }
}
