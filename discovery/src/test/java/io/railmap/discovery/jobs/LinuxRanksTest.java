package io.railmap.discovery.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.railmap.matrix.model.LocalRank;
import io.railmap.matrix.model.RingEntry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link LinuxRanks} against real processes: {@code sleep} started with a chosen environment, a
 * planted secret among the collective settings.
 */
class LinuxRanksTest {
    private static final Path PROC = Path.of("/proc");
    private static final String SECRET = "AKIA-planted-secret-4e1f9b";
    private static final String DEVICES = "[[null, \"rdma_en5\", \"rdma_en6\"], [\"rdma_en5\", null, [\"rdma_en3\", \"rdma_en4\"]],"
            + " [\"rdma_en6\", \"rdma_en4\", null]]\n";
    @TempDir
    Path dir;
    private final List<Process> started = new ArrayList<>();

    @AfterEach
    void stop() {
        started.forEach(Process::destroyForcibly);
    }

    private Process start(Map<String, String> environment, String... command) throws IOException {
        assumeTrue(Files.isReadable(PROC.resolve("self/environ")), "no /proc here");
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        builder.environment().clear();
        builder.environment().putAll(environment);
        builder.environment().put("PATH", "/usr/bin:/bin");
        Process p = builder.start();
        started.add(p);
        return p;
    }

    /** Scans until the process is found or every process has been read twice, and returns the last scan. */
    private static JobScan scanUntil(LinuxRanks ranks, long pid, boolean present) {
        JobScan scan = ranks.scan();
        for (int i = 0; i < 64 && scan.ranks().stream().anyMatch(r -> r.pid() == pid) != present; i++) {
            scan = ranks.scan();
        }
        return scan;
    }

    private static Optional<LocalRank> rank(JobScan scan, long pid) {
        return scan.ranks().stream().filter(r -> r.pid() == pid).findFirst();
    }

    private static String sha256(String text) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void findsASleepWithMlxSettingsKeepsOnlyThoseAndReadsItsRowAndHostfileButNeverTheSecret() throws Exception {
        Path devices = Files.writeString(dir.resolve("hosts_7_1.json"), DEVICES);
        // as mlx.launch's launch_ring writes it: json.dumps, then echo's newline
        String hostfileText = "[[\"10.0.0.1:5000\", \"10.1.0.1:5001\"], [\"10.0.0.2:5002\", \"10.1.0.2:5003\"]]\n";
        Path hostfile = Files.writeString(dir.resolve("hostfile.json"), hostfileText);
        Process sleep = start(Map.of("MLX_RANK", "1", "MLX_IBV_DEVICES", devices.toString(), "MLX_HOSTFILE", hostfile.toString(),
                "MLX_JACCL_COORDINATOR", "10.0.0.1:5000", "AWS_SECRET_ACCESS_KEY", SECRET, "HOME", "/home/" + SECRET), "sleep", "30");
        LinuxRanks ranks = new LinuxRanks(PROC);

        JobScan scan = scanUntil(ranks, sleep.pid(), true);

        LocalRank rank = rank(scan, sleep.pid()).orElseThrow();
        assertThat(rank.settings()).containsOnlyKeys("MLX_RANK", "MLX_IBV_DEVICES", "MLX_HOSTFILE", "MLX_JACCL_COORDINATOR");
        assertThat(rank.setting("MLX_JACCL_COORDINATOR")).contains("10.0.0.1:5000");
        assertThat(rank.devices()).contains(List.of(List.of("rdma_en5"), List.of(), List.of("rdma_en3", "rdma_en4")));
        assertThat(rank.hostfile()).contains(sha256(hostfileText));
        assertThat(rank.ring()).contains(new RingEntry(2, List.of("10.0.0.2:5002", "10.1.0.2:5003")));
        Instant start = sleep.info().startInstant().orElseThrow();
        assertThat(Math.abs(rank.startedMs() - start.toEpochMilli())).isLessThan(1500);
        assertThat(scan.toString()).doesNotContain(SECRET).doesNotContain("AWS_SECRET");
        assertThat(ranks.held().toString()).doesNotContain(SECRET);
        assertThat(scan.problems()).noneMatch(p -> p.contains("process " + sleep.pid()));

        sleep.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        assertThat(rank(scanUntil(ranks, sleep.pid(), false), sleep.pid())).isEmpty();
        assertThat(ranks.held()).doesNotContainKey(sleep.pid());
    }

