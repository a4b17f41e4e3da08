package io.railmap.bench;

import io.railmap.cli.ExitCodes;
import io.railmap.cli.Railmap;
import io.railmap.cli.lab.LabSetup;
import io.railmap.lab.Lab;
import io.railmap.lab.LabException;
import io.railmap.lab.LabSsh;
import io.railmap.lab.LabTopology;
import io.railmap.lab.MlxLaunch;
import io.railmap.lab.MlxRuntime;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.topology.Cable;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * MLX's own all_sum over the lab's cables, one run each (needs root on Linux, sshd, a built checkout and
 * {@code bin/mlx-venv}; run from the checkout's top): rings of 2 and 4 nodes with 1 and 2 cables per ring
 * edge, each a fresh lab, its hostfile from {@code railmap matrix --format ring-launch}, the job started by
 * the real {@code mlx.launch} over the lab's ssh ({@link MlxLaunch}) running {@code examples/mlx/all_sum.py}.
 * The time is MLX's own clock in the script ({@code time.perf_counter} around {@code mx.eval}), the mean of
 * the iterations on each rank, then the slowest rank's; GB/s is the algorithm bandwidth, the array's bytes
 * over that time. Prints one line per shape. Arguments: {@code [MIB [ITERATIONS]]}, default 64 and 5.
 * Namespaces carry the prefix {@code rmx<pid>}.
 */
public final class MlxAllSumBench {
    private static final Duration JOB = Duration.ofSeconds(300);

    private MlxAllSumBench() {
    }

    /** @param args {@code [MIB [ITERATIONS]]} */
    public static void main(String[] args) throws Exception {
        int mib = args.length > 0 ? Integer.parseInt(args[0]) : 64;
        int iterations = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        Path root = Path.of("").toAbsolutePath();
        System.setProperty("railmap.home", System.getProperty("railmap.home", root.toString()));
        System.setProperty("railmap.lab.prefix", "rmx" + ProcessHandle.current().pid());
        System.setProperty("railmap.lab.dir", Files.createTempDirectory("railmap-mlx-bench").toString());
        if (MlxRuntime.unavailable().isPresent()) {
            System.err.println("MlxAllSumBench: " + MlxRuntime.unavailable().get());
            System.exit(ExitCodes.INPUT);
        }
        Path python = MlxRuntime.python();
        Lab lab = LabSetup.lab();
        try {
            for (int nodes : List.of(2, 4)) {
                for (int wires : List.of(1, 2)) {
                    run(lab, python, root, ring(nodes, wires), mib, iterations);
                }
            }
        } catch (LabException e) {
            System.err.println("MlxAllSumBench: lab: " + e.getMessage());
            System.exit(ExitCodes.LAB);
        } finally {
            lab.down();
        }
    }

    private static void run(Lab lab, Path python, Path root, LabTopology topology, int mib, int iterations) throws Exception {
        lab.up(topology, LabSetup.daemonCommand(), LabSsh.Mode.ON);
        long start = System.nanoTime();
        while (!LabSetup.agreement(topology, topology.nodes()).reached()) {
            Thread.sleep(50);
            if (System.nanoTime() - start > 120_000_000_000L) {
                throw new IllegalStateException("no agreement within 120 s");
            }
        }
        Path hostfile = lab.dir().resolve("ring.json");
        StringWriter err = new StringWriter();
        int code = Railmap.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(err)).execute("matrix", "--lab",
                topology.nodes().get(0), "--format", "ring-launch", "-o", hostfile.toString());
        if (code != ExitCodes.OK) {
            throw new IllegalStateException("railmap matrix --format ring-launch exited " + code + ": " + err);
        }
        MlxLaunch.Result result = MlxLaunch.run(lab, python, hostfile, List.of(root.resolve("examples/mlx/all_sum.py").toString(),
                "--mib", Integer.toString(mib), "--iterations", Integer.toString(iterations)), JOB);
        int n = topology.nodes().size();
        int wires = topology.cables().size() / (n == 2 ? 1 : n);
        if (result.ranks().size() != n || !result.ranks().stream().allMatch(r -> r.get("exact").asBoolean())) {
            System.out.printf("all_sum  %d nodes, %d wire%s per edge: FAILED (%s)%n", n, wires, wires == 1 ? "" : "s",
                    result.output().strip().replace('\n', ' '));
        } else {
            double slowest = result.ranks().stream().mapToDouble(r -> r.get("seconds").asDouble()).max().orElseThrow();
            long bytes = result.ranks().get(0).get("bytes").asLong();
            System.out.printf("all_sum  %d nodes, %d wire%s per edge, %d MiB: %.3f s, %.2f GB/s (mean of %d on each rank, slowest rank)%n",
                    n, wires, wires == 1 ? "" : "s", bytes >> 20, slowest, bytes / slowest / 1e9, iterations);
        }
        lab.down();
    }

    /** n nodes in a ring with w cables per ring edge; two nodes get w cables between them. */
    static LabTopology ring(int n, int w) {
        List<String> nodes = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            nodes.add("n" + i);
        }
        List<Cable> cables = new ArrayList<>();
        for (int i = 0; i < (n == 2 ? 1 : n); i++) {
            for (int k = 0; k < w; k++) {
                cables.add(new Cable(new PortRef("n" + i, "r" + k), new PortRef("n" + (i + 1) % n, "l" + k)));
            }
        }
        return new LabTopology(n + " nodes in a ring, " + w + " cables per edge", nodes, cables);
    }
}
