package io.railmap.matrix.topology;

import io.railmap.matrix.model.PortRef;

/**
 * A physical cable between ports on two different nodes. Its identity is its two ends and nothing
 * else, so two identical parallel cables stay two edges in a multigraph. The ends are stored in
 * {@link PortRef} order, so {@code new Cable(x, y).equals(new Cable(y, x))}; {@code a} is always on
 * the node that sorts first.
 *
 * @param a the end that sorts first
 * @param b the other end
 */
public record Cable(PortRef a, PortRef b) implements Comparable<Cable> {

    /** @throws IllegalArgumentException when both ends are on one node */
    public Cable {
        if (a.node().equals(b.node())) {
            throw new IllegalArgumentException("a cable joins two nodes, but " + a + " and " + b + " are both on " + a.node());
        }
        if (a.compareTo(b) > 0) {
            PortRef t = a;
            a = b;
            b = t;
        }
    }

    /**
     * @param node one of the cable's two nodes
     * @return the cable's end on that node
     * @throws IllegalArgumentException when the cable does not touch the node
     */
    public PortRef end(String node) {
        if (a.node().equals(node)) {
            return a;
        }
        if (b.node().equals(node)) {
            return b;
        }
        throw new IllegalArgumentException("cable " + this + " does not touch node " + node);
    }

    /**
     * @param end one end of this cable
     * @return the other end
     * @throws IllegalArgumentException when {@code end} is not an end of this cable
     */
    public PortRef farEnd(PortRef end) {
        if (a.equals(end)) {
            return b;
        }
        if (b.equals(end)) {
            return a;
        }
        throw new IllegalArgumentException(end + " is not an end of cable " + this);
    }

    /** Orders by the first end, then the second (digits compared as numbers). */
    @Override
    public int compareTo(Cable other) {
        int c = a.compareTo(other.a);
        return c != 0 ? c : b.compareTo(other.b);
    }

    /** @return {@code a:en6–b:en7} */
    @Override
    public String toString() {
        return a + "\u2013" + b;
    }
}
