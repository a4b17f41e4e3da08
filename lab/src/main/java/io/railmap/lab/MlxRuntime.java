package io.railmap.lab;

import io.railmap.process.ProcessTree;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * MLX's own runtime for the tests and benchmarks that run it: the python of the checkout's
 * {@code target/mlx-venv}, where {@code bin/mlx-venv} (the one place MLX's version is pinned) has
 * installed MLX. Made once per JVM, on first use; every later call answers from that one run.
 *
 * <p>The checkout is the system property {@code railmap.home} when it holds {@code bin/mlx-venv}
 * ({@code bin/railmap} sets it), else the first directory at or above the working directory that does
 * (a module's tests run in the module's directory).
 *
 * <p>Threads: safe; the first caller runs {@code bin/mlx-venv}, the others wait for it.
 * Cost: about 0.2 s when the environment exists; a first install downloads about 40 MB from PyPI
 * (20 s here), bounded by {@link #TIMEOUT}.
 */
public final class MlxRuntime {
    /**
     * The longest {@code bin/mlx-venv} may run before it is killed: beyond its own bounds (600 s for
     * pip, 720 s waiting for another run's install), so those speak first.
     */
    public static final Duration TIMEOUT = Duration.ofMinutes(25);
    /** The script, relative to the checkout. */
    static final String SCRIPT = "bin/mlx-venv";

    /** Either the python or why there is none. */
    private record Outcome(Path python, String why) {
    }

    /** Runs the script on first use of {@link #OUTCOME} (the JVM's lazy, once-only class initialisation). */
    private static final class Once {
        static final Outcome OUTCOME = make();
    }

    private MlxRuntime() {
    }

    /**
     * @return the path of the pinned environment's python, an executable file
     * @throws LabException when MLX is unavailable here, with {@link #unavailable()}'s reason
     */
    public static Path python() {
        Outcome outcome = Once.OUTCOME;
        if (outcome.python() == null) {
            throw new LabException("MLX is unavailable: " + outcome.why());
        }
        return outcome.python();
    }

    /**
     * @return why MLX cannot run here (no checkout found, {@code bin/mlx-venv}'s own last line with
     *         its exit code, or that it timed out), or empty when {@link #python()} answers
     */
    public static Optional<String> unavailable() {
        return Optional.ofNullable(Once.OUTCOME.why());
    }

    /** The checkout holding {@value #SCRIPT}, or empty. */
    static Optional<Path> checkout(String home, Path workingDirectory) {
        if (home != null && !home.isBlank() && Files.isRegularFile(Path.of(home).resolve(SCRIPT))) {
            return Optional.of(Path.of(home).toAbsolutePath().normalize());
        }
        for (Path dir = workingDirectory.toAbsolutePath().normalize(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve(SCRIPT))) {
                return Optional.of(dir);
            }
        }
        return Optional.empty();
    }

    private static Outcome make() {
        Path cwd = Path.of("").toAbsolutePath();
        Optional<Path> checkout = checkout(System.getProperty("railmap.home"), cwd);
        if (checkout.isEmpty()) {
            return new Outcome(null, "no " + SCRIPT + " in " + cwd + " or a directory above it, nor in railmap.home"
                    + " (" + System.getProperty("railmap.home") + "): run from a railmap checkout");
        }
        Path script = checkout.get().resolve(SCRIPT);
        Path out = null;
        Path err = null;
        try {
            out = Files.createTempFile("railmap-mlx-venv", ".out");
            err = Files.createTempFile("railmap-mlx-venv", ".log");
            Process p = new ProcessBuilder(List.of(script.toString())).directory(checkout.get().toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            if (!ProcessTree.waitFor(p, TIMEOUT, Duration.ZERO)) {
                return failed(script + " did not finish within " + TIMEOUT.toSeconds() + " s and was killed", err);
            }
            List<String> printed = Files.readAllLines(out, StandardCharsets.UTF_8);
            List<String> said = Files.readAllLines(err, StandardCharsets.UTF_8);
            if (p.exitValue() != 0) {
                String last = said.isEmpty() ? "(it printed nothing)" : said.get(said.size() - 1);
                return failed(script + " exited " + p.exitValue() + ": " + last, err);
            }
            Path python = printed.size() == 1 ? path(printed.get(0)) : null;
            if (python == null || !python.isAbsolute() || !Files.isExecutable(python)) {
                return failed(script + " exited 0 but printed " + printed + ", not the path of an executable python", err);
            }
            Files.delete(err);
            return new Outcome(python, null);
        } catch (IOException e) {
            return new Outcome(null, "cannot run " + script + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Outcome(null, script + " was interrupted");
        } finally {
            deleteQuietly(out);
        }
    }

    /** The path {@code text} names, or null when it names none. */
    private static Path path(String text) {
        try {
            return Path.of(text);
        } catch (InvalidPathException e) {
            return null;
        }
    }

    /** No python: {@code why}, and the file kept with all the script (and pip) said on standard error. */
    private static Outcome failed(String why, Path log) {
        return new Outcome(null, why + " (all it said: " + log + ")");
    }

    private static void deleteQuietly(Path file) {
        try {
            if (file != null) {
                Files.deleteIfExists(file);
            }
        } catch (IOException ignored) {
            // a temporary file; nothing depends on it
        }
    }
}
