package io.railmap.discovery.jobs;

import io.railmap.matrix.model.JobVariables;
import io.railmap.matrix.model.LocalRank;
import io.railmap.matrix.model.RingEntry;
import io.railmap.matrix.model.Names;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Finds the ranks of collective jobs among a Linux node's processes ({@code /proc}, proc(5)): a
 * process is a rank when its environment holds one of {@link JobVariables#COLLECTIVE_NAMES} and it
 * runs in the daemon's own network namespace ({@code /proc/PID/ns/net}: a process in another one
 * sees other netdevs; in the lab each node is a namespace). Its environment is read by
 * {@link EnvironFilter}, which keeps only {@link JobVariables#NAMES}; its start from
 * {@code /proc/PID/stat} (field 22, clock ticks after boot, at {@value #CLOCK_TICKS_PER_S} a second:
 * Linux's {@code USER_HZ}) and the boot time ({@code btime} of {@code /proc/stat}, read once, so a
 * rank's start never moves while the daemon runs); its devices row, hostfile digest and ring entry by
 * {@link RankFiles}. A child that inherited its parent's settings (the parent a rank too, with the
 * same settings) is not another rank.
 *
 * <p>Bounds, per {@link #scan()}: at most {@value #MAX_PROCESSES_PER_SCAN} processes and
 * {@value #MAX_BYTES_PER_SCAN} bytes of environments read (the next scan goes on from where this one
 * stopped, so every process is read within a few scans however many there are); at most
 * {@value #MAX_ENVIRON_BYTES} bytes of one environment (variables past them are not seen); at most
 * {@value #MAX_HELD} ranks held between scans, {@link JobVariables#MAX_RANKS_PER_NODE} reported. A
 * process this daemon may not read (another user's, without {@code CAP_SYS_PTRACE}) is skipped and
 * counted in {@link JobScan#unreadable()}.
 *
 * <p>Not thread-safe: one scan at a time (the daemon runs them one after another on a worker).
 */
public final class LinuxRanks implements RankSource {
    /** Linux's {@code USER_HZ}: the unit of {@code /proc/PID/stat}'s times, 100 on every architecture railmap runs on. */
    static final int CLOCK_TICKS_PER_S = 100;
    /**
     * Processes read per scan: a busy node runs a few hundred to a few thousand, and reading one
     * environment costs the kernel a walk of that process's memory; 1024 a scan every 2 s is a few ms.
     */
    public static final int MAX_PROCESSES_PER_SCAN = 1024;
    /** Bytes of one environment read (real ones are a few KiB; HPC module environments a few tens). */
    public static final int MAX_ENVIRON_BYTES = 64 << 10;
    /** Bytes of environments read per scan, at most: 16 MiB even if every process has a 64 KiB environment. */
    public static final int MAX_BYTES_PER_SCAN = 16 << 20;
    /** Ranks held between scans (more than are reported, so that a scan that left out some can report others). */
    static final int MAX_HELD = 4 * JobVariables.MAX_RANKS_PER_NODE;
    /** The most process ids listed from {@code /proc}: Linux's largest {@code pid_max} (2^22). */
    static final int MAX_LISTED = 1 << 22;

    private final Path proc;
    private final long bootMs;
    private final Optional<String> ownNetns;
    private final long self;
    private final Map<Long, Held> held = new TreeMap<>();
    private long cursor;

    /** One rank held between scans: its start in ticks (its identity with the pid), its parent, what it reported last. */
    private record Held(long ticks, long parent, LocalRank rank, String problem) {
    }

    /**
     * @param proc the proc file system's root ({@code /proc})
     * @throws IllegalArgumentException when {@code /proc/stat} has no boot time (no proc file system there)
     */
    public LinuxRanks(Path proc) {
        this.proc = proc;
        this.bootMs = bootMs(proc);
        this.ownNetns = netns(proc, "self");
        this.self = ProcessHandle.current().pid();
    }

    private static long bootMs(Path proc) {
        try {
            for (String line : Files.readAllLines(proc.resolve("stat"), StandardCharsets.ISO_8859_1)) {
                if (line.startsWith("btime ")) {
                    return Long.parseLong(line.substring(6).trim()) * 1000;
                }
            }
        } catch (IOException | NumberFormatException e) {
            throw new IllegalArgumentException("cannot read the boot time from " + proc.resolve("stat") + ": " + e.getMessage());
        }
        throw new IllegalArgumentException(proc.resolve("stat") + " has no btime line: not a proc file system");
    }

    private static Optional<String> netns(Path proc, String pid) {
        try {
            return Optional.of(Files.readSymbolicLink(proc.resolve(pid).resolve("ns").resolve("net")).toString());
        } catch (IOException | UnsupportedOperationException e) {
            return Optional.empty();
        }
    }

    /**
     * Reads the next processes (see the class for how many) and returns the ranks known now.
     *
     * @return the ranks and what the scan read
     */
    @Override
    public JobScan scan() {
        long[] pids = list();
        int start = 0;
        while (start < pids.length && pids[start] <= cursor) {
            start++;
        }
        if (start == pids.length) {
            start = 0;
        }
        int scanned = 0;
        int unreadable = 0;
        int leftOut = 0;
        long bytes = 0;
        List<String> problems = new ArrayList<>();
        for (int k = 0; k < pids.length && scanned < MAX_PROCESSES_PER_SCAN && bytes < MAX_BYTES_PER_SCAN; k++) {
            long pid = pids[(start + k) % pids.length];
            cursor = pid;
            if (pid == self) {
                continue;
            }
            scanned++;
            Path dir = proc.resolve(Long.toString(pid));
            try {
                long[] stat = stat(dir);
                Optional<String> ns = netns(proc, Long.toString(pid));
                if (ns.isEmpty() && ownNetns.isPresent() && Files.exists(dir)) {
                    throw new AccessDeniedException(dir.toString());
                }
                if (!ns.equals(ownNetns)) {
                    held.remove(pid);
                    continue;
                }
                EnvironFilter.Found found;
                try (InputStream in = Files.newInputStream(dir.resolve("environ"))) {
                    found = EnvironFilter.read(in, MAX_ENVIRON_BYTES);
                }
                bytes += MAX_ENVIRON_BYTES; // counted at the cap: the filter does not say how much it read
                if (found.settings().keySet().stream().noneMatch(JobVariables.COLLECTIVE_NAMES::contains)) {
                    held.remove(pid);
                    continue;
                }
                Held before = held.get(pid);
                if (before == null && held.size() >= MAX_HELD) {
                    leftOut++;
                    continue;
                }
                int uid = (Integer) Files.getAttribute(dir, "unix:uid");
                Held now = rank(pid, stat, uid, found, before);
                if (now == null) {
                    leftOut++;
                    held.remove(pid);
                    continue;
                }
                if (!now.problem().isEmpty() && (before == null || !before.problem().equals(now.problem()))) {
                    problems.add(now.problem());
                }
                held.put(pid, now);
            } catch (AccessDeniedException e) {
                unreadable++;
                held.remove(pid);
            } catch (NoSuchFileException e) {
                held.remove(pid); // ended while it was read
            } catch (java.nio.file.FileSystemException e) {
                held.remove(pid);
                // ESRCH: a kernel thread or a zombie, which have no environment; anything else is told
                if (!"No such process".equals(e.getReason()) && Files.exists(dir)) {
                    problems.add("process " + pid + ": not read: " + Names.escape(String.valueOf(e.getReason()), 200));
                }
            } catch (IOException | RuntimeException e) {
                held.remove(pid);
                if (Files.exists(dir)) {
                    problems.add("process " + pid + ": not read: " + Names.escape(e.getClass().getSimpleName() + ": " + e.getMessage(), 200));
                }
            }
        }
        Set<Long> alive = new HashSet<>();
        for (long pid : pids) {
            alive.add(pid);
        }
        held.keySet().retainAll(alive);
        List<LocalRank> ranks = new ArrayList<>();
        for (Map.Entry<Long, Held> e : held.entrySet()) {
            Held parent = held.get(e.getValue().parent());
            if (parent != null && parent.rank().settings().equals(e.getValue().rank().settings())) {
                continue; // a child that inherited its parent's environment: the parent is the rank
            }
            if (ranks.size() == JobVariables.MAX_RANKS_PER_NODE) {
                leftOut++;
            } else {
                ranks.add(e.getValue().rank());
            }
        }
        return new JobScan(ranks, scanned, unreadable, leftOut, problems);
    }

    /** @return the held rank, its files read again; null when it is over a rank's size */
    private Held rank(long pid, long[] stat, int uid, EnvironFilter.Found found, Held before) {
        long ticks = stat[1];
        long startedMs = before != null && before.ticks() == ticks ? before.rank().startedMs()
                : bootMs + ticks * 1000 / CLOCK_TICKS_PER_S;
        List<String> problems = new ArrayList<>();
        found.dropped().forEach(d -> problems.add(d + " (left out)"));
        Optional<List<List<String>>> row = Optional.empty();
        try {
            row = RankFiles.devicesRow(RankFiles.inProcess(proc, pid), pid, uid, found.settings());
        } catch (IllegalArgumentException e) {
            problems.add("devices file not read: " + devicesProblem(e));
        }
        Optional<String> hostfile = Optional.empty();
        Optional<RingEntry> ring = Optional.empty();
        try {
            Optional<RankFiles.Hostfile> read = RankFiles.hostfile(RankFiles.inProcess(proc, pid), uid, found.settings());
            hostfile = read.map(RankFiles.Hostfile::digest);
            ring = read.flatMap(RankFiles.Hostfile::entry);
            read.flatMap(RankFiles.Hostfile::problem).ifPresent(why -> problems.add("hostfile entry not published: " + why));
        } catch (IllegalArgumentException e) {
            problems.add("hostfile not read: " + ours(e));
        }
        if (found.cut()) {
            problems.add("environment longer than " + MAX_ENVIRON_BYTES + " bytes: variables past them not seen");
        }
        LocalRank rank;
        try {
            rank = new LocalRank(pid, startedMs, found.settings(), row, hostfile, ring);
        } catch (IllegalArgumentException e) {
            try {
                problems.add("devices row not kept: " + ours(e));
                rank = new LocalRank(pid, startedMs, found.settings(), Optional.empty(), hostfile, ring);
            } catch (IllegalArgumentException tooLarge) {
                return null;
            }
        }
        String problem = problems.isEmpty() ? "" : "process " + pid + ": " + String.join("; ", problems);
        return new Held(ticks, stat[0], rank, problem);
    }

    /**
     * A devices file's problem as it may be logged: the reading rule broken, never the parser's words,
     * which may quote the file (a job could name any file of its user's as its devices file).
     */
    static String devicesProblem(IllegalArgumentException e) {
        if (e instanceof io.railmap.matrix.codec.FormatException) {
            return "not a devices file (a JSON array of rows of cells)";
        }
        return ours(e);
    }

    /**
     * A message of railmap's own file reading or model ({@link io.railmap.discovery.input.InputFile},
     * {@link RankFiles}, {@link LocalRank}), which escape what they quote; cut at 300 characters.
     */
    static String ours(IllegalArgumentException e) {
        String message = String.valueOf(e.getMessage());
        return message.length() <= 300 ? message : message.substring(0, 300) + "…";
    }

    /**
     * @return {@code [parent pid, start in clock ticks after boot]} from {@code /proc/PID/stat}: the
     *         fields after the command name's closing parenthesis (which may itself hold spaces and
     *         parentheses), read at most 4 KiB
     */
    private static long[] stat(Path dir) throws IOException {
        byte[] bytes;
        try (InputStream in = Files.newInputStream(dir.resolve("stat"))) {
            bytes = in.readNBytes(4096);
        }
        String text = new String(bytes, StandardCharsets.ISO_8859_1);
        int close = text.lastIndexOf(')');
        String[] fields = text.substring(close + 2).trim().split(" ");
        // fields[0] is field 3 (state): field 4 (ppid) is fields[1], field 22 (starttime) fields[19]
        if (close < 0 || fields.length < 20) {
            throw new IOException(dir.resolve("stat") + " has " + fields.length + " fields after the command name, fewer than 20");
        }
        return new long[] {Long.parseLong(fields[1]), Long.parseLong(fields[19])};
    }

    /** @return the process ids under {@code /proc}, ascending, at most {@value #MAX_LISTED} */
    private long[] list() {
        long[] pids = new long[256];
        int n = 0;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(proc)) {
            for (Path entry : entries) {
                String name = entry.getFileName().toString();
                if (name.isEmpty() || name.length() > 10 || !name.chars().allMatch(c -> c >= '0' && c <= '9')) {
                    continue;
                }
                if (n == pids.length) {
                    if (n >= MAX_LISTED) {
                        break;
                    }
                    pids = Arrays.copyOf(pids, Math.min(MAX_LISTED, 2 * n));
                }
                pids[n++] = Long.parseLong(name);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot list " + proc + ": " + e.getMessage(), e);
        }
        long[] out = Arrays.copyOf(pids, n);
        Arrays.sort(out);
        return out;
    }

    /** @return the processes held as ranks now, by pid (for tests) */
    Map<Long, LocalRank> held() {
        Map<Long, LocalRank> out = new HashMap<>();
        held.forEach((pid, h) -> out.put(pid, h.rank()));
        return out;
    }
}
