package io.railmap.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * {@code examples/snapshots/mac-and-linux-thunderbolt.json}: a Mac and a Linux host on one Thunderbolt cable, which
 * neither probe heard; the domain UUIDs of both ends confirm it, so the matrix names the Mac's {@code rdma_en1} and the
 * Linux host's {@code usb4_rdma4}.
 */
class MacAndLinuxSnapshotTest {
    private static final String SNAPSHOT = Path.of("../examples/snapshots/mac-and-linux-thunderbolt.json").toAbsolutePath().toString();

    @Test
    void theMatrixPairsTheMacAndTheLinuxHostByTheirDomainUuidsAlone() {
        assertThat(Run.of("matrix", "--snapshot", SNAPSHOT, "--hosts", "mbp,strix"))
                .isEqualTo(new Run(0, "[\n  [null, \"rdma_en1\"],\n  [\"usb4_rdma4\", null]\n]\n", ""));
    }

    @Test
    void theLinuxPortNamesItsXDomainAndHostRouterPort() {
        Run run = Run.of("ports", "--snapshot", SNAPSHOT, "--node", "strix");

        assertThat(run.code()).isZero();
        assertThat(run.out()).contains("thunderbolt0  usb4_rdma4  thunderbolt  80 Gb/s  active",
                "xdomain 0-1 on host router port 1, link 80 Gb/s, RDMA-capable");
    }

    /** A Linux host's Thunderbolt port is no sign of macOS: its commands are ip's, the Mac's ifconfig's. */
    @Test
    void theAddressPlanGivesEachHostItsOwnSystemsCommands() {
        Run run = Run.of("addresses", "--snapshot", SNAPSHOT);

        assertThat(run.code()).isZero();
        assertThat(run.out()).contains("node mbp (macOS, as root):\n  ifconfig en1 inet 169.254.1.1 netmask 255.255.255.252",
                "node strix (Linux, as root):\n  ip -4 addr flush dev thunderbolt0\n  ip addr add 169.254.1.2/30 dev thunderbolt0");
    }
}
