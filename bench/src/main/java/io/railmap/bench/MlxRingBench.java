package io.railmap.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.railmap.cli.ExitCodes;
import io.railmap.lab.MlxRuntime;
import io.railmap.matrix.ring.BottleneckHeldKarp;
import io.railmap.matrix.ring.RingSearch;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.jgrapht.Graph;
import org.jgrapht.graph.DefaultWeightedEdge;
import org.jgrapht.graph.SimpleWeightedGraph;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * MLX's ring search against railmap's, on full meshes whose pairs have 1 to 3 cables (run by hand,
 * from a checkout's top).
 *
 * <p>MLX: {@code extract_rings} of the pinned wheel ({@code mlx/_distributed_utils/config.py}), run
 * by its python ({@link MlxRuntime}) on the connectivity matrix, in a process of its own that is
 * killed at the budget. It enumerates every simple cycle from every start, keeps the first cycle
 * found for each set of nodes, and sorts by length alone, so the ring {@code mlx.distributed_config}
 * uses is the first full cycle its depth-first search meets (0, 1, ..., n-1 on a full mesh), and that
 * ring's width is the fewest cables on it. Its time is that of the whole enumeration.
 *
 * <p>railmap: {@link BottleneckHeldKarp} on the same matrix, the ring whose thinnest edge is widest;
 * its first call and the median of {@value #RUNS} calls after {@value #WARM_UP} warm-up calls.
 *
 * <p>Shapes: {@code random}, every pair 1 to 3 cables drawn from the seed ({@link Shapes#randomMesh});
 * {@code thin-first}, one cable on MLX's first ring and three elsewhere ({@link Shapes#thinFirstRing}).
 * Prints a Markdown table, one row per shape and size as it finishes.
 *
 * <p>Errors: a bad argument is one line naming it and exit 1; MLX's runtime that cannot be made here
 * is its reason and exit 5; MLX's search failing in any other way than the budget is its output and
 * exit 70.
 */
public final class MlxRingBench {
    /** Seconds MLX's search may run per matrix before it is killed. */
    static final int BUDGET_S = 600;
    /** The seed of the {@code random} shape. */
    static final long SEED = 20_261_129L;
    /** Untimed calls of railmap's search before the timed ones. */
    static final int WARM_UP = 200;
    /** Timed calls of railmap's search; the median is reported. */
    static final int RUNS = 51;
    /** The shapes, by name. */
    static final List<String> SHAPES = List.of("random", "thin-first");
    private static final ObjectMapper JSON = new ObjectMapper();

    private MlxRingBench() {
    }

    /** The command line: {@code [--budget-s S] [--seed X] [--shape NAME]... N...}. */
    @Command(name = "MlxRingBench", sortOptions = false,
            description = "MLX's ring search (extract_rings of the pinned wheel) against railmap's exact bottleneck search, on full meshes"
                    + " of N nodes whose pairs have 1 to 3 cables: each one's time and its ring's thinnest edge.",
            footer = {"", "Exit codes: 0 done, 1 a bad argument (named on standard error), 5 MLX's runtime cannot be made here"
                    + " (bin/mlx-venv's reason on standard error), 70 MLX's search failed other than by the budget."})
    static final class Arguments implements BenchCommandLine.Checked {
        @Option(names = "--budget-s", paramLabel = "S", description = "Seconds MLX's search may take per matrix; then it is killed (default: ${DEFAULT-VALUE}).")
        int budgetS = BUDGET_S;
        @Option(names = "--seed", paramLabel = "X", description = "The seed of the random shape (default: ${DEFAULT-VALUE}).")
        long seed = SEED;
        @Option(names = "--shape", paramLabel = "NAME", description = "random or thin-first; repeat for both (default: both).")
        List<String> shapes = new ArrayList<>(SHAPES);
        @Parameters(paramLabel = "N", description = "Mesh sizes, in nodes, 3 to " + BottleneckHeldKarp.MAX_VERTICES + " (default: 8 10 11 12).")
        List<Integer> sizes = new ArrayList<>(List.of(8, 10, 11, 12));
        @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
        boolean help;

        @Override
        public void check(CommandLine line) {
            BenchCommandLine.within(line, "option '--budget-s'", budgetS, 1, 86_400, "seconds MLX's search may take per matrix");
            for (String shape : shapes) {
                if (!SHAPES.contains(shape)) {
                    throw new CommandLine.ParameterException(line, "Invalid value for option '--shape': " + shape
                            + " is not a shape; give one of " + String.join(", ", SHAPES));
                }
            }
            for (int n : sizes) {
                BenchCommandLine.within(line, "N", n, 3, BottleneckHeldKarp.MAX_VERTICES,
                        "nodes in a mesh; railmap's exact search takes at most " + BottleneckHeldKarp.MAX_VERTICES);
            }
        }
    }

    /** railmap's ring's thinnest edge in cables, its search's first call and median call in ms. */
    record Railmap(int thinnest, double firstMs, double medianMs) {
    }

    /** MLX's ring's thinnest edge in cables and the seconds its search took; or the seconds after which it was killed. */
    record Mlx(int thinnest, double seconds, boolean gaveUp) {
    }

    /** @param args {@code [--budget-s S] [--seed X] [--shape NAME]... N...}; {@code --help} prints them */
    public static void main(String[] args) throws Exception {
        Arguments arguments = new Arguments();
        OptionalInt exit = BenchCommandLine.parse(arguments, args, new PrintWriter(System.out, true), new PrintWriter(System.err, true));
        if (exit.isPresent()) {
            System.exit(exit.getAsInt());
        }
        if (MlxRuntime.unavailable().isPresent()) {
            System.err.println("MlxRingBench: MLX cannot run here: " + MlxRuntime.unavailable().get());
            System.exit(ExitCodes.LAB);
        }
        Path script = Files.createTempFile("railmap-mlx-extract-rings", ".py");
        try (InputStream in = MlxRingBench.class.getResourceAsStream("mlx_extract_rings.py")) {
            Files.write(script, in.readAllBytes());
            run(arguments, MlxRuntime.python(), script);
        } catch (IllegalStateException e) {
            System.err.println("MlxRingBench: " + e.getMessage());
            System.exit(ExitCodes.INTERNAL);
        } finally {
            Files.deleteIfExists(script);
        }
    }

    private static void run(Arguments arguments, Path python, Path script) throws Exception {
        System.out.printf("MLX's extract_rings (%s) against railmap's BottleneckHeldKarp; random shape seed %d; MLX budget %d s per matrix%n%n",
                python, arguments.seed, arguments.budgetS);
        System.out.println("| shape | nodes | railmap: median call (first call) | railmap: thinnest edge | MLX: extract_rings | MLX: thinnest edge"
                + " | thinnest edge, railmap/MLX |");
        System.out.println("|-------|-------|------|------|------|------|------|");
        for (String shape : arguments.shapes) {
            for (int n : arguments.sizes) {
                int[][] cables = shape.equals("random") ? Shapes.randomMesh(n, arguments.seed) : Shapes.thinFirstRing(n);
                Railmap railmap = railmap(cables);
                Mlx mlx = mlx(python, script, cables, arguments.budgetS);
                System.out.println(String.format(Locale.ROOT, "| %s | %d | %.3f ms (%.1f ms) | %d | %s | %s | %s |", shape, n, railmap.medianMs(),
                        railmap.firstMs(), railmap.thinnest(), mlx.gaveUp() ? String.format(Locale.ROOT, "gave up after %.0f s", mlx.seconds())
                                : String.format(Locale.ROOT, "%.2f s", mlx.seconds()),
                        mlx.gaveUp() ? "–" : String.valueOf(mlx.thinnest()),
                        mlx.gaveUp() ? "–" : String.format(Locale.ROOT, "%.2f", (double) railmap.thinnest() / mlx.thinnest())));
            }
        }
    }

    /** The fewest cables between neighbours on {@code ring} (the last node is joined to the first). */
    static int thinnest(int[][] cables, List<Integer> ring) {
        return IntStream.range(0, ring.size()).map(i -> cables[ring.get(i)][ring.get((i + 1) % ring.size())]).min().orElse(0);
    }

    /** railmap's exact search on the matrix, timed. */
    static Railmap railmap(int[][] cables) {
        int n = cables.length;
        Graph<Integer, DefaultWeightedEdge> graph = new SimpleWeightedGraph<>(DefaultWeightedEdge.class);
        List<Integer> nodes = IntStream.range(0, n).boxed().toList();
        nodes.forEach(graph::addVertex);
        for (int a = 0; a < n; a++) {
            for (int b = a + 1; b < n; b++) {
                if (cables[a][b] > 0) {
                    graph.setEdgeWeight(graph.addEdge(a, b), cables[a][b]);
                }
            }
        }
        BottleneckHeldKarp search = new BottleneckHeldKarp();
        long start = System.nanoTime();
        RingSearch<Integer> first = search.find(graph, nodes);
        double firstMs = (System.nanoTime() - start) / 1e6;
        if (!(first instanceof RingSearch.Found<Integer> found)) {
            throw new IllegalStateException("railmap's search found no ring on a full mesh of " + n + " nodes: " + first);
        }
        for (int i = 0; i < WARM_UP; i++) {
            search.find(graph, nodes);
        }
        double[] ms = new double[RUNS];
        for (int i = 0; i < RUNS; i++) {
            long t = System.nanoTime();
            search.find(graph, nodes);
            ms[i] = (System.nanoTime() - t) / 1e6;
        }
        Arrays.sort(ms);
        int thinnest = thinnest(cables, found.order());
        if (thinnest != found.bottleneck()) {
            throw new IllegalStateException("railmap's ring " + found.order() + " has a thinnest edge of " + thinnest
                    + " cables, not the " + found.bottleneck() + " its search reports");
        }
        return new Railmap(thinnest, firstMs, ms[RUNS / 2]);
    }

    /**
     * MLX's {@code extract_rings} on the matrix in its own python process, killed after {@code budgetS}.
     *
     * @throws IllegalStateException when the process fails, prints something else than one JSON line,
     *                               finds no full ring on a full mesh, or reports a width its ring does not have
     */
    static Mlx mlx(Path python, Path script, int[][] cables, int budgetS) throws IOException, InterruptedException {
        Path out = Files.createTempFile("railmap-mlx-rings", ".out");
        Path err = Files.createTempFile("railmap-mlx-rings", ".err");
        try {
            long start = System.nanoTime();
            Process p = new ProcessBuilder(python.toString(), script.toString()).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            try (OutputStream in = p.getOutputStream()) {
                in.write(JSON.writeValueAsBytes(cables));
            }
            if (!p.waitFor(budgetS, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
                return new Mlx(0, (System.nanoTime() - start) / 1e9, true);
            }
            String printed = Files.readString(out, StandardCharsets.UTF_8).trim();
            if (p.exitValue() != 0 || printed.isEmpty() || printed.contains("\n")) {
                throw new IllegalStateException("MLX's extract_rings (" + python + " " + script + ") exited " + p.exitValue() + ": "
                        + printed + Files.readString(err, StandardCharsets.UTF_8).trim());
            }
            JsonNode result = JSON.readTree(printed);
            if (!result.get("full").asBoolean()) {
                throw new IllegalStateException("MLX's extract_rings found no ring through all " + cables.length + " nodes of a full mesh: " + printed);
            }
            List<Integer> ring = new ArrayList<>();
            result.get("ring").forEach(node -> ring.add(node.asInt()));
            int thinnest = thinnest(cables, ring);
            if (thinnest != result.get("width").asInt()) {
                throw new IllegalStateException("MLX's ring " + ring + " has a thinnest edge of " + thinnest + " cables, not the "
                        + result.get("width").asInt() + " extract_rings reports");
            }
            return new Mlx(thinnest, result.get("seconds").asDouble(), false);
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }
}
