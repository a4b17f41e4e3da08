package io.railmap.cli.options;

import io.railmap.cli.follow.Rewriter;
import io.railmap.matrix.model.Names;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * {@code --watch} and the options that shape it: keep the output file following the cables
 * ({@link Rewriter}; docs/follow.md).
 */
public final class WatchOptions {
    /** Default of {@code --max-away}, in seconds: a node that reboots is back well within it. */
    public static final int DEFAULT_MAX_AWAY_S = 300;
    /** Default of {@code --on-change-timeout}, in seconds. */
    public static final int DEFAULT_ON_CHANGE_TIMEOUT_S = 30;
    /** The largest value of either, in seconds (a day). */
    static final int MAX_SECONDS = 86_400;

    @Option(names = "--watch", description = "Keep running: rewrite the -o FILE (temporary file, then rename) whenever a change the daemon "
            + "streams changes it, every member holds the same records, and the new text has no error finding; else keep the last good "
            + "file and say why on standard error (a line 'railmap: held back FILE: ...'). Needs a daemon (--daemon or --lab) and -o FILE. "
            + "Stop it with Ctrl-C.")
    boolean watch;

    @Option(names = "--on-change", paramLabel = "CMD", description = "With --watch: run CMD with sh -c after each write, never holding up the "
            + "next write (one run at a time, one more queued); its output goes to standard error as 'railmap: on-change: ' lines.")
    String onChange;

    @Option(names = "--on-change-timeout", paramLabel = "SECONDS", description = "With --on-change: end a run of CMD (and what it started) "
            + "after this long. Default: " + DEFAULT_ON_CHANGE_TIMEOUT_S + ".")
    Integer onChangeTimeout;

    @Option(names = "--allow-errors", description = "With --watch: write a new text even when it has error findings (jaccl cannot run it), "
            + "instead of keeping the last good file.")
    boolean allowErrors;

    @Option(names = "--max-away", paramLabel = "SECONDS", description = "With --watch: how long a node of the file (--hosts, env's --node, "
            + "else the nodes of the first write) may have no record before the watch ends with exit 6; meanwhile the file stays as it "
            + "is. Default: " + DEFAULT_MAX_AWAY_S + ".")
    Integer maxAway;

    @Option(names = "--follow-members", description = "With --watch and no --hosts: rank every node that has a record at each write, "
            + "instead of the nodes of the first write (a node that leaves then shrinks the file).")
    boolean followMembers;

    /**
     * @param daemon the daemon the records come from, empty for a snapshot file
     * @param file   the {@code -o} file, empty for standard output
     * @param nodes  the nodes the file is for when the command names them ({@code --hosts}, env's
     *               {@code --node}), else empty
     * @param named  how the command names them, for messages ({@code --hosts}, {@code --node})
     * @return what to keep, empty without {@code --watch}
     * @throws IllegalArgumentException when --watch lacks a daemon or a file, an option of the watch is
     *                                  given without --watch (or --on-change-timeout without
     *                                  --on-change, --follow-members with the nodes named), or a
     *                                  number of seconds is outside 1 to {@value #MAX_SECONDS}
     */
    public Optional<Target> target(Optional<String> daemon, Optional<Path> file, Optional<List<String>> nodes, String named) {
        if (!watch) {
            Optional<String> stray = onChange != null ? Optional.of("--on-change runs after each rewrite of --watch")
                    : onChangeTimeout != null ? Optional.of("--on-change-timeout bounds the --on-change command of --watch")
                    : allowErrors ? Optional.of("--allow-errors decides what --watch writes")
                    : maxAway != null ? Optional.of("--max-away bounds how long --watch waits for a node")
                    : followMembers ? Optional.of("--follow-members decides which nodes --watch ranks") : Optional.empty();
            if (stray.isPresent()) {
                throw new IllegalArgumentException(stray.get() + ": give --watch too");
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
        } else if (onChangeTimeout != null) {
            throw new IllegalArgumentException("--on-change-timeout bounds the --on-change command: give --on-change CMD too");
        }
        if (followMembers && nodes.isPresent()) {
            throw new IllegalArgumentException("--follow-members ranks every node with a record: leave out " + named
                    + ", or leave out --follow-members to keep the nodes named");
        }
        return Optional.of(new Target(daemon.get(), file.get(), Optional.ofNullable(onChange),
                seconds("--on-change-timeout", onChangeTimeout, DEFAULT_ON_CHANGE_TIMEOUT_S), allowErrors,
                seconds("--max-away", maxAway, DEFAULT_MAX_AWAY_S), nodes, followMembers));
    }

    private static Duration seconds(String option, Integer value, int fallback) {
        int s = value == null ? fallback : value;
        if (s < 1 || s > MAX_SECONDS) {
            throw new IllegalArgumentException(option + " " + s + " is outside 1 to " + MAX_SECONDS + " seconds: give a whole number of seconds"
                    + " in that range");
        }
        return Duration.ofSeconds(s);
    }

    /**
     * What a watch keeps and how.
     *
     * @param daemon          the daemon's URL
     * @param file            the file kept
     * @param onChange        the command run after each write
     * @param onChangeTimeout the longest a run of it may take
     * @param allowErrors     whether a text with error findings is written
     * @param maxAway         how long a node of the file may have no record before the watch ends
     * @param nodes           the nodes the file is for, when the command names them
     * @param followMembers   whether, with no nodes named, every node with a record is taken at each
     *                        write (else those of the first write)
     */
    public record Target(String daemon, Path file, Optional<String> onChange, Duration onChangeTimeout, boolean allowErrors,
                         Duration maxAway, Optional<List<String>> nodes, boolean followMembers) {
        /** Copies the list. */
        public Target {
            nodes = nodes.map(List::copyOf);
        }
    }
}
