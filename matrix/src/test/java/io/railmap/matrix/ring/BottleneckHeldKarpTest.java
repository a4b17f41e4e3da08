package io.railmap.matrix.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.jgrapht.Graph;
import org.jgrapht.graph.DefaultWeightedEdge;
import org.jgrapht.graph.SimpleWeightedGraph;
import org.junit.jupiter.api.Test;

class BottleneckHeldKarpTest {
    private final RingOrder ringOrder = new BottleneckHeldKarp();

    static Graph<String, DefaultWeightedEdge> graph(int n) {
        Graph<String, DefaultWeightedEdge> g = new SimpleWeightedGraph<>(DefaultWeightedEdge.class);
        for (int i = 0; i < n; i++) {
            g.addVertex("n" + i);
        }
        return g;
    }

    static void edge(Graph<String, DefaultWeightedEdge> g, int a, int b, int w) {
        g.setEdgeWeight(g.addEdge("n" + a, "n" + b), w);
    }

    static List<String> names(int n) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add("n" + i);
        }
        return out;
    }

    private static RingSearch.Absent<String> absent(RingSearch<String> r) {
        assertThat(r).isInstanceOf(RingSearch.Absent.class);
        return (RingSearch.Absent<String>) r;
    }

    @Test
    void fourNodesCabledAsARingGetTheRingOrder() {
        // cabled 0-2-1-3-0: the given order 0,1,2,3 is not a cycle, the found one is
        Graph<String, DefaultWeightedEdge> g = graph(4);
        edge(g, 0, 2, 2);
        edge(g, 2, 1, 2);
        edge(g, 1, 3, 2);
        edge(g, 3, 0, 2);

        RingSearch<String> r = ringOrder.find(g, names(4));

        assertThat(r).isEqualTo(new RingSearch.Found<>(List.of("n0", "n2", "n1", "n3"), 2));
    }

    @Test
    void theRingWithTheFattestThinnestEdgeWins() {
        // full mesh of 4; the cycle 0-1-2-3 has weight 3 everywhere, every other cycle uses a 1
        Graph<String, DefaultWeightedEdge> g = graph(4);
        edge(g, 0, 1, 3);
        edge(g, 1, 2, 3);
        edge(g, 2, 3, 3);
        edge(g, 3, 0, 3);
        edge(g, 0, 2, 1);
        edge(g, 1, 3, 1);
        assertThat(ringOrder.find(g, names(4))).isEqualTo(new RingSearch.Found<>(List.of("n0", "n1", "n2", "n3"), 3));
    }

    @Test
    void theFirstVertexIsRankZeroAndTiesFollowThePreferenceOrder() {
        Graph<String, DefaultWeightedEdge> g = graph(4);
        for (int a = 0; a < 4; a++) {
            for (int b = a + 1; b < 4; b++) {
                edge(g, a, b, 1);
            }
        }
        assertThat(ringOrder.find(g, List.of("n2", "n3", "n0", "n1")))
                .isEqualTo(new RingSearch.Found<>(List.of("n2", "n3", "n0", "n1"), 1));
    }

    @Test
    void aNodeWithOneNeighbourIsNamed() {
        Graph<String, DefaultWeightedEdge> g = graph(4);
        edge(g, 0, 1, 1);
        edge(g, 1, 2, 1);
        edge(g, 2, 0, 1);
        edge(g, 2, 3, 1);
        RingSearch.Absent<String> a = absent(ringOrder.find(g, names(4)));
        assertThat(a.unplaceable()).containsExactly("n3");
        assertThat(a.reason()).startsWith("n3 has fewer than two cabled neighbours");
    }

    @Test
    void aCutVertexIsNamed() {
        // two triangles sharing n2
        Graph<String, DefaultWeightedEdge> g = graph(5);
        edge(g, 0, 1, 1);
        edge(g, 1, 2, 1);
        edge(g, 2, 0, 1);
        edge(g, 2, 3, 1);
        edge(g, 3, 4, 1);
        edge(g, 4, 2, 1);
        RingSearch.Absent<String> a = absent(ringOrder.find(g, names(5)));
        assertThat(a.unplaceable()).containsExactly("n2");
        assertThat(a.reason()).contains("visit it twice");
    }

    @Test
    void separateGroupsAreNamed() {
        Graph<String, DefaultWeightedEdge> g = graph(6);
        edge(g, 0, 1, 1);
        edge(g, 1, 2, 1);
        edge(g, 2, 0, 1);
        edge(g, 3, 4, 1);
        edge(g, 4, 5, 1);
        edge(g, 5, 3, 1);
        assertThat(absent(ringOrder.find(g, names(6))).reason()).contains("{n0, n1, n2} and {n3, n4, n5}");
    }

    @Test
    void twoConnectedButNotHamiltonianIsProvenAbsent() {
        // K(2,3): 2-connected, every degree ≥ 2, no Hamiltonian cycle
        Graph<String, DefaultWeightedEdge> g = graph(5);
        for (int a : new int[] {0, 1}) {
            for (int b : new int[] {2, 3, 4}) {
                edge(g, a, b, 1);
            }
        }
        assertThat(absent(ringOrder.find(g, names(5))).reason()).startsWith("no cycle passes through every node exactly once");
    }

    @Test
    void twoAndOneNodes() {
        Graph<String, DefaultWeightedEdge> two = graph(2);
        edge(two, 0, 1, 2);
        assertThat(ringOrder.find(two, names(2))).isEqualTo(new RingSearch.Found<>(List.of("n0", "n1"), 2));
        assertThat(ringOrder.find(graph(2), names(2))).isInstanceOf(RingSearch.Absent.class);
        assertThat(ringOrder.find(graph(1), names(1))).isEqualTo(new RingSearch.Found<>(List.of("n0"), 0));
    }

    @Test
    void beyondTheLimitTheSearchSaysItGaveUp() {
        int n = BottleneckHeldKarp.MAX_VERTICES + 1;
        assertThat(ringOrder.find(graph(n), names(n))).isInstanceOf(RingSearch.GaveUp.class);
    }

    /** Seeded random graphs of up to 8 vertices against exhaustive enumeration of every cycle. */
    @Test
    void agreesWithBruteForceOnRandomGraphs() {
        long base = 0x5eed_2026L;
        for (int run = 0; run < 400; run++) {
            long seed = base + run;
            Random random = new Random(seed);
            int n = 3 + random.nextInt(6);
            Graph<String, DefaultWeightedEdge> g = graph(n);
            int[][] w = new int[n][n];
            for (int a = 0; a < n; a++) {
                for (int b = a + 1; b < n; b++) {
                    if (random.nextDouble() < 0.6) {
                        w[a][b] = w[b][a] = 1 + random.nextInt(4);
                        edge(g, a, b, w[a][b]);
                    }
                }
            }
            int expected = bruteForceBottleneck(w);
            RingSearch<String> r = ringOrder.find(g, names(n));
            try {
                if (expected < 0) {
                    assertThat(r).isInstanceOf(RingSearch.Absent.class);
                } else {
                    assertThat(r).isInstanceOf(RingSearch.Found.class);
                    RingSearch.Found<String> found = (RingSearch.Found<String>) r;
                    assertThat(found.bottleneck()).isEqualTo(expected);
                    assertThat(found.order()).hasSize(n).doesNotHaveDuplicates().startsWith("n0");
                    for (int i = 0; i < n; i++) {
                        int a = Integer.parseInt(found.order().get(i).substring(1));
                        int b = Integer.parseInt(found.order().get((i + 1) % n).substring(1));
                        assertThat(w[a][b]).isGreaterThanOrEqualTo(expected);
                    }
                }
            } catch (AssertionError e) {
                fail("seed " + seed + " (n=" + n + "): " + e.getMessage(), e);
            }
        }
    }

    /** The best bottleneck over every Hamiltonian cycle through vertex 0, or -1 when none. */
    private static int bruteForceBottleneck(int[][] w) {
        int n = w.length;
        int[] best = {-1};
        int[] path = new int[n];
        boolean[] used = new boolean[n];
        used[0] = true;
        extend(w, path, used, 1, Integer.MAX_VALUE, best);
        return best[0];
    }

    private static void extend(int[][] w, int[] path, boolean[] used, int depth, int bottleneck, int[] best) {
        int n = w.length;
        int last = path[depth - 1];
        if (depth == n) {
            if (w[last][0] > 0) {
                best[0] = Math.max(best[0], Math.min(bottleneck, w[last][0]));
            }
            return;
        }
        for (int v = 1; v < n; v++) {
            if (!used[v] && w[last][v] > 0) {
                used[v] = true;
                path[depth] = v;
                extend(w, path, used, depth + 1, Math.min(bottleneck, w[last][v]), best);
                used[v] = false;
            }
        }
    }
}
