package io.railmap.lab;

import java.nio.file.Path;
import java.time.Duration;
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
 * <p>The work is {@link PinnedPython}'s. Threads: safe; the first caller runs {@code bin/mlx-venv}, the others wait for it.
 * Cost: about 0.2 s when the environment exists; a first install downloads about 40 MB from PyPI
 * (20 s here), bounded by {@link #TIMEOUT}.
 */
public final class MlxRuntime {
    /**
     * The longest {@code bin/mlx-venv} may run before it is killed: beyond its own bounds (600 s for
     * pip, 720 s waiting for another run's install), so those speak first.
     */
    public static final Duration TIMEOUT = PinnedPython.TIMEOUT;
    /** The script, relative to the checkout. */
    static final String SCRIPT = "bin/mlx-venv";
    private static final PinnedPython RUNTIME = new PinnedPython(SCRIPT, "MLX");

    private MlxRuntime() {
    }

    /**
     * @return the path of the pinned environment's python, an executable file
     * @throws LabException when MLX is unavailable here, with {@link #unavailable()}'s reason
     */
    public static Path python() {
        return RUNTIME.python();
    }

    /**
     * @return why MLX cannot run here (no checkout found, {@code bin/mlx-venv}'s own last line with
     *         its exit code, or that it timed out), or empty when {@link #python()} answers
     */
    public static Optional<String> unavailable() {
        return RUNTIME.unavailable();
    }

    /** The checkout holding {@value #SCRIPT}, or empty. */
    static Optional<Path> checkout(String home, Path workingDirectory) {
        return PinnedPython.checkout(SCRIPT, home, workingDirectory);
    }
}
