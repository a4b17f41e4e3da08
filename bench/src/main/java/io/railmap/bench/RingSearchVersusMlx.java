package io.railmap.bench;

import io.railmap.cli.ExitCodes;
import io.railmap.matrix.ring.BottleneckHeldKarp;
import io.railmap.matrix.ring.RingSearch;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.jgrapht.Graph;
import org.jgrapht.graph.DefaultWeightedEdge;
import org.jgrapht.graph.SimpleWeightedGraph;

/**
 * mlx.distributed_config's ring search against railmap's, on full meshes of N Macs whose pairs have 1 to 3
 * cables (seeded, so every run measures the same meshes). MLX's is {@code extract_rings} from the installed
 * wheel ({@code python/mlx/_distributed_utils/config.py}): it enumerates every simple cycle from every node,
 * and {@code configure_ring} takes {@code rings[0]}, the first longest one found, whose width is the fewest
 * cables on one of its edges. railmap's is {@link BottleneckHeldKarp}: the ring whose thinnest edge is widest,
 * exactly. Prints, per N, each one's wall time and its ring's thinnest edge, and railmap's over MLX's. MLX's
 * search runs in a python process with a budget (default 600 s) and is ended there: "gave up" is a result.
 * Arguments: {@code [--budget-s S] N...} (default 8 10 11 12); needs {@code bin/mlx-venv}; run from the
 * checkout's top.
 */
public final class RingSearchVersusMlx {
    private static final long SEED = 20261128L;
    private static final String MLX_SEARCH = String.join("\n",
            "import json, sys, time",
            "from mlx._distributed_utils.config import extract_rings",
            "connectivity = json.load(sys.stdin)",
            "start = time.perf_counter()",
            "rings = extract_rings(connectivity)",
            "seconds = time.perf_counter() - start",
            "full = [r for r in rings if len(r[0]) == len(connectivity)]",
            "print(json.dumps({'seconds': seconds, 'cycles': len(rings), 'width': full[0][1] if full else 0}))");

    private RingSearchVersusMlx() {
    }

    /** @param args {@code [--budget-s S] N...} */
    public static void main(String[] args) throws Exception {
        long budget = 600;
        List<Integer> sizes = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--budget-s") && i + 1 < args.length) {
                budget = Long.parseLong(args[++i]);
            } else {
                sizes.add(Integer.parseInt(args[i]));
            }
        }
        if (sizes.isEmpty()) {
            sizes = List.of(8, 10, 11, 12);
        }
        Process venv = new ProcessBuilder("bin/mlx-venv").redirectError(ProcessBuilder.Redirect.INHERIT).start();
        if (!venv.waitFor(600, TimeUnit.SECONDS) || venv.exitValue() != 0) {
            System.err.println("RingSearchVersusMlx: bin/mlx-venv gave no MLX (see above)");
            System.exit(ExitCodes.INPUT);
        }
        String python = new String(venv.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        for (int n : sizes) {
            int[][] cables = mesh(n, new Random(SEED + n));
            long best = Long.MAX_VALUE;
            int railmapWidth = 0;
            for (int run = 0; run < 5; run++) {
                long start = System.nanoTime();
                RingSearch<Integer> found = new BottleneckHeldKarp().find(graph(cables), nodes(n));
                best = Math.min(best, System.nanoTime() - start);
                railmapWidth = ((RingSearch.Found<Integer>) found).bottleneck();
            }
            String mlx = mlx(python, cables, budget);
            System.out.printf("ring search  full mesh of %2d nodes, 1-3 cables per pair: railmap %.1f ms, thinnest edge %d; %s%n",
                    n, best / 1e6, railmapWidth, mlx.startsWith("{") ? describe(mlx, railmapWidth) : mlx);
        }
    }

    /** @return MLX's result as JSON, or why there is none */
    private static String mlx(String python, int[][] cables, long budgetS) throws Exception {
        StringBuilder matrix = new StringBuilder("[");
        for (int i = 0; i < cables.length; i++) {
            List<String> row = new ArrayList<>();
            for (int c : cables[i]) {
                row.add(Integer.toString(c));
            }
            matrix.append(i == 0 ? "" : ",").append("[").append(String.join(",", row)).append("]");
        }
        matrix.append("]");
        Path out = Files.createTempFile("mlx-rings", ".json");
        try {
            Process p = new ProcessBuilder(python, "-c", MLX_SEARCH).redirectOutput(out.toFile())
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            p.getOutputStream().write(matrix.toString().getBytes(StandardCharsets.UTF_8));
            p.getOutputStream().close();
            if (!p.waitFor(budgetS, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                return "MLX's extract_rings gave up after " + budgetS + " s (the budget)";
            }
            return Files.readString(out).strip();
        } finally {
            Files.deleteIfExists(out);
        }
    }

    private static String describe(String json, int railmapWidth) {
        double seconds = Double.parseDouble(json.replaceAll(".*\"seconds\": ([0-9.e-]+).*", "$1"));
        int width = Integer.parseInt(json.replaceAll(".*\"width\": ([0-9]+).*", "$1"));
        long cycles = Long.parseLong(json.replaceAll(".*\"cycles\": ([0-9]+).*", "$1"));
        return String.format("MLX's extract_rings %.1f s (%,d cycles), thinnest edge %d; railmap/MLX %.2f", seconds, cycles, width,
                width == 0 ? Double.NaN : (double) railmapWidth / width);
    }

    /** A full mesh: every pair of n nodes joined by 1 to 3 cables. */
    static int[][] mesh(int n, Random random) {
        int[][] cables = new int[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                cables[i][j] = cables[j][i] = 1 + random.nextInt(3);
            }
        }
        return cables;
    }

    private static Graph<Integer, DefaultWeightedEdge> graph(int[][] cables) {
        Graph<Integer, DefaultWeightedEdge> g = new SimpleWeightedGraph<>(DefaultWeightedEdge.class);
        for (int i = 0; i < cables.length; i++) {
            g.addVertex(i);
        }
        for (int i = 0; i < cables.length; i++) {
            for (int j = i + 1; j < cables.length; j++) {
                g.setEdgeWeight(g.addEdge(i, j), cables[i][j]);
            }
        }
        return g;
    }

    private static List<Integer> nodes(int n) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(i);
        }
        return out;
    }
}
