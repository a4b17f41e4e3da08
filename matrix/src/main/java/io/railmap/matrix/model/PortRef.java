package io.railmap.matrix.model;

import java.util.Comparator;

/**
 * The identity of one port in the cluster: a node name and the port's netdev name, written
 * {@code node:netdev} (for example {@code a:en6}). Two ports are the same port exactly when their
 * refs are equal; nothing else (speed, kind, state) takes part in identity.
 *
 * @param node the node name
 * @param netdev the port's netdev name on that node
 */
public record PortRef(String node, String netdev) implements Comparable<PortRef> {
    private static final Comparator<PortRef> ORDER =
            Comparator.comparing(PortRef::node, NaturalOrder.INSTANCE)
                    .thenComparing(PortRef::netdev, NaturalOrder.INSTANCE);

    /** @throws IllegalArgumentException when a name breaks the rules of {@link Names} */
    public PortRef {
        Names.node("node", node);
        Names.plain("port", netdev);
    }

    /**
     * Parses {@code node:port}.
     *
     * @param text for example {@code "a:en6"}
     * @return the ref
     * @throws IllegalArgumentException when there is no {@code ':'} or a side is empty
     */
    public static PortRef parse(String text) {
        int colon = text == null ? -1 : text.indexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            throw new IllegalArgumentException("\"" + Names.escape(text) + "\" is not a port: write node:port, e.g. a:en6");
        }
        return new PortRef(text.substring(0, colon), text.substring(colon + 1));
    }

    /** Orders by node, then port, comparing digit runs as numbers ({@code en2 < en10}). */
    @Override
    public int compareTo(PortRef other) {
        return ORDER.compare(this, other);
    }

    @Override
    public String toString() {
        return node + ":" + netdev;
    }
}
