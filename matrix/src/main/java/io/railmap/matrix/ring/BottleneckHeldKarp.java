package io.railmap.matrix.ring;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.jgrapht.Graph;
import org.jgrapht.alg.connectivity.BiconnectivityInspector;
import org.jgrapht.alg.connectivity.ConnectivityInspector;
import org.jgrapht.graph.DefaultEdge;
import org.jgrapht.graph.SimpleGraph;

/**
 * Exact bottleneck Hamiltonian cycle by bitmask dynamic programming over subsets (Held and Karp,
 * "A dynamic programming approach to sequencing problems", 1962), run for a threshold chosen by
 * binary search over the distinct edge weights.
 *
 * <p>For a threshold t only edges of weight ≥ t are kept. With vertex 0 fixed as the start,
 * {@code reach[S]} is the set of vertices u in S such that some path from 0 visits exactly
 * {0} ∪ S and ends at u; u ∈ reach[S] iff reach[S∖{u}] holds a neighbour of u. A cycle exists iff
 * reach[all] holds a neighbour of 0. The cycle is then built greedily in preference order: from the
 * current vertex, the first unvisited neighbour u with u ∈ reach[unvisited] (a path from u through
 * the rest back to 0 exists). Time O(2^(n-1) · n · log w), memory 2^(n-1) ints, for n vertices and w
 * distinct weights; 16 vertices take well under a millisecond per threshold.
 *
 * <p>Before searching, the structural obstacles are named: a vertex with fewer than two
 * neighbours, a graph in separate pieces, a cut vertex (every cycle would pass it twice).
 */
public final class BottleneckHeldKarp implements RingOrder {
    /** The largest vertex count searched (2^23 ints, 32 MiB). */
    public static final int MAX_VERTICES = 24;

    @Override
    public <V, E> RingSearch<V> find(Graph<V, E> graph, List<V> vertices) {
        if (!Set.copyOf(vertices).equals(graph.vertexSet()) || vertices.size() != graph.vertexSet().size()) {
            throw new IllegalArgumentException("the vertex list must name every vertex of the graph exactly once");
        }
        int n = vertices.size();
        if (n > MAX_VERTICES) {
            return new RingSearch.GaveUp<>("an exact ring search covers at most " + MAX_VERTICES
                    + " nodes and " + n + " were given; give the rank order yourself");
        }
        Map<V, Integer> index = new HashMap<>();
        for (int i = 0; i < n; i++) {
            index.put(vertices.get(i), i);
        }
        int[][] weight = new int[n][n];
        for (E e : graph.edgeSet()) {
            int a = index.get(graph.getEdgeSource(e));
            int b = index.get(graph.getEdgeTarget(e));
            int w = (int) Math.floor(graph.getEdgeWeight(e));
            if (a != b && w > weight[a][b]) {
                weight[a][b] = w;
                weight[b][a] = w;
            }
        }
        if (n == 1) {
            return new RingSearch.Found<>(vertices, 0);
        }
        RingSearch.Absent<V> obstacle = obstacle(vertices, weight);
        if (obstacle != null) {
            return obstacle;
        }
        int[] thresholds = Arrays.stream(weight).flatMapToInt(Arrays::stream).filter(w -> w > 0).distinct().sorted().toArray();
        int lo = 0;
        int hi = thresholds.length - 1;
        int[] best = null;
        int bestThreshold = 0;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int[] cycle = cycle(weight, thresholds[mid]);
            if (cycle != null) {
                best = cycle;
                bestThreshold = thresholds[mid];
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        if (best == null) {
            return new RingSearch.Absent<>(vertices, "no cycle passes through every node exactly once "
                    + "(every node has two cabled neighbours, but the cables do not close a ring)");
        }
        List<V> order = new ArrayList<>(n);
        for (int i : best) {
            order.add(vertices.get(i));
        }
        return new RingSearch.Found<>(order, bestThreshold);
    }

    /** Names a structural reason no cycle exists, or returns null. */
    private static <V> RingSearch.Absent<V> obstacle(List<V> vertices, int[][] weight) {
        int n = vertices.size();
        Graph<Integer, DefaultEdge> g = new SimpleGraph<>(DefaultEdge.class);
        for (int i = 0; i < n; i++) {
            g.addVertex(i);
        }
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                if (weight[i][j] > 0) {
                    g.addEdge(i, j);
                }
            }
        }
        if (n == 2) {
            return weight[0][1] > 0 ? null
                    : new RingSearch.Absent<>(vertices, "there is no cable between " + names(vertices, Set.of(0, 1)));
        }
        Set<Integer> lonely = new TreeSet<>();
        for (int i = 0; i < n; i++) {
            if (g.degreeOf(i) < 2) {
                lonely.add(i);
            }
        }
        if (!lonely.isEmpty()) {
            return new RingSearch.Absent<>(pick(vertices, lonely), names(vertices, lonely)
                    + (lonely.size() == 1 ? " has" : " have") + " fewer than two cabled neighbours among the nodes, "
                    + "and a ring needs two");
        }
        List<Set<Integer>> pieces = new ConnectivityInspector<>(g).connectedSets();
        if (pieces.size() > 1) {
            String groups = pieces.stream().map(p -> "{" + names(vertices, p) + "}").collect(Collectors.joining(" and "));
            return new RingSearch.Absent<>(vertices, "the nodes fall into groups with no cable between them: " + groups);
        }
        Set<Integer> cuts = new TreeSet<>(new BiconnectivityInspector<>(g).getCutpoints());
        if (!cuts.isEmpty()) {
            return new RingSearch.Absent<>(pick(vertices, cuts), "every path between some nodes passes through "
                    + names(vertices, cuts) + ", so a ring would have to visit "
                    + (cuts.size() == 1 ? "it" : "them") + " twice");
        }
        return null;
    }

    /** A Hamiltonian cycle using edges of weight ≥ threshold, first in index order; null when none. */
    static int[] cycle(int[][] weight, int threshold) {
        int n = weight.length;
        int m = n - 1;
        int[] adj = new int[n];
        for (int i = 0; i < n; i++) {
            for (int j = 1; j < n; j++) {
                if (i != j && weight[i][j] >= threshold) {
                    adj[i] |= 1 << (j - 1);
                }
            }
        }
        int all = (1 << m) - 1;
        int[] reach = new int[1 << m];
        for (int set = 1; set <= all; set++) {
            int low = Integer.lowestOneBit(set);
            if (set == low) {
                reach[set] = adj[0] & set;
                continue;
            }
            int ends = 0;
            for (int rest = set; rest != 0; rest &= rest - 1) {
                int bit = Integer.lowestOneBit(rest);
                int u = Integer.numberOfTrailingZeros(bit) + 1;
                if ((reach[set ^ bit] & adj[u]) != 0) {
                    ends |= bit;
                }
            }
            reach[set] = ends;
        }
        if ((reach[all] & adj[0]) == 0) {
            return null;
        }
        int[] order = new int[n];
        int current = 0;
        int unvisited = all;
        for (int step = 1; step < n; step++) {
            int choices = adj[current] & unvisited & reach[unvisited];
            int bit = Integer.lowestOneBit(choices);
            current = Integer.numberOfTrailingZeros(bit) + 1;
            order[step] = current;
            unvisited &= ~bit;
        }
        return order;
    }

    private static <V> List<V> pick(List<V> vertices, Set<Integer> which) {
        return which.stream().sorted().map(vertices::get).toList();
    }

    private static <V> String names(List<V> vertices, Set<Integer> which) {
        return pick(vertices, which).stream().map(String::valueOf).collect(Collectors.joining(", "));
    }
}
