package io.railmap.cli.options;

import io.railmap.cli.follow.Rewriter;
import io.railmap.matrix.model.Names;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;

/** {@code --watch} and {@code --on-change CMD}: keep the output file following the cables ({@link Rewriter}). */
public final class WatchOptions {
    @Option(names = "--watch", description = "Keep running: rewrite the -o FILE (temporary file, then rename) whenever a change the daemon "
            + "streams changes it and every member holds the same records; say why on standard error. Needs a daemon (--daemon or --lab) "
            + "and -o FILE. Stop it with Ctrl-C.")
    boolean watch;

    @Option(names = "--on-change", paramLabel = "CMD", description = "With --watch: run CMD with sh -c after each write (killed after "
            + Rewriter.COMMAND_TIMEOUT_S + " s).")
    String onChange;

    /**
     * @param daemon the daemon the records come from, empty for a snapshot file
     * @param file   the {@code -o} file, empty for standard output
     * @return what to keep, empty without {@code --watch}
     * @throws IllegalArgumentException when --watch lacks a daemon or a file, or --on-change is given without --watch
     */
    public Optional<Target> target(Optional<String> daemon, Optional<Path> file) {
        if (!watch) {
            if (onChange != null) {
                throw new IllegalArgumentException("--on-change runs after each rewrite of --watch: give --watch too");
            }
            return Optional.empty();
        }
        if (daemon.isEmpty()) {
            throw new IllegalArgumentException("--watch follows a daemon's changes: give --daemon URL or --lab NODE, not --snapshot");
        }
        if (file.isEmpty()) {
            throw new IllegalArgumentException("--watch rewrites a file: give -o FILE");
        }
        if (onChange != null) {
            Names.printable("--on-change", onChange);
        }
        return Optional.of(new Target(daemon.get(), file.get(), Optional.ofNullable(onChange)));
    }

    /**
     * @param daemon   the daemon's URL
     * @param file     the file kept
     * @param onChange the command run after each write
     */
    public record Target(String daemon, Path file, Optional<String> onChange) {
    }
}
