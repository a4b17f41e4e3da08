package io.railmap.daemon.node;

import io.railmap.discovery.jobs.JobScan;
import io.railmap.discovery.jobs.LinuxRanks;
import io.railmap.discovery.jobs.MacRanks;
import io.railmap.discovery.jobs.RankSource;
import io.railmap.matrix.model.JobVariables;
import io.railmap.matrix.model.LocalRank;
import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Looks for the ranks of collective jobs on this node ({@link LinuxRanks}, {@link MacRanks}, docs/jobs.md) at every
 * {@link #poll()}, which the daemon runs every {@code --rank-scan-ms} (2 s by default) on a worker
 * ({@link DiscoveryPolls}; none is made with {@code --rank-scan-ms off}, so no process is read), and hands what it found to the engine, which puts it in the node's record.
 *
 * <p>What it logs, each once: that ranks are not looked for (neither macOS nor a {@code /proc}); that only
 * processes of the daemon's own user can be read (neither root nor {@code CAP_SYS_PTRACE}); the first
 * scan that could not read another user's processes; ranks left out past the bound (again once all
 * fit). A rank's problems (a devices file not read, a value dropped) are logged when they first
 * appear, at most {@value #MAX_PROBLEM_LINES} lines a minute. No line holds a value of a variable
 * outside {@link JobVariables#NAMES}: the scanner never has one.
 */
public final class RankWatch {
    private static final Logger LOG = System.getLogger(RankWatch.class.getName());
    /** Problem lines logged per minute at most (a node running many badly set ranks must not flood the log). */
    static final int MAX_PROBLEM_LINES = 16;
    /** Linux's capability number of CAP_SYS_PTRACE (linux/capability.h). */
    private static final int CAP_SYS_PTRACE = 19;

    private final Optional<RankSource> scanner;
    private final Consumer<List<LocalRank>> found;
    private boolean unreadableLogged;
    private boolean leftOutLogged;
    private long windowStart = Long.MIN_VALUE;
    private int linesInWindow;

    /**
     * The watch of this machine: {@link MacRanks} on macOS, {@link LinuxRanks} where {@code /proc} is a
     * proc file system, none elsewhere (logged once).
     *
     * @param found given the ranks found after every scan (the engine's {@code ranks})
     * @return the watch
     */
    public static RankWatch forThisMachine(Consumer<List<LocalRank>> found) {
        if (System.getProperty("os.name", "").startsWith("Mac")) {
            RankWatch watch = new RankWatch(Optional.of(new MacRanks()), found);
            if (!"root".equals(System.getProperty("user.name"))) {
                LOG.log(Level.WARNING, "running jobs: railmapd does not run as root, so it reads only the environments of its own"
                        + " user's processes; the ranks of other users' jobs are not found (docs/jobs.md)");
            }
            return watch;
        }
        return new RankWatch(Path.of("/proc"), found);
    }

    private RankWatch(Optional<RankSource> scanner, Consumer<List<LocalRank>> found) {
        this.found = Objects.requireNonNull(found, "found");
        this.scanner = scanner;
    }

    /**
     * @param proc  the proc file system's root ({@code /proc}); when it is not one, ranks are not looked for (logged once)
     * @param found given the ranks found after every scan (the engine's {@code ranks})
     */
    public RankWatch(Path proc, Consumer<List<LocalRank>> found) {
        this.found = Objects.requireNonNull(found, "found");
        Optional<RankSource> made;
        try {
            made = Optional.of(new LinuxRanks(proc));
        } catch (IllegalArgumentException e) {
            made = Optional.empty();
            LOG.log(Level.INFO, "running jobs are not looked for on this node: " + e.getMessage() + " (docs/jobs.md)");
        }
        scanner = made;
        if (scanner.isPresent() && !privileged(proc)) {
            LOG.log(Level.WARNING, "running jobs: railmapd is neither root nor holds CAP_SYS_PTRACE, so it reads only the environments"
                    + " of its own user's processes; the ranks of other users' jobs are not found (docs/jobs.md says how to grant it)");
        }
    }

    /** @return true when ranks are looked for (there is a {@code /proc}) */
    public boolean active() {
        return scanner.isPresent();
    }

    /** One scan; runs on a worker, one at a time. */
    public void poll() {
        if (scanner.isEmpty()) {
            return;
        }
        JobScan scan = scanner.get().scan();
        found.accept(scan.ranks());
        if (scan.unreadable() > 0 && !unreadableLogged) {
            unreadableLogged = true;
            LOG.log(Level.WARNING, "running jobs: " + scan.unreadable() + " processes of other users could not be read and are skipped"
                    + " (railmapd needs CAP_SYS_PTRACE to read them, docs/jobs.md); not logged again");
        }
        if (scan.leftOut() > 0 && !leftOutLogged) {
            leftOutLogged = true;
            LOG.log(Level.WARNING, "running jobs: " + scan.leftOut() + " ranks left out: a record holds at most "
                    + JobVariables.MAX_RANKS_PER_NODE + " ranks of at most " + JobVariables.MAX_RANK_CHARS + " characters each"
                    + " (logged again after all fit)");
        } else if (scan.leftOut() == 0 && leftOutLogged) {
            leftOutLogged = false;
            LOG.log(Level.INFO, "running jobs: every rank found fits in the record again");
        }
        long now = System.nanoTime();
        if (windowStart == Long.MIN_VALUE || now - windowStart > 60_000_000_000L) {
            windowStart = now;
            linesInWindow = 0;
        }
        for (String problem : scan.problems()) {
            if (linesInWindow < MAX_PROBLEM_LINES) {
                LOG.log(Level.WARNING, "running jobs: " + problem);
            } else if (linesInWindow == MAX_PROBLEM_LINES) {
                LOG.log(Level.WARNING, "running jobs: more problems this minute, not logged");
            }
            linesInWindow++;
        }
    }

    /** @return true when this process runs as root or holds CAP_SYS_PTRACE in its effective set ({@code /proc/self/status}) */
    static boolean privileged(Path proc) {
        try {
            for (String line : Files.readAllLines(proc.resolve("self/status"), StandardCharsets.ISO_8859_1)) {
                if (line.startsWith("CapEff:")) {
                    long caps = Long.parseUnsignedLong(line.substring(7).trim(), 16);
                    if ((caps & (1L << CAP_SYS_PTRACE)) != 0) {
                        return true;
                    }
                }
                if (line.startsWith("Uid:")) {
                    String[] ids = line.substring(4).trim().split("\\s+");
                    if (ids.length > 1 && ids[1].equals("0")) {
                        return true;
                    }
                }
            }
        } catch (IOException | NumberFormatException e) {
            return false;
        }
        return false;
    }
}
