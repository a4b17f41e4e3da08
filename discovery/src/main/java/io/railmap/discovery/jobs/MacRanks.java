package io.railmap.discovery.jobs;

import io.railmap.matrix.model.JobVariables;
import io.railmap.matrix.model.LocalRank;
import io.railmap.matrix.model.RingEntry;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import io.railmap.process.ProcessTree;
import java.time.Duration;
import java.util.function.Function;

/**
 * Finds the ranks of collective jobs among a Mac's processes: one run of
 * {@code /bin/ps -axwwE -o pid=,ppid=,uid=,lstart=,command=} (with {@code LC_ALL=C}) per scan, read
 * as it streams by {@link PsEnvironments}, which keeps only {@link JobVariables#NAMES}. macOS gives a
 * process's environment (the {@code KERN_PROCARGS2} sysctl, which {@code ps -E} prints after the
 * arguments) only to the same user or root: the launch daemon runs as root. The start has second
 * precision ({@code lstart}). Files are read at the path the process names, which must be absolute
 * (macOS has no {@code /proc/PID/cwd}), by the rules of {@link RankFiles}. Not tested here: written
 * from the {@code ps(1)} manual of macOS 15, the format checked on its Linux look-alike only.
 *
 * <p>Bounds per scan: {@code ps} may run {@value #TIMEOUT_S} s (then it is killed and the scan
 * fails), its output is read up to {@value #MAX_OUTPUT_BYTES} bytes, a line up to
 * {@link PsEnvironments#MAX_LINE_BYTES}; {@link JobVariables#MAX_RANKS_PER_NODE} ranks are reported.
 */
public final class MacRanks implements RankSource {
    /** How long {@code ps} may run, in s. */
    static final long TIMEOUT_S = 10;
    /** The most bytes of {@code ps}'s output read (a Mac runs a few hundred processes of a few KiB of environment). */
    static final long MAX_OUTPUT_BYTES = 32L << 20;
    private static final List<String> COMMAND = List.of("/bin/ps", "-axwwE", "-o", "pid=,ppid=,uid=,lstart=,command=");

    private final Map<Long, String> told = new HashMap<>();

    @Override
    public JobScan scan() {
        ProcessBuilder builder = new ProcessBuilder(COMMAND).redirectError(ProcessBuilder.Redirect.DISCARD);
        builder.environment().put("LC_ALL", "C");
        List<PsEnvironments.Process> found;
        Process ps;
        try {
            ps = builder.start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot run /bin/ps: " + e.getMessage(), e);
        }
        try (InputStream out = ps.getInputStream()) {
            // ps's output is read here as it streams (BoundedCommand would hold every environment in one
            // string); the watchdog bounds its time with the process runner's ProcessTree
            Thread watchdog = new Thread(() -> {
                try {
                    ProcessTree.waitFor(ps, Duration.ofSeconds(TIMEOUT_S), Duration.ZERO);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "railmap-ps-watchdog");
            watchdog.setDaemon(true);
            watchdog.start();
            found = PsEnvironments.read(out, MAX_OUTPUT_BYTES, ZoneId.systemDefault());
        } catch (IOException e) {
            throw new IllegalStateException("cannot read /bin/ps's output: " + e.getMessage(), e);
        } finally {
            ProcessTree.kill(ps);
        }
        return ranks(found, told, Path::of);
    }

    /**
     * The ranks among processes read from {@code ps}: those with a collective setting, not children
     * that inherited their parent's settings, their files read through {@code where}.
     *
     * @param told  the problem last told of each process, kept between scans (so each is told once)
     * @param where where a process's absolute path is, seen from here
     */
    static JobScan ranks(List<PsEnvironments.Process> found, Map<Long, String> told, Function<String, Path> where) {
        Map<Long, PsEnvironments.Process> byPid = new HashMap<>();
        found.forEach(p -> byPid.put(p.pid(), p));
        List<LocalRank> ranks = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        Map<Long, String> now = new HashMap<>();
        int leftOut = 0;
        for (PsEnvironments.Process p : found.stream().sorted(java.util.Comparator.comparingLong(PsEnvironments.Process::pid)).toList()) {
            if (p.settings().keySet().stream().noneMatch(JobVariables.COLLECTIVE_NAMES::contains)) {
                continue;
            }
            PsEnvironments.Process parent = byPid.get(p.parent());
            if (parent != null && parent.settings().equals(p.settings())) {
                continue;
            }
            if (ranks.size() == JobVariables.MAX_RANKS_PER_NODE) {
                leftOut++;
                continue;
            }
            List<String> lines = new ArrayList<>();
            p.dropped().forEach(d -> lines.add(d + " (left out)"));
            Function<String, Path> absolute = value -> {
                if (!value.startsWith("/")) {
                    throw new IllegalArgumentException("relative path " + io.railmap.matrix.model.Names.escape(value, 256)
                            + " is not read on macOS (no working directory of another process to read it in)");
                }
                return where.apply(value);
            };
            Optional<List<List<String>>> row = Optional.empty();
            try {
                row = RankFiles.devicesRow(absolute, p.pid(), p.uid(), p.settings());
            } catch (IllegalArgumentException e) {
                lines.add("devices file not read: " + LinuxRanks.devicesProblem(e));
            }
            Optional<String> hostfile = Optional.empty();
            Optional<RingEntry> ring = Optional.empty();
            try {
                Optional<RankFiles.Hostfile> read = RankFiles.hostfile(absolute, p.uid(), p.settings());
                hostfile = read.map(RankFiles.Hostfile::digest);
                ring = read.flatMap(RankFiles.Hostfile::entry);
                read.flatMap(RankFiles.Hostfile::problem).ifPresent(why -> lines.add("hostfile entry not published: " + why));
            } catch (IllegalArgumentException e) {
                lines.add("hostfile not read: " + LinuxRanks.ours(e));
            }
            LocalRank rank;
            try {
                rank = new LocalRank(p.pid(), p.startedMs(), p.settings(), row, hostfile, ring);
            } catch (IllegalArgumentException e) {
                try {
                    lines.add("devices row not kept: " + LinuxRanks.ours(e));
                    rank = new LocalRank(p.pid(), p.startedMs(), p.settings(), Optional.empty(), hostfile, ring);
                } catch (IllegalArgumentException tooLarge) {
                    leftOut++;
                    continue;
                }
            }
            ranks.add(rank);
            String problem = lines.isEmpty() ? "" : "process " + p.pid() + ": " + String.join("; ", lines);
            now.put(p.pid(), problem);
            if (!problem.isEmpty() && !problem.equals(told.get(p.pid()))) {
                problems.add(problem);
            }
        }
        told.clear();
        told.putAll(now);
        return new JobScan(ranks, found.size(), 0, leftOut, problems);
    }
}
