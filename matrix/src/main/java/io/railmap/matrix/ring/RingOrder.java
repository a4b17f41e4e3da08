package io.railmap.matrix.ring;

import java.util.List;
import org.jgrapht.Graph;

/** Finds a cyclic order of all vertices that follows edges of a graph. */
public interface RingOrder {
    /**
     * Finds a Hamiltonian cycle that maximises its smallest edge weight (the bottleneck).
     *
     * @param graph      an undirected graph; an edge's weight is the number of wires between its
     *                   vertices (edges of weight below 1 are ignored; of parallel edges the heaviest
     *                   counts)
     * @param vertices   every vertex of the graph, in order of preference: among best cycles the one
     *                   whose sequence, starting at {@code vertices.get(0)}, is first in this order wins
     * @param <V>        vertex type
     * @param <E>        edge type
     * @return the cycle found, proof that none exists, or the limit the search stopped at
     * @throws IllegalArgumentException when {@code vertices} is not exactly the graph's vertex set
     */
    <V, E> RingSearch<V> find(Graph<V, E> graph, List<V> vertices);
}