    @Test
    void aProcessWithOnlyALaunchersJobIdIsNoRankAndAChildThatInheritedItsParentsSettingsIsNotAnother() throws Exception {
        Process plain = start(Map.of("SLURM_JOB_ID", "42", "AWS_SECRET_ACCESS_KEY", SECRET), "sleep", "30");
        Process shell = start(Map.of("NCCL_IB_HCA", "mlx5_0", "SLURM_JOB_ID", "42"), "sh", "-c", "sleep 30 & wait");
        LinuxRanks ranks = new LinuxRanks(PROC);
        JobScan scan = scanUntil(ranks, shell.pid(), true);
        long child = shell.descendants().findFirst().orElseThrow().pid();
        for (int i = 0; i < 3; i++) {
            scan = ranks.scan();
        }

        assertThat(rank(scan, shell.pid()).orElseThrow().settings()).containsOnlyKeys("NCCL_IB_HCA", "SLURM_JOB_ID");
        assertThat(ranks.held()).containsKey(child);
        assertThat(rank(scan, child)).isEmpty();
        assertThat(rank(scan, plain.pid())).isEmpty();
    }

    @Test
    void aDevicesFileOfAnotherUserOrThatIsNoDevicesFileCostsTheRowAndIsToldWithoutItsContent() throws Exception {
        Path credentials = Files.writeString(dir.resolve("credentials"), "[default]\naws_secret_access_key = " + SECRET + "\n");
        Path foreign = Files.writeString(dir.resolve("foreign.json"), DEVICES);
        Files.setAttribute(foreign, "unix:uid", 65534);
        Process notDevices = start(Map.of("JACCL_RANK", "0", "JACCL_IBV_DEVICES", credentials.toString()), "sleep", "30");
        Process notOwned = start(Map.of("JACCL_RANK", "0", "JACCL_IBV_DEVICES", foreign.toString()), "sleep", "30");
        Process dotDot = start(Map.of("MLX_RANK", "0", "MLX_HOSTFILE", dir + "/../" + dir.getFileName() + "/foreign.json"), "sleep", "30");
        Path tokens = Files.writeString(dir.resolve("tokens.json"), "[[\"token:" + SECRET + "\"]]");
        Path named = Files.writeString(dir.resolve("named.json"), "[[\"" + SECRET + ".local:5000\"], [\"10.0.0.2:5001\"]]");
        Process notRing = start(Map.of("MLX_RANK", "0", "MLX_HOSTFILE", tokens.toString()), "sleep", "30");
        Process hostName = start(Map.of("MLX_RANK", "0", "MLX_HOSTFILE", named.toString()), "sleep", "30");
        LinuxRanks ranks = new LinuxRanks(PROC);
        List<String> problems = new ArrayList<>();
        JobScan scan = ranks.scan();
        problems.addAll(scan.problems());
        for (int i = 0; i < 64 && (rank(scan, notDevices.pid()).isEmpty() || rank(scan, notOwned.pid()).isEmpty()
                || rank(scan, dotDot.pid()).isEmpty() || rank(scan, notRing.pid()).isEmpty() || rank(scan, hostName.pid()).isEmpty()); i++) {
            scan = ranks.scan();
            problems.addAll(scan.problems());
        }

        assertThat(rank(scan, notDevices.pid()).orElseThrow().devices()).isEmpty();
        assertThat(rank(scan, notOwned.pid()).orElseThrow().devices()).isEmpty();
        assertThat(rank(scan, dotDot.pid()).orElseThrow().hostfile()).isEmpty();
        assertThat(problems).anyMatch(p -> p.startsWith("process " + notDevices.pid() + ": devices file not read: not a devices file"));
        assertThat(problems).anyMatch(p -> p.startsWith("process " + notOwned.pid() + ": devices file not read: ")
                && p.contains("belongs to user 65534, not to user 0"));
        assertThat(problems).anyMatch(p -> p.startsWith("process " + dotDot.pid() + ": hostfile not read: ") && p.contains("holds \"..\""));
        // a hostfile that is none, or whose entry holds a host name: its digest kept (the job's identity), no entry published
        assertThat(rank(scan, notRing.pid()).orElseThrow().hostfile()).isPresent();
        assertThat(rank(scan, notRing.pid()).orElseThrow().ring()).isEmpty();
        assertThat(rank(scan, hostName.pid()).orElseThrow().ring()).isEmpty();
        assertThat(problems).anyMatch(p -> p.equals("process " + notRing.pid() + ": hostfile entry not published: not a ring hostfile"
                + " (a JSON array of arrays of \"HOST:PORT\" strings)"));
        assertThat(problems).anyMatch(p -> p.startsWith("process " + hostName.pid() + ": hostfile entry not published: address 0 of entry 0"));
        assertThat(String.join("\n", problems)).doesNotContain(SECRET).doesNotContain("aws_secret");
        // told once: the same problem is not told again at the next scans
        List<String> later = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            later.addAll(ranks.scan().problems());
        }
        assertThat(later).noneMatch(p -> p.startsWith("process " + notDevices.pid() + ":"));
    }

    @Test
    void aFileEveryUserMayReadIsReadWhoeverOwnsItAndTheSameFileInAPrivateDirectoryIsNot() throws Exception {
        // as root's /etc/railmap/ring-hosts.json is: another user's file (65534's here), mode 644, under directories
        // every user may search; beside it, the same file in a directory only its owner may enter
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path open = Files.createDirectory(dir.resolve("etc"));
        Path closed = Files.createDirectory(dir.resolve("private"));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(closed, PosixFilePermissions.fromString("rwx------"));
        List<Path> files = new ArrayList<>();
        for (Path parent : List.of(open, closed)) {
            Path file = Files.writeString(parent.resolve("devices.json"), DEVICES);
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
            Files.setAttribute(file, "unix:uid", 65534);
            files.add(file);
        }
        Process readable = start(Map.of("JACCL_RANK", "1", "JACCL_IBV_DEVICES", files.get(0).toString()), "sleep", "30");
        Process hidden = start(Map.of("JACCL_RANK", "1", "JACCL_IBV_DEVICES", files.get(1).toString()), "sleep", "30");
        LinuxRanks ranks = new LinuxRanks(PROC);
        List<String> problems = new ArrayList<>();
        JobScan scan = ranks.scan();
        problems.addAll(scan.problems());
        for (int i = 0; i < 64 && (rank(scan, readable.pid()).isEmpty() || rank(scan, hidden.pid()).isEmpty()); i++) {
            scan = ranks.scan();
            problems.addAll(scan.problems());
        }

        assertThat(rank(scan, readable.pid()).orElseThrow().devices()).isPresent();
        assertThat(rank(scan, hidden.pid()).orElseThrow().devices()).isEmpty();
        assertThat(problems).noneMatch(p -> p.startsWith("process " + readable.pid() + ":"));
        assertThat(problems).anyMatch(p -> p.startsWith("process " + hidden.pid() + ": devices file not read: ")
                && p.contains("belongs to user 65534, not to user 0"));
    }

    @Test
    void aProcessInAnotherNetworkNamespaceIsNotThisNodesRank() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/unshare")) && "root".equals(System.getProperty("user.name")), "needs root and unshare");
        Process elsewhere = start(Map.of("MLX_RANK", "0", "MLX_JACCL_COORDINATOR", "10.0.0.1:5000"), "unshare", "--net", "sleep", "30");
        Process here = start(Map.of("MLX_RANK", "1", "MLX_JACCL_COORDINATOR", "10.0.0.1:5000"), "sleep", "30");
        Thread.sleep(200); // unshare execs sleep
        LinuxRanks ranks = new LinuxRanks(PROC);

        JobScan scan = scanUntil(ranks, here.pid(), true);
        for (int i = 0; i < 3; i++) {
            scan = ranks.scan();
        }

        assertThat(rank(scan, here.pid())).isPresent();
        assertThat(rank(scan, elsewhere.pid())).isEmpty();
    }

    @Test
    void anotherUsersProcessIsSkippedAndCountedWhenTheScanRunsWithoutThePrivilege() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/setpriv")) && "root".equals(System.getProperty("user.name")), "needs root and setpriv");
        Process rootsRank = start(Map.of("MLX_RANK", "0", "MLX_JACCL_COORDINATOR", "10.0.0.1:5000"), "sleep", "30");
        Process ownRank = start(Map.of("MLX_RANK", "1", "MLX_JACCL_COORDINATOR", "10.0.0.1:5000"),
                "/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "sleep", "30");
        Thread.sleep(200); // setpriv execs sleep
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process scan = new ProcessBuilder("/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", java, "-cp",
                System.getProperty("java.class.path"), ScanAs.class.getName()).redirectErrorStream(true).start();
        started.add(scan);
        String out = new String(scan.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(scan.waitFor(60, TimeUnit.SECONDS)).isTrue();

        assertThat(out).as(out).containsPattern("unreadable=[1-9][0-9]* ");
        assertThat(out).contains(ownRank.pid() + ",").doesNotContain(rootsRank.pid() + ",");
    }
}
