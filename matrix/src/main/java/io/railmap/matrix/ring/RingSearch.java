package io.railmap.matrix.ring;

import java.util.List;

/**
 * The outcome of a ring search: a cycle, proof that none exists, or a limit the search stopped at.
 *
 * @param <V> vertex type
 */
public sealed interface RingSearch<V> permits RingSearch.Found, RingSearch.Absent, RingSearch.GaveUp {

    /**
     * A cycle through every vertex.
     *
     * @param order      the vertices in cycle order; the last is joined to the first
     * @param bottleneck the smallest edge weight on the cycle (0 for a single vertex)
     * @param <V>        vertex type
     */
    record Found<V>(List<V> order, int bottleneck) implements RingSearch<V> {
        /** Copies the order. */
        public Found {
            order = List.copyOf(order);
        }
    }

    /**
     * Proof that no cycle through every vertex exists.
     *
     * @param unplaceable the vertices that cannot be placed on a cycle (all of them when the
     *                    obstacle is global)
     * @param reason      a sentence saying why
     * @param <V>         vertex type
     */
    record Absent<V>(List<V> unplaceable, String reason) implements RingSearch<V> {
        /** Copies the list. */
        public Absent {
            unplaceable = List.copyOf(unplaceable);
        }
    }

    /**
     * The exact search declined: the input is beyond its limit.
     *
     * @param limit a sentence naming the limit
     * @param <V>   vertex type
     */
    record GaveUp<V>(String limit) implements RingSearch<V> {
    }
}
