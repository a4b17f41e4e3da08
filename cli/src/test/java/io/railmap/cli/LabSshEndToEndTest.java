package io.railmap.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.railmap.lab.Lab;
import io.railmap.lab.LabNames;
import io.railmap.lab.LabSsh;
import io.railmap.lab.LabState;
import io.railmap.lab.LabTopology;
import io.railmap.lab.Netns;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code railmap lab exec}, ssh into lab nodes and {@code railmap lab env}, as root, on one lab of two
 * nodes ({@code two-crossed.json}) with a real sshd per node; the nodes' daemons are a stand-in
 * ({@code sleep}): what railmapd does in a lab is {@code LabEndToEndTest}'s. The ssh commands have the
 * shape mlx.launch gives them ({@code ssh -tt -o LogLevel=QUIET HOST CMD} through bash, CMD run by the
 * remote login shell). The last test takes the lab down. Skipped, with the reason, where namespaces
 * cannot be made or sshd is not installed.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LabSshEndToEndTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final String PREFIX = "rmssh";
    private static final Duration BOUND = Duration.ofSeconds(30);

    @TempDir
    static Path tmp;
    private static Lab lab;
    private static LabState state;
    private static Map<String, String> userSshBefore;

    @BeforeAll
    static void labUpWithSsh() throws Exception {
        Path dir = tmp.resolve("lab");
        LabTopology topology = LabTopology.read("two-crossed.json", Files.readString(ROOT.resolve("examples/two-crossed.json")));
        Lab candidate = new Lab(new LabNames(PREFIX), dir, c -> List.of("3600"));
        Optional<String> why = Netns.unavailable().or(() -> candidate.ssh().unavailable(topology, System.getProperty("user.name")));
        why.ifPresent(w -> System.err.println("lab ssh suite skipped: " + w));
        Assumptions.assumeTrue(why.isEmpty(), () -> "lab ssh suite skipped: " + why.orElseThrow());
        System.setProperty("railmap.lab.dir", dir.toString());
        System.setProperty("railmap.lab.prefix", PREFIX);
        userSshBefore = userSsh();
        lab = candidate;
        lab.down();
        state = lab.up(topology, List.of("sleep"), LabSsh.Mode.ON);
    }

    @AfterAll
    static void labDown() {
        if (lab != null) {
            lab.down();
        }
    }

    /** ~/.ssh as path → size and modification time and content, or empty when there is none. */
    private static Map<String, String> userSsh() throws IOException {
        Path home = Path.of(System.getProperty("user.home"), ".ssh");
        Map<String, String> out = new TreeMap<>();
        if (Files.exists(home)) {
            try (Stream<Path> files = Files.walk(home)) {
                for (Path p : files.toList()) {
                    out.put(p.toString(), Files.getLastModifiedTime(p) + " " + (Files.isRegularFile(p)
                            ? java.util.Base64.getEncoder().encodeToString(Files.readAllBytes(p)) : "dir"));
                }
            }
        }
        return out;
    }

    /** railmap in a JVM of its own, with the lab's settings, so that its exit status and standard streams are a process's. */
    private static ProcessBuilder railmap(String... args) {
        return new ProcessBuilder(CliProcess.shell("exec \"$@\"", List.of("-Drailmap.lab.dir=" + lab.dir(), "-Drailmap.lab.prefix=" + PREFIX),
                args));
    }

    /** @return the exit status, once the process ended within {@link #BOUND} */
    private static int exit(Process p) throws InterruptedException {
        if (!p.waitFor(BOUND.toSeconds(), TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            throw new AssertionError("still running after " + BOUND.toSeconds() + " s");
        }
        return p.exitValue();
    }

    private static String read(Process p) throws IOException {
        return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }

    @Test
    @Order(1)
    void labExecRunsTheCommandInTheNodesNamespaceWithThisEnvironmentAndStdinAndExitsWithItsStatus() throws Exception {
        ProcessBuilder b = railmap("lab", "exec", "b", "sh", "-c", "read line; echo \"$line $RMSSH_PROBE\"; ip -4 -o addr show mgmt0; exit 42")
                .redirectErrorStream(true);
        b.environment().put("RMSSH_PROBE", "from the caller's environment");
        Process p = b.start();
        p.getOutputStream().write("stdin reached it,\n".getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        String out = read(p);
        assertThat(exit(p)).as(out).isEqualTo(42);
        assertThat(out).contains("stdin reached it, from the caller's environment\n", "inet " + LabNames.mgmtAddress(1) + "/24");

        Run unknown = Run.of("lab", "exec", "zz", "--", "true");
        assertThat(unknown.code()).isEqualTo(ExitCodes.LAB);
        assertThat(unknown.err()).startsWith("railmap: lab: node zz is not in the lab (nodes: a, b)");
        Run missing = Run.of("lab", "exec", "a", "--", "no-such-command-rmssh");
        assertThat(missing.code()).isEqualTo(127);
        assertThat(missing.err()).startsWith("railmap: lab exec: no-such-command-rmssh: command not found");
        assertThat(Run.of("lab", "exec", "a", "--").code()).isEqualTo(ExitCodes.INPUT);
    }

    /** What mlx.launch runs for a rank: ssh [-tt -o LogLevel=QUIET] HOST 'CMD' from bash, with the lab's ssh first on PATH. */
    private static Process ssh(String env, boolean tty, String host, String command) throws IOException {
        String ssh = "ssh " + (tty ? "-tt -o LogLevel=QUIET " : "") + LabSsh.quote(host) + " " + LabSsh.quote(command);
        return new ProcessBuilder("/bin/bash", "-c", "eval \"$1\" && " + ssh, "bash", env).redirectErrorStream(true).start();
    }

    @Test
    @Order(2)
    void sshThroughLabEnvReachesEachNodeByNameAndAddressWithAndWithoutAPty() throws Exception {
        Run env = Run.of("lab", "env");
        assertThat(env.code()).as(env.err()).isZero();
        assertThat(env.out()).contains("export PATH=" + LabSsh.quote(lab.ssh().bin().toString()) + "\":$PATH\"\n",
                "export RAILMAP_LAB_PREFIX='" + PREFIX + "'\n");
        Process which = new ProcessBuilder("/bin/bash", "-c", "eval \"$1\" && command -v ssh", "bash", env.out()).start();
        assertThat(read(which).trim()).isEqualTo(lab.ssh().shim().toString());
        assertThat(exit(which)).isZero();

        // the rank's script as mlx.launch shapes it: bash syntax, a working directory, exported variables, exec of an array
        String rank = "if [[ -d /tmp ]]; then cd /tmp; fi; export MLX_RANK=0; cmd=(ip -4 -o addr show mgmt0); exec \"${cmd[@]}\"";
        for (int i = 0; i < 2; i++) {
            String node = state.topology().nodes().get(i);
            for (String host : List.of(node, LabNames.mgmtAddress(i))) {
                for (boolean tty : List.of(false, true)) {
                    Process p = ssh(env.out(), tty, host, rank);
                    p.getOutputStream().close();
                    String out = read(p);
                    assertThat(exit(p)).as("ssh %s %s: %s", tty ? "-tt" : "", host, out).isZero();
                    assertThat(out).as("ssh %s %s", tty ? "-tt" : "", host).contains("inet " + LabNames.mgmtAddress(i) + "/24")
                            .doesNotContain(LabNames.mgmtAddress(1 - i) + "/24");
                    // a pty turns every line end into \r\n
                    assertThat(out.contains("\r\n")).as("ssh %s %s", tty ? "-tt" : "", host).isEqualTo(tty);
                }
            }
        }
        Process status = ssh(env.out(), true, "a", "exit 3");
        status.getOutputStream().close();
        assertThat(exit(status)).isEqualTo(3);
    }

    @Test
    @Order(3)
    void labStatusSaysSshIsOnAndNamesEachNodesSshd() {
        Run status = Run.of("lab", "status");
        assertThat(status.code()).as(status.err()).isZero();
        assertThat(status.out()).contains("ssh on (");
        for (String node : state.topology().nodes()) {
            assertThat(status.out()).contains("  " + node + ": ").contains(", sshd pid " + state.ssh().pids().get(node) + ";");
        }
    }

    @Test
    @Order(4)
    void labDownEndsSshdWhatExecAndSshStartedAndEveryNamespaceAndTouchesNoUsersSsh() throws Exception {
        Process exec = railmap("lab", "exec", "a", "--", "sleep", "600").redirectErrorStream(true).start();
        Process session = ssh(Run.of("lab", "env").out(), true, "b", "exec sleep 601");
        List<ProcessHandle> sleepers = new ArrayList<>();
        await("sleep 600 runs in a's namespace, sleep 601 in b's").atMost(BOUND).pollInterval(Duration.ofMillis(100)).until(() -> {
            sleepers.clear();
            sleepers.addAll(sleeping(PREFIX + "-n-a", "600"));
            sleepers.addAll(sleeping(PREFIX + "-n-b", "601"));
            return sleepers.size() == 2;
        });
        List<ProcessHandle> sshd = state.ssh().pids().values().stream().map(pid -> ProcessHandle.of(pid).orElseThrow()).toList();

        Run down = Run.of("lab", "down");
        assertThat(down.code()).as(down.err()).isZero();

        for (ProcessHandle p : Stream.concat(sleepers.stream(), sshd.stream()).toList()) {
            assertThat(p.isAlive()).as("pid %d (%s)", p.pid(), p.info().commandLine().orElse("?")).isFalse();
        }
        // the command was killed (SIGKILL): railmap passes its status on as a shell does, 128 + 9
        assertThat(exit(exec)).isEqualTo(137);
        exit(session);
        assertThat(Netns.list()).noneMatch(new LabNames(PREFIX)::owns);
        assertThat(lab.dir()).doesNotExist();
        assertThat(userSsh()).as("~/.ssh").isEqualTo(userSshBefore);
    }

    /** @return the processes in a namespace that run {@code sleep SECONDS} */
    private static List<ProcessHandle> sleeping(String ns, String seconds) {
        return Netns.pids(ns).stream().flatMap(pid -> ProcessHandle.of(pid).stream())
                .filter(p -> p.info().command().orElse("").endsWith("/sleep") && List.of(seconds).equals(
                        p.info().arguments().map(List::of).orElse(List.of())))
                .toList();
    }
}
