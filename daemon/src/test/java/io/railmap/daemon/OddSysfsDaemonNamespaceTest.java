package io.railmap.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.railmap.daemon.testing.DaemonProcess;
import io.railmap.discovery.linux.SysfsTree;
import io.railmap.daemon.testing.NamespacesAvailable;
import io.railmap.daemon.testing.NetnsLab;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortState;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real railmapd reading a sysfs tree with the bad fields of issue 8 (a NUL byte in a
 * {@code gid_attrs} file, a 401-digit rate): the daemon runs on, its record holds the other ports,
 * and the skip is logged once however many times discovery runs.
 */
@ExtendWith(NamespacesAvailable.class)
class OddSysfsDaemonNamespaceTest {
    @TempDir
    Path dir;
    private NetnsLab lab;
    private DaemonProcess daemon;

    @AfterEach
    void cleanUp() {
        if (lab != null) {
            lab.close();
        }
    }

    @Test
    void aBadFieldCostsItsPortOrItsFieldAndIsLoggedOnce() throws Exception {
        Path root = dir.resolve("root");
        SysfsTree tree = new SysfsTree(root);
        for (int i = 0; i < 3; i++) {
            String hca = "mlx5_" + i;
            String pci = "0000:3b:00." + i;
            tree.hca(hca, pci);
            Path port = tree.port(hca, 1, "4: ACTIVE", "5: LinkUp", "Ethernet");
            tree.write(port, "rate", i == 2 ? "9".repeat(401) + " Gb/sec (4X NDR)" : "25 Gb/sec (1X EDR)");
            tree.netdev("eth0" + i, pci, "down", "0", "0c:42:a1:40:29:a" + i, 1500);
            tree.gid(hca, 1, 0, "fe80:0000:0000:0000:0e42:a1ff:fe40:29a" + i, "RoCE v2", i == 1 ? "eth01\0" : "eth0" + i);
        }
        lab = NetnsLab.create();
        String ns = lab.namespace("n");
        daemon = DaemonProcess.start(lab, ns, dir, "n", "--sysfs-root", root.toString(), "--link-poll-ms", "100");

        await("the record holds the two good ports").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .ignoreExceptions().untilAsserted(() -> {
                    NodeRecord record = daemon.record();
                    assertThat(record.ports()).extracting(Port::netdev).containsExactly("eth00", "eth02");
                    assertThat(record.port("eth02").orElseThrow().rateGbps()).isEmpty();
                });
        tree.write(root.resolve("sys/class/infiniband/mlx5_0/ports/1"), "state", "1: DOWN");
        await("discovery goes on: a later change is seen").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .ignoreExceptions().untilAsserted(() ->
                        assertThat(daemon.record().port("eth00").orElseThrow().state()).isEqualTo(PortState.DOWN));

        assertThat(daemon.alive()).isTrue();
        String log = daemon.log();
        String skip = "port mlx5_1/1 skipped: " + root.resolve("sys/class/infiniband/mlx5_1/ports/1/gid_attrs/ndevs/0")
                + ": \"eth01\\x00\" is not a netdev name";
        assertThat(Pattern.compile(Pattern.quote(skip)).matcher(log).results().count()).as("skip lines in\n%s", log).isEqualTo(1);
        assertThat(log).doesNotContain("\0").doesNotContain("9".repeat(65));
    }
}
