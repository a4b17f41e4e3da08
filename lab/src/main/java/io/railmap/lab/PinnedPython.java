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
 * A Python environment with one pinned package, made by a script of the checkout's {@code bin/} that prints
 * the path of its python ({@code bin/mlx-venv}, {@code bin/schemathesis-venv}; both run {@code bin/pinned-venv}).
 * Made once per instance, on first use; every later call answers from that one run.
 *
 * <p>The checkout is the system property {@code railmap.home} when it holds the script ({@code bin/railmap}
 * sets it), else the first directory at or above the working directory that does (a module's tests run in
 * the module's directory).
 *
 * <p>Threads: safe; the first caller runs the script, the others wait for it. Cost: about 0.2 s when the
 * environment exists; a first install downloads from PyPI, bounded by {@link #TIMEOUT}.
 */
public final class PinnedPython {
    /**
     * The longest the script may run before it is killed: beyond its own bounds (600 s for pip, 720 s
     * waiting for another run's install), so those speak first.
     */
    public static final Duration TIMEOUT = Duration.ofMinutes(25);

    /** Either the python or why there is none. */
    private record Outcome(Path python, String why) {
    }

    private final String script;
    private final String what;
    private Outcome outcome;

    /**
     * @param script the script, relative to the checkout, e.g. {@code bin/schemathesis-venv}
     * @param what   what it makes, for messages, e.g. {@code schemathesis}
     */
    public PinnedPython(String script, String what) {
        this.script = script;
        this.what = what;
    }

    private synchronized Outcome outcome() {
        if (outcome == null) {
            outcome = make();
        }
        return outcome;
    }

    /**
     * @return the path of the pinned environment's python, an executable file
     * @throws LabException when the environment is unavailable here, with {@link #unavailable()}'s reason
     */
    public Path python() {
        Outcome o = outcome();
        if (o.python() == null) {
            throw new LabException(what + " is unavailable: " + o.why());
        }
        return o.python();
    }

    /**
     * @return why the environment cannot be made here (no checkout found, the script's own last line with
     *         its exit code, or that it timed out), or empty when {@link #python()} answers
     */
    public Optional<String> unavailable() {
        return Optional.ofNullable(outcome().why());
    }

    /** The checkout holding {@code script}, or empty. */
    static Optional<Path> checkout(String script, String home, Path workingDirectory) {
        if (home != null && !home.isBlank() && Files.isRegularFile(Path.of(home).resolve(script))) {
            return Optional.of(Path.of(home).toAbsolutePath().normalize());
        }
        for (Path dir = workingDirectory.toAbsolutePath().normalize(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve(script))) {
                return Optional.of(dir);
            }
        }
        return Optional.empty();
    }

    private Outcome make() {
        Path cwd = Path.of("").toAbsolutePath();
        Optional<Path> checkout = checkout(script, System.getProperty("railmap.home"), cwd);
        if (checkout.isEmpty()) {
            return new Outcome(null, "no " + script + " in " + cwd + " or a directory above it, nor in railmap.home"
                    + " (" + System.getProperty("railmap.home") + "): run from a railmap checkout");
        }
        Path path = checkout.get().resolve(script);
        Path out = null;
        Path err = null;
        try {
            out = Files.createTempFile("railmap-pinned-venv", ".out");
            err = Files.createTempFile("railmap-pinned-venv", ".log");
            Process p = new ProcessBuilder(List.of(path.toString())).directory(checkout.get().toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            if (!ProcessTree.waitFor(p, TIMEOUT, Duration.ZERO)) {
                return failed(path + " did not finish within " + TIMEOUT.toSeconds() + " s and was killed", err);
            }
            List<String> printed = Files.readAllLines(out, StandardCharsets.UTF_8);
            List<String> said = Files.readAllLines(err, StandardCharsets.UTF_8);
            if (p.exitValue() != 0) {
                String last = said.isEmpty() ? "(it printed nothing)" : said.get(said.size() - 1);
                return failed(path + " exited " + p.exitValue() + ": " + last, err);
            }
            Path python = printed.size() == 1 ? path(printed.get(0)) : null;
            if (python == null || !python.isAbsolute() || !Files.isExecutable(python)) {
                return failed(path + " exited 0 but printed " + printed + ", not the path of an executable python", err);
            }
            Files.delete(err);
            return new Outcome(python, null);
        } catch (IOException e) {
            return new Outcome(null, "cannot run " + path + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Outcome(null, path + " was interrupted");
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
