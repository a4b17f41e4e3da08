package io.railmap.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.railmap.daemon.testing.DaemonProcess;
import io.railmap.daemon.testing.NamespacesAvailable;
import io.railmap.daemon.testing.NetnsLab;
import io.railmap.discovery.lldp.LldpdSource;
import io.railmap.discovery.model.SwitchPorts;
import io.railmap.lab.Netns;
import io.railmap.matrix.model.FarEndSource;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.SwitchPort;
import io.railmap.process.BoundedCommand;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real lldpd: a switch namespace {@code leaf0} (a Linux bridge over {@code p1}, {@code p2}, running
 * lldpd that announces chassis and system name {@code leaf0} and its ports by name), and two nodes
 * {@code a}, {@code b} whose {@code en2} is cabled to {@code p1}, {@code p2}, each running lldpd with
 * its own control socket, and a railmapd on a management bridge. The switch port a node's lldpd
 * heard reaches its record, and through the cluster every record; a stopped lldpd is logged once
 * and leaves no switch port, and its return is logged and restores it.
 */
@ExtendWith(NamespacesAvailable.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LldpNamespaceTest {
    private static final Duration SETTLE = Duration.ofSeconds(30);
    private static final Duration POLL = Duration.ofMillis(200);
    private static final SwitchPort LEAF0_P1 = new SwitchPort(FarEndSource.LLDP, "leaf0", Optional.of("leaf0"), "p1");
    private static final SwitchPort LEAF0_P2 = new SwitchPort(FarEndSource.LLDP, "leaf0", Optional.of("leaf0"), "p2");

    @TempDir
    static Path dir;
    private NetnsLab lab;
    private final Map<String, String> ns = new HashMap<>();
    private final Map<String, Process> lldpd = new HashMap<>();
    private DaemonProcess a;
    private DaemonProcess b;

    @BeforeAll
    void aLeafTwoNodesAndTheirLldpd() throws Exception {
        Assumptions.assumeTrue(BoundedCommand.locate("lldpd").isPresent() && BoundedCommand.locate("lldpcli").isPresent(),
                "lldpd is not installed (Debian: apt-get install lldpd); the lldpd suite is skipped");
        // lldpcli run as root drops to lldpd's user, which must be able to reach the sockets
        Files.setPosixFilePermissions(dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        lab = NetnsLab.create();
        String mgmt = lab.bridge("mg");
        ns.put("leaf0", lab.namespace("leaf0"));
        Netns.bridge(ns.get("leaf0"), "br0");
        int host = 1;
        for (String node : List.of("a", "b")) {
            ns.put(node, lab.namespace(node));
            lab.plug(mgmt, ns.get(node), "mgmt", "10.77.0." + host + "/24");
            lab.cable(ns.get(node), "en2", ns.get("leaf0"), "p" + host);
            Netns.enslave(ns.get("leaf0"), "p" + host, "br0");
            host++;
        }
        startLldpd("leaf0", "p1,p2");
        lldpcli("leaf0", "configure", "system", "hostname", "leaf0");
        lldpcli("leaf0", "configure", "system", "chassisid", "leaf0");
        lldpcli("leaf0", "configure", "lldp", "portidsubtype", "ifname");
        lldpcli("leaf0", "configure", "lldp", "tx-interval", "1");
        startLldpd("a", "en2");
        startLldpd("b", "en2");
        a = DaemonProcess.start(lab, ns.get("a"), dir, "a", "--interfaces", "en*", "--probe-interval-ms", "250", "--cluster-timing", "lab",
                "--lldpd-socket", socket("a").toString(), "--switch-poll-ms", "200");
        b = DaemonProcess.start(lab, ns.get("b"), dir, "b", "--interfaces", "en*", "--probe-interval-ms", "250", "--cluster-timing", "lab",
                "--lldpd-socket", socket("b").toString(), "--switch-poll-ms", "200");
    }

    @AfterAll
    void cleanUp() {
        for (DaemonProcess d : new DaemonProcess[] {a, b}) {
            if (d != null) {
                d.close(); // before its lldpd
            }
        }
        lldpd.values().forEach(LldpNamespaceTest::end);
        if (lab != null) {
            lab.close();
        }
    }

    @Test
    @Order(1)
    void theSourceReadsTheLeafsChassisNameAndPortThroughTheNodesControlSocket() {
        LldpdSource source = new LldpdSource(socket("a"));

        await("a's lldpd hears leaf0 on en2").atMost(SETTLE).pollInterval(POLL).ignoreExceptions().untilAsserted(() -> {
            SwitchPorts read = source.read(List.of());
            assertThat(read.byNetdev()).containsExactly(Map.entry("en2", LEAF0_P1));
            assertThat(read.notes()).isEmpty();
        });
        await("b's lldpd hears leaf0 on en2").atMost(SETTLE).pollInterval(POLL).ignoreExceptions().untilAsserted(() ->
                assertThat(new LldpdSource(socket("b")).read(List.of()).of("en2")).contains(LEAF0_P2));
    }

    @Test
    @Order(2)
    void eachRecordCarriesItsSwitchPortToEveryDaemon() {
        await("a's and b's records, in both daemons, name the leaf port of en2").atMost(SETTLE).pollInterval(POLL).ignoreExceptions()
                .untilAsserted(() -> {
                    for (DaemonProcess d : List.of(a, b)) {
                        Map<String, NodeRecord> records = new HashMap<>();
                        d.snapshot().records().forEach(r -> records.put(r.node(), r));
                        assertThat(switchPort(records.get("a"))).contains(LEAF0_P1);
                        assertThat(switchPort(records.get("b"))).contains(LEAF0_P2);
                    }
                });
    }

    @Test
    @Order(3)
    void aStoppedLldpdIsLoggedOnceAndLeavesNoSwitchPortUntilItAnswersAgain() throws Exception {
        await("a's record names leaf0").atMost(SETTLE).pollInterval(POLL).ignoreExceptions()
                .untilAsserted(() -> assertThat(switchPort(a.record())).contains(LEAF0_P1));

        end(lldpd.remove("a"));

        await("a's record has no switch port without lldpd").atMost(SETTLE).pollInterval(POLL).ignoreExceptions()
                .untilAsserted(() -> assertThat(switchPort(a.record())).isEmpty());
        await("the daemon says lldpd is unavailable").atMost(SETTLE).pollInterval(POLL)
                .until(() -> a.log().contains("lldpd unavailable: "));

        startLldpd("a", "en2");

        await("a's record names leaf0 again").atMost(SETTLE).pollInterval(POLL).ignoreExceptions()
                .untilAsserted(() -> assertThat(switchPort(a.record())).contains(LEAF0_P1));
        await("the daemon says lldpd answers again").atMost(SETTLE).pollInterval(POLL)
                .until(() -> a.log().contains("(it did not answer before)"));
        // several polls ran (one each 200 ms) while lldpd was away: one line said so
        assertThat(a.log().split("lldpd unavailable: ", -1)).hasSize(2);
        assertThat(a.log()).contains("--lldpd-socket");
    }

    private static Optional<SwitchPort> switchPort(NodeRecord record) {
        return record.port("en2").flatMap(Port::switchPort);
    }

    private static Path socket(String name) {
        return dir.resolve("lldpd-" + name + ".sock");
    }

    private void startLldpd(String name, String interfaces) throws Exception {
        Path socket = socket(name);
        Files.deleteIfExists(socket);
        Process p = lab.start(ns.get(name), List.of(BoundedCommand.locate("lldpd").orElseThrow().toString(), "-d", "-u", socket.toString(),
                "-O", "/dev/null", "-I", interfaces), dir.resolve("lldpd-" + name + ".log"));
        lldpd.put(name, p);
        await("lldpd of " + name + " answers").atMost(SETTLE).pollInterval(Duration.ofMillis(100)).ignoreExceptions()
                .until(() -> BoundedCommand.run(List.of("lldpcli", "-u", socket.toString(), "-f", "json0", "show", "neighbors"),
                        Duration.ofSeconds(5), 1 << 20).contains("lldp"));
    }

    private void lldpcli(String name, String... command) throws Exception {
        List<String> argv = new java.util.ArrayList<>(List.of("lldpcli", "-u", socket(name).toString()));
        argv.addAll(List.of(command));
        BoundedCommand.run(argv, Duration.ofSeconds(5), 1 << 20);
    }

    /** Ends an lldpd this test started (its monitor and the privilege-separated child), by pid. */
    private static void end(Process p) {
        if (p == null) {
            return;
        }
        p.descendants().forEach(ProcessHandle::destroy);
        p.destroy();
        try {
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
