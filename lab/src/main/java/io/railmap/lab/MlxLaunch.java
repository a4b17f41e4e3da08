package io.railmap.lab;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.railmap.process.ProcessTree;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs MLX's own launcher, {@code mlx.launch}, over a lab as a user runs it over a cluster: from the
 * machine's own namespace, with a hostfile, each rank started through {@code ssh NODE} into its node
 * (the lab's ssh shim first on the PATH, {@link LabSsh}), unmodified. The script's ranks print one JSON
 * object per line with a {@code "rank"} field ({@code examples/mlx/all_sum.py}); the rest of the
 * output is kept for messages.
 *
 * <p>mlx.launch's exit status is not the job's: it can exit 0 although a rank failed (MLX 0.32.4,
 * {@code launch.py} {@code _launch_with_io}); judge a run by its ranks' lines.
 */
public final class MlxLaunch {
    private static final ObjectMapper JSON = new ObjectMapper();

    private MlxLaunch() {
    }

    /**
     * What a run did.
     *
     * @param exit     mlx.launch's exit status; -1 when it was ended at the bound
     * @param ranks    the JSON lines the ranks printed, in the order they arrived
     * @param output   everything mlx.launch printed (standard output, then standard error), carriage returns removed
     * @param took     how long it ran
     */
    public record Result(int exit, List<JsonNode> ranks, String output, Duration took) {
        /** Copies the list. */
        public Result {
            ranks = List.copyOf(ranks);
        }

        /** @return true when it was ended at the bound */
        public boolean timedOut() {
            return exit == -1;
        }
    }

    /**
     * @param lab      the lab, up, with ssh on
     * @param python   the python of a virtual environment that has MLX (its {@code mlx.launch} is beside it)
     * @param hostfile the mlx.launch hostfile
     * @param script   the script and its arguments, run by that python on every rank
     * @param bound    how long the run may take; it is ended (with every process it started) after that
     * @return what it did
     * @throws LabException when mlx.launch cannot be started
     */
    public static Result run(Lab lab, Path python, Path hostfile, List<String> script, Duration bound) {
        Path bin = python.getParent();
        List<String> command = new ArrayList<>(List.of(bin.resolve("mlx.launch").toString(), "--hostfile", hostfile.toString(),
                "--python", python.toString(), "--"));
        command.addAll(script);
        ProcessBuilder builder = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        builder.environment().put("PATH", lab.ssh().bin() + File.pathSeparator + bin + File.pathSeparator
                + System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        long start = System.nanoTime();
        try {
            Path out = Files.createTempFile("mlx-launch", ".out");
            Path err = Files.createTempFile("mlx-launch", ".err");
            try {
                Process p = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
                boolean ended = ProcessTree.waitFor(p, bound, Duration.ZERO);
                Duration took = Duration.ofNanos(System.nanoTime() - start);
                String text = (Files.readString(out, StandardCharsets.UTF_8) + Files.readString(err, StandardCharsets.UTF_8)).replace("\r", "");
                return new Result(ended ? p.exitValue() : -1, ranks(text), text, took);
            } finally {
                Files.deleteIfExists(out);
                Files.deleteIfExists(err);
            }
        } catch (IOException e) {
            throw new LabException("cannot run " + command.get(0) + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LabException("interrupted while " + command.get(0) + " ran");
        }
    }

    /** @return the lines that are JSON objects with a {@code "rank"} field */
    static List<JsonNode> ranks(String text) {
        List<JsonNode> out = new ArrayList<>();
        for (String line : text.split("\n")) {
            String trimmed = line.strip();
            if (trimmed.startsWith("{") && trimmed.endsWith("}")) {
                try {
                    JsonNode node = JSON.readTree(trimmed);
                    if (node.has("rank")) {
                        out.add(node);
                    }
                } catch (IOException e) {
                    // not a rank's line: kept in the output only
                }
            }
        }
        return out;
    }
}
