package io.railmap.bench;

import io.railmap.matrix.Cluster;
import io.railmap.matrix.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** Cluster shapes for the benchmarks. */
final class Shapes {
    private Shapes() {
    }

    static List<String> nodes(int n) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add("node" + i);
        }
        return out;
    }

    /** Every pair joined by {@code cables} cables. */
    static Topology fullMesh(int n, int cables) {
        Cluster c = new Cluster();
        for (int a = 0; a < n; a++) {
            for (int b = a + 1; b < n; b++) {
                for (int k = 0; k < cables; k++) {
                    c.cable("node" + a + ":to" + b + "w" + k, "node" + b + ":to" + a + "w" + k);
                }
            }
        }
        return Topology.of(c.snapshot());
    }

    /**
     * A ring cabled in a scrambled order (node i to node (i + step) mod n, step coprime with n, so
     * the given order is not the cycle), two cables per ring edge, plus single-cable chords from
     * every third node across the ring.
     */
    static Topology ringWithChords(int n) {
        int step = SyntheticCluster.coprimeStep(n);
        Cluster c = new Cluster();
        for (int i = 0; i < n; i++) {
            int a = (i * step) % n;
            int b = ((i + 1) * step) % n;
            for (int k = 0; k < 2; k++) {
                c.cable("node" + a + ":r" + b + "w" + k, "node" + b + ":r" + a + "w" + k);
            }
        }
        for (int a = 0; a < n; a += 3) {
            int b = (a + n / 2) % n;
            if (b != a) {
                c.cable("node" + a + ":c" + b, "node" + b + ":c" + a);
            }
        }
        return Topology.of(c.snapshot());
    }

    /**
     * A full mesh as MLX's connectivity matrix ({@code mlx/_distributed_utils/config.py},
     * {@code make_connectivity_matrix}: entry [i][j] counts the cables between nodes i and j, 0 on
     * the diagonal): every pair 1 to 3 cables, drawn from {@code seed}, the same for the same seed.
     */
    static int[][] randomMesh(int n, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int[][] cables = new int[n][n];
        for (int a = 0; a < n; a++) {
            for (int b = a + 1; b < n; b++) {
                cables[a][b] = random.nextInt(1, 4);
                cables[b][a] = cables[a][b];
            }
        }
        return cables;
    }

    /**
     * A full mesh as MLX's connectivity matrix in which the ring in index order, 0, 1, ..., n-1 (the
     * first full ring MLX's {@code extract_rings} finds), has one cable per edge and every other pair
     * three: for 5 or more nodes a ring of three cables per edge exists off that ring.
     */
    static int[][] thinFirstRing(int n) {
        int[][] cables = new int[n][n];
        for (int a = 0; a < n; a++) {
            for (int b = a + 1; b < n; b++) {
                boolean onRing = b == a + 1 || (a == 0 && b == n - 1);
                cables[a][b] = onRing ? 1 : 3;
                cables[b][a] = cables[a][b];
            }
        }
        return cables;
    }
}
