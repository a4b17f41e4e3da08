package io.railmap.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.withinPercentage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.railmap.lab.MlxRuntime;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * examples/mlx/all_sum.py on MLX's own runtime (the pinned wheel, {@link MlxRuntime}): two ranks of
 * MLX's TCP ring backend on 127.0.0.1, as {@code mlx.launch} would start them, sum 64 MiB each and
 * both report the exact result; and the script's refusals of bad input.
 */
@ExtendWith(MlxAvailable.class)
class MlxAllSumTest {
    private static final Path SCRIPT = Path.of("..", "examples", "mlx", "all_sum.py").toAbsolutePath().normalize();
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The longest a rank may run: two ranks of 64 MiB took 3 s on the loaded 2-core build machine. */
    private static final long RANK_TIMEOUT_S = 120;

    @TempDir
    Path dir;

    /** A rank's exit code, standard output and standard error. */
    private record Ended(int code, String out, String err) {
    }

    /** Ports free on 127.0.0.1 now, each different. */
    private static List<Integer> freePorts(int n) throws IOException {
        List<ServerSocket> sockets = new ArrayList<>();
        try {
            for (int i = 0; i < n; i++) {
                sockets.add(new ServerSocket(0, 1, InetAddress.getLoopbackAddress()));
            }
            return sockets.stream().map(ServerSocket::getLocalPort).toList();
        } finally {
            for (ServerSocket s : sockets) {
                s.close();
            }
        }
    }

    /**
     * Starts one all_sum.py per environment, waits for all of them (each at most {@value #RANK_TIMEOUT_S} s;
     * all are killed when one is late) and returns how each ended.
     */
    private List<Ended> run(List<Map<String, String>> environments, String... args) throws Exception {
        List<Process> ranks = new ArrayList<>();
        List<Path[]> files = new ArrayList<>();
        try {
            for (int r = 0; r < environments.size(); r++) {
                List<String> command = new ArrayList<>(List.of(MlxRuntime.python().toString(), SCRIPT.toString()));
                command.addAll(List.of(args));
                Path out = dir.resolve("rank" + r + ".out");
                Path err = dir.resolve("rank" + r + ".err");
                ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile())
                        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
                builder.environment().keySet().removeIf(k -> k.startsWith("MLX_"));
                builder.environment().putAll(environments.get(r));
                ranks.add(builder.start());
                files.add(new Path[] {out, err});
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(RANK_TIMEOUT_S);
            List<Ended> ended = new ArrayList<>();
            for (int r = 0; r < ranks.size(); r++) {
                boolean done = ranks.get(r).waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                assertThat(done).as("rank %d ended within %d s; its error output: %s", r, RANK_TIMEOUT_S, Files.readString(files.get(r)[1]))
                        .isTrue();
                ended.add(new Ended(ranks.get(r).exitValue(), Files.readString(files.get(r)[0]), Files.readString(files.get(r)[1])));
            }
            return ended;
        } finally {
            for (Process p : ranks) {
                if (p.isAlive()) {
                    p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            }
        }
    }

    @Test
    void twoRingRanksOnLoopbackEachReportTheExactSum() throws Exception {
        List<Integer> ports = freePorts(2);
        Path hostfile = dir.resolve("hosts.json");
        // MLX's ring hostfile: one list of addresses per rank (mlx/distributed/ring/ring.cpp, load_nodes)
        Files.writeString(hostfile, "[[\"127.0.0.1:" + ports.get(0) + "\"],[\"127.0.0.1:" + ports.get(1) + "\"]]");
        List<Ended> ended = run(List.of(
                Map.of("MLX_HOSTFILE", hostfile.toString(), "MLX_RANK", "0"),
                Map.of("MLX_HOSTFILE", hostfile.toString(), "MLX_RANK", "1")), "--mib", "64", "--iterations", "2");
        for (int r = 0; r < 2; r++) {
            Ended rank = ended.get(r);
            assertThat(rank.code()).as("rank %d: %s", r, rank.err()).isZero();
            List<String> lines = rank.out().lines().toList();
            assertThat(lines).as("rank %d prints one line", r).hasSize(1);
            JsonNode line = JSON.readTree(lines.get(0));
            assertThat(line.get("rank").asInt()).isEqualTo(r);
            assertThat(line.get("size").asInt()).isEqualTo(2);
            assertThat(line.get("bytes").asLong()).isEqualTo(64L << 20);
            assertThat(line.get("iterations").asInt()).isEqualTo(2);
            // rank 0 holds ones, rank 1 twos: every element of the sum is 3
            assertThat(line.get("value").asDouble()).isEqualTo(3.0);
            assertThat(line.get("expected").asInt()).isEqualTo(3);
            assertThat(line.get("exact").asBoolean()).isTrue();
            double seconds = line.get("seconds").asDouble();
            assertThat(seconds).isPositive();
            assertThat(line.get("algbw_gb_s").asDouble()).isCloseTo((64L << 20) / seconds / 1e9, withinPercentage(1e-9));
        }
    }

    @Test
    void withoutAHostfileTheRingDoesNotStartAndTheScriptSaysWhatToSet() throws Exception {
        Ended ended = run(List.of(Map.of())).get(0);
        assertThat(ended.code()).isEqualTo(3);
        assertThat(ended.out()).isEmpty();
        assertThat(ended.err()).contains("MLX's ring backend did not start", "MLX_HOSTFILE", "MLX_RANK").doesNotContain("Traceback");
    }

    @Test
    void aBadArgumentIsNamedWithExitTwo() throws Exception {
        Ended zero = run(List.of(Map.of()), "--mib", "0").get(0);
        assertThat(zero.code()).isEqualTo(2);
        assertThat(zero.err()).contains("argument --mib: 0 is outside 1 to 4096").doesNotContain("Traceback");
        Ended word = run(List.of(Map.of()), "--iterations", "many").get(0);
        assertThat(word.code()).isEqualTo(2);
        assertThat(word.err()).contains("argument --iterations: 'many' is not a whole number");
    }
}
