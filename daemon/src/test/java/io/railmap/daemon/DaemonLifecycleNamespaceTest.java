package io.railmap.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.railmap.daemon.testing.DaemonProcess;
import io.railmap.daemon.testing.NamespacesAvailable;
import io.railmap.daemon.testing.NetnsLab;
import io.railmap.daemon.testing.PortHolder;
import io.railmap.daemon.testing.RawConnection;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real railmapd JVMs in network namespaces starting and stopping: SIGTERM ends a daemon within a
 * bounded wait whatever its clients hold open; {@code --api-socket} takes over a stale socket and
 * refuses a live daemon's; the probe's UDP port or the failure-detection port held by another
 * program is named, with exit code 2 (the API's port: {@link RailmapdStartTest}).
 */
@ExtendWith(NamespacesAvailable.class)
class DaemonLifecycleNamespaceTest {
    /** The stop deadline, plus a JVM's exit. */
    private static final Duration STOP_BOUND = Duration.ofMillis(StopDeadline.DEADLINE_MS + 2_000);
    private static final Duration START_BOUND = Duration.ofSeconds(30);

    @TempDir
    Path dir;
    private NetnsLab lab;

    @BeforeEach
    void lab() {
        lab = NetnsLab.create();
    }

    @AfterEach
    void cleanUp() {
        lab.close();
    }

    private DaemonProcess start(String ns, String node, String... flags) throws Exception {
        List<String> all = new ArrayList<>(List.of("--bind", "127.0.0.1", "--cluster-timing", "lab"));
        all.addAll(List.of(flags));
        return DaemonProcess.start(lab, ns, dir, node, all.toArray(String[]::new));
    }

    private static void awaitHealthy(DaemonProcess d) {
        await("daemon " + d.node() + " answers /healthz").atMost(START_BOUND).pollInterval(Duration.ofMillis(200)).ignoreExceptions()
                .until(() -> d.get("/healthz").statusCode() == 200);
    }

    private static int awaitExit(DaemonProcess d, Duration bound) {
        await("daemon " + d.node() + " ends").atMost(bound).pollInterval(Duration.ofMillis(20)).until(() -> d.exitCode().isPresent());
        return d.exitCode().getAsInt();
    }

    @Test
    void sigtermStopsTheDaemonWithinTheDeadlineWhileClientsHoldConnectionsOpen() throws Exception {
        DaemonProcess d = start(lab.namespace("stop"), "a");
        awaitHealthy(d);
        List<RawConnection> held = new ArrayList<>();
        try {
            for (int i = 0; i < 40; i++) {
                held.add(RawConnection.unix(d.socket()).send("GET /v1/record HTTP/1.1\r\nHost: a\r\nX-Half: "));
            }
            RawConnection kept = RawConnection.unix(d.socket());
            held.add(kept);
            assertThat(kept.send("GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n").read(Duration.ofSeconds(10)).status()).isEqualTo(200);

            ProcessHandle.of(d.pid()).orElseThrow().destroy(); // SIGTERM
            assertThat(awaitExit(d, STOP_BOUND)).as("exit code of a clean stop").isZero();
        } finally {
            held.forEach(RawConnection::close);
        }
        assertThat(d.log()).contains("railmapd a stopping").doesNotContain("halting");
        assertThat(d.socket()).as("the daemon's own socket is gone").doesNotExist();
    }

    @Test
    void aLiveDaemonsSocketIsRefusedWithExitOneAndKeepsServing() throws Exception {
        DaemonProcess first = start(lab.namespace("one"), "a");
        awaitHealthy(first);
        // the same node name in the same directory: the same socket path
        DaemonProcess second = start(lab.namespace("two"), "a");
        assertThat(awaitExit(second, START_BOUND)).isEqualTo(1);
        assertThat(second.log()).contains("railmapd: --api-socket " + first.socket() + ": another daemon serves " + first.socket()
                + ": stop it first, or choose another path");
        assertThat(first.get("/healthz").statusCode()).as("the first daemon, on its socket").isEqualTo(200);
    }

    @Test
    void aStaleSocketIsTakenOver() throws Exception {
        Path stale = dir.resolve("s.sock");
        try (ServerSocketChannel gone = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            gone.bind(UnixDomainSocketAddress.of(stale)); // closing leaves the file, as a killed daemon does
        }
        assertThat(stale).exists();
        DaemonProcess d = start(lab.namespace("stale"), "s");
        awaitHealthy(d);
    }

    @Test
    void takenPortsAreNamedWithExitTwo() throws Exception {
        String ns = lab.namespace("ports");
        try (PortHolder udp = PortHolder.hold(lab, ns, dir.resolve("udp.log"), "udp", "7245")) {
            DaemonProcess d = start(ns, "u");
            assertThat(awaitExit(d, START_BOUND)).isEqualTo(2);
            assertThat(d.log()).contains("railmapd: cannot start: probe UDP port 7245 is in use: another program holds it");
        }
        try (PortHolder tcp = PortHolder.hold(lab, ns, dir.resolve("tcp.log"), "tcp", "127.0.0.1", "7900")) {
            DaemonProcess d = start(ns, "f", "--cluster-port", "7800");
            assertThat(awaitExit(d, START_BOUND)).isEqualTo(2);
            assertThat(d.log()).contains("railmapd: cannot start: failure detection TCP 127.0.0.1:7900 (--cluster-port + 100) is in use");
        }
    }
}
