package io.railmap.matrix.rail;

import java.util.List;

/** Some requested ranks name nodes that no record describes. */
public final class UnknownNodesException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;
    private final List<String> nodes;

    /**
     * @param nodes the unknown node names
     * @param known the node names that are known, for the message
     */
    public UnknownNodesException(List<String> nodes, List<String> known) {
        super("no record for " + (nodes.size() == 1 ? "node " : "nodes ") + String.join(", ", nodes)
                + " (known: " + (known.isEmpty() ? "none" : String.join(", ", known)) + ")");
        this.nodes = List.copyOf(nodes);
    }

    /** @return the unknown node names */
    public List<String> nodes() {
        return nodes;
    }
}
