package io.railmap.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.railmap.daemon.testing.DaemonProcess;
import io.railmap.daemon.testing.NamespacesAvailable;
import io.railmap.daemon.testing.NetnsLab;
import io.railmap.lab.Ip;
import io.railmap.lab.Netns;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Port;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real railmapd in a network namespace reports what the kernel holds for its ports: cable port
 * {@code c0} with an IPv4 and a global IPv6 address (and its IPv6 link-local one), {@code c1} a port
 * of bridge {@code br9}; the management address it binds; {@code --assume-rdma c0} naming
 * {@code rdma_c0}, with one warning line at start.
 */
@ExtendWith(NamespacesAvailable.class)
class PortFactsNamespaceTest {
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
    void theRecordCarriesAddressesWithTheirPrefixLengthsBridgeManagementAndTheAssumedDevice() throws Exception {
        lab = NetnsLab.create();
        String ns = lab.namespace("n");
        String far = lab.namespace("far");
        lab.cable(ns, "c0", far, "c0");
        lab.cable(ns, "c1", far, "c1");
        Netns.address(ns, "c0", "169.254.9.1/30");
        Netns.address(ns, "c0", "2001:db8:9::1/64");
        Ip.run("ip", "-n", ns, "link", "add", "br9", "type", "bridge");
        Ip.run("ip", "-n", ns, "link", "set", "br9", "up");
        Netns.enslave(ns, "c1", "br9");
        Netns.veth(ns, "m0", far, "m0");
        Netns.address(ns, "m0", "10.9.0.1/24");

        daemon = DaemonProcess.start(lab, ns, dir, "n", "--interfaces", "c0,c1", "--assume-rdma", "c0", "--bind", "10.9.0.1",
                "--link-poll-ms", "100");

        await("the record holds both cable ports with their facts").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .ignoreExceptions().untilAsserted(() -> {
                    NodeRecord record = daemon.record();
                    assertThat(record.management()).contains("10.9.0.1");
                    assertThat(record.rdmaEnabled()).isEmpty();
                    Port c0 = record.port("c0").orElseThrow();
                    assertThat(c0.addressesKnown()).isTrue();
                    assertThat(c0.ipv4()).containsExactly("169.254.9.1");
                    assertThat(c0.addresses()).contains("2001:db8:9::1").anyMatch(a -> a.startsWith("fe80::"))
                            .noneMatch(a -> a.contains("%"));
                    // the kernel's lengths (snapshot format 5): what says whether a connection travels this cable
                    assertThat(c0.prefixLength("169.254.9.1")).contains(30);
                    assertThat(c0.prefixLength("2001:db8:9::1")).contains(64);
                    assertThat(c0.rdma()).contains("rdma_c0");
                    assertThat(c0.bridge()).isEmpty();
                    Port c1 = record.port("c1").orElseThrow();
                    assertThat(c1.bridge()).contains("br9");
                    assertThat(c1.ipv4()).isEmpty();
                    assertThat(c1.rdma()).isEmpty();
                });
        String log = daemon.log();
        assertThat(Pattern.compile("--assume-rdma c0: ").matcher(log).results().count()).as("warning lines in\n%s", log).isEqualTo(1);
    }
}
