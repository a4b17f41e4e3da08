package io.railmap.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Runs a test class that needs MLX's own runtime ({@code mlx[cpu]}, pinned in {@code bin/mlx-venv}, made once
 * per build under {@code target/mlx-venv}); skips it with the reason where python3, its venv module or PyPI is
 * missing, and fails it instead when {@value #REQUIRED_VARIABLE} is {@code required} (as {@code .ci/run} sets it).
 */
final class MlxAvailable implements ExecutionCondition {
    /** The MLX release the tests run, as {@code bin/mlx-venv} pins it. */
    static final String PIN = "0.32.4";
    /** Set to {@code required}, a missing MLX fails the tests that need it rather than skipping them. */
    static final String REQUIRED_VARIABLE = "RAILMAP_MLX_TESTS";
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    /** pip's download and install, on a slow day. */
    private static final long MAKE_S = 600;
    private static Path python;
    private static String why;

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        if (find() != null) {
            return ConditionEvaluationResult.enabled("MLX " + PIN + " at " + python);
        }
        if ("required".equals(System.getenv(REQUIRED_VARIABLE))) {
            throw new AssertionError("the MLX tests are required here (" + REQUIRED_VARIABLE + "=required) but cannot run: " + why);
        }
        System.err.println("MLX suite skipped: " + why);
        return ConditionEvaluationResult.disabled("MLX suite skipped: " + why);
    }

    /** @return the python of the pinned MLX's virtual environment */
    static Path python() {
        if (find() == null) {
            throw new IllegalStateException(why);
        }
        return python;
    }

    /** Runs {@code bin/mlx-venv} once per JVM; remembers its python or why there is none. */
    private static synchronized Path find() {
        if (python != null || why != null) {
            return python;
        }
        try {
            Path log = Files.createTempFile("mlx-venv", ".log");
            try {
                Process p = new ProcessBuilder(ROOT.resolve("bin/mlx-venv").toString()).redirectError(log.toFile()).start();
                if (!p.waitFor(MAKE_S, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                    why = "bin/mlx-venv did not finish within " + MAKE_S + " s";
                    return null;
                }
                String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
                if (p.exitValue() == 0 && Files.isExecutable(Path.of(out))) {
                    python = Path.of(out);
                } else {
                    why = "bin/mlx-venv exited " + p.exitValue() + ": " + Files.readString(log, StandardCharsets.UTF_8).strip();
                }
            } finally {
                Files.deleteIfExists(log);
            }
        } catch (IOException e) {
            why = "cannot run bin/mlx-venv: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            why = "interrupted while bin/mlx-venv ran";
        }
        return python;
    }
}
