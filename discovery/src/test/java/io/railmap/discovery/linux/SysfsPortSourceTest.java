package io.railmap.discovery.linux;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.railmap.discovery.model.AssumedRdma;
import io.railmap.discovery.model.Discovery;
import io.railmap.discovery.model.DiscoveryException;
import io.railmap.discovery.model.Gid;
import io.railmap.discovery.model.InterfaceSelection;
import io.railmap.discovery.model.LocalPort;
import io.railmap.discovery.model.SkippedPort;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.PortState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Discovery on sysfs trees built from the values in {@code shared/fixtures/linux} (file named in
 * each test). Where a fixture does not show a file discovery reads, the test says what it assumes.
 */
class SysfsPortSourceTest {
    private static final String ACTIVE = "4: ACTIVE";
    private static final String DOWN = "1: DOWN";
    private static final String LINK_UP = "5: LinkUp";
    private static final String DISABLED = "3: Disabled";
    private static final String POLLING = "2: Polling";

    @TempDir
    Path dir;

    private Discovery discover(SysfsTree tree, String selection) throws DiscoveryException {
        return new SysfsPortSource("n1", tree.root(), InterfaceSelection.parse(selection)).discover();
    }

    private static LocalPort port(Discovery found, String netdev) {
        return found.ports().stream().filter(p -> p.port().netdev().equals(netdev)).findFirst()
                .orElseThrow(() -> new AssertionError("no port " + netdev + " in " + found.ports()));
    }

    private static Map<String, String> rdmaToNetdev(Discovery found) {
        return found.ports().stream().filter(p -> p.port().rdma().isPresent()).collect(Collectors.toMap(
                p -> p.port().rdma().get() + "/" + p.port().rdmaPort(), p -> p.port().netdev(), (a, b) -> a, TreeMap::new));
    }

    /**
     * connectx4lx_ibdev2netdev_show_gids_ibv_devices_ibv_devinfo.txt: four RoCE ports, mlx5_1 down;
     * GIDs and their netdevs as show_gids lists them (it reads gids/, gid_attrs/types and
     * gid_attrs/ndevs). Addresses follow from the link-local GIDs. Assumed: no rate file.
     */
    @Test
    void connectX4LxRoceNetdevsAndGidsComeFromTheGidTable() throws Exception {
        SysfsTree tree = new SysfsTree(dir);
        String[][] hcas = {
                {"mlx5_0", "0000:3b:00.0", "eth01", "0c:42:a1:40:29:a0", "fe80:0000:0000:0000:0e42:a1ff:fe40:29a0"},
                {"mlx5_1", "0000:3b:00.1", "eth02", "0c:42:a1:40:29:a1", "fe80:0000:0000:0000:0e42:a1ff:fe40:29a1"},
                {"mlx5_2", "0000:af:00.0", "eth03", "0c:42:a1:75:32:72", "fe80:0000:0000:0000:0e42:a1ff:fe75:3272"},
                {"mlx5_3", "0000:af:00.1", "eth04", "0c:42:a1:75:32:73", "fe80:0000:0000:0000:0e42:a1ff:fe75:3273"}};
        for (String[] h : hcas) {
            boolean up = !h[0].equals("mlx5_1");
            tree.hca(h[0], h[1]);
            tree.port(h[0], 1, up ? ACTIVE : DOWN, up ? LINK_UP : DISABLED, "Ethernet");
            tree.netdev(h[2], h[1], up ? "up" : "down", up ? "1" : "0", h[3], 1500);
            tree.gid(h[0], 1, 0, h[4], "IB/RoCE v1", h[2]);
            tree.gid(h[0], 1, 1, h[4], "RoCE v2", h[2]);
        }
        tree.gid("mlx5_0", 1, 2, "0000:0000:0000:0000:0000:ffff:0a6c:a424", "IB/RoCE v1", "eth01");
        tree.gid("mlx5_0", 1, 3, "0000:0000:0000:0000:0000:ffff:0a6c:a424", "RoCE v2", "eth01");
        tree.gid("mlx5_0", 1, 4, "0000:0000:0000:0000:0000:0000:0000:0000", null, null);

        Discovery found = discover(tree, "");

        assertThat(found.skipped()).isEmpty();
        assertThat(rdmaToNetdev(found)).containsExactly(
                Map.entry("mlx5_0/1", "eth01"), Map.entry("mlx5_1/1", "eth02"),
                Map.entry("mlx5_2/1", "eth03"), Map.entry("mlx5_3/1", "eth04"));
        assertThat(found.ports()).allSatisfy(p -> {
            assertThat(p.port().kind()).isEqualTo(PortKind.ROCE);
            assertThat(p.port().rateGbps()).isEmpty();
        });
        assertThat(port(found, "eth02").port().state()).isEqualTo(PortState.DOWN);
        assertThat(port(found, "eth02").carrier()).isFalse();
        assertThat(port(found, "eth03").port().state()).isEqualTo(PortState.ACTIVE);
        assertThat(port(found, "eth03").mac()).contains("0c:42:a1:75:32:72");
        assertThat(port(found, "eth01").gids()).containsExactly(
                new Gid(0, "fe80:0000:0000:0000:0e42:a1ff:fe40:29a0", Optional.of("IB/RoCE v1")),
                new Gid(1, "fe80:0000:0000:0000:0e42:a1ff:fe40:29a0", Optional.of("RoCE v2")),
                new Gid(2, "0000:0000:0000:0000:0000:ffff:0a6c:a424", Optional.of("IB/RoCE v1")),
                new Gid(3, "0000:0000:0000:0000:0000:ffff:0a6c:a424", Optional.of("RoCE v2")));
        // show_gids: index 3 is the RoCE v2 GID of 10.108.164.36; the other ports have only link-local GIDs.
        assertThat(port(found, "eth01").port().gidIndex()).contains(3);
        assertThat(port(found, "eth03").port().gidIndex()).isEmpty();
    }

    /**
     * dgx_spark_connectx7_ibdev2netdev_netplan_ibv_devinfo.txt and
     * sysfs_infiniband_ports_state_phys_state_rate_sys_image_guid_dgx_spark_cx7.txt: each physical
     * CX-7 port is two RDMA devices on two PCIe domains, each with its own netdev; f1 up at
     * "200 Gb/sec (2X NDR)" with MTU 9000 (netplan), f0 down. The ibstat capture of the same board
     * shows a disabled port still reporting a rate of 40: that number is not reported.
     */
    @Test
    void dgxSparkTwoRdmaDevicesPerPhysicalPortEachKeepTheirNetdev() throws Exception {
        SysfsTree tree = new SysfsTree(dir);
        String[][] hcas = {
                {"rocep1s0f0", "0000:01:00.0", "enp1s0f0np0"},
                {"rocep1s0f1", "0000:01:00.1", "enp1s0f1np1"},
                {"roceP2p1s0f0", "0002:01:00.0", "enP2p1s0f0np0"},
                {"roceP2p1s0f1", "0002:01:00.1", "enP2p1s0f1np1"}};
        int mac = 0x30;
        for (String[] h : hcas) {
            boolean up = h[0].endsWith("f1");
            tree.hca(h[0], h[1]);
            Path port = tree.port(h[0], 1, up ? ACTIVE : DOWN, up ? LINK_UP : DISABLED, "Ethernet");
            tree.write(port, "rate", up ? "200 Gb/sec (2X NDR)" : "40 Gb/sec (4X QDR)");
            Path netdev = tree.netdev(h[2], h[1], up ? "up" : "down", up ? "1" : "0",
                    "4c:bb:47:2d:1a:" + Integer.toHexString(mac++), up ? 9000 : 1500);
            if (!up) {
                tree.unreadable(netdev, "speed");
            }
        }

        Discovery found = discover(tree, "");

        assertThat(found.skipped()).isEmpty();
        assertThat(rdmaToNetdev(found)).containsExactly(
                Map.entry("roceP2p1s0f0/1", "enP2p1s0f0np0"), Map.entry("roceP2p1s0f1/1", "enP2p1s0f1np1"),
                Map.entry("rocep1s0f0/1", "enp1s0f0np0"), Map.entry("rocep1s0f1/1", "enp1s0f1np1"));
        for (String netdev : new String[] {"enp1s0f1np1", "enP2p1s0f1np1"}) {
            Port p = port(found, netdev).port();
            assertThat(p.kind()).isEqualTo(PortKind.ROCE);
            assertThat(p.state()).isEqualTo(PortState.ACTIVE);
            assertThat(p.rateGbps()).contains(200.0);
            assertThat(port(found, netdev).mtu()).hasValue(9000);
        }
        for (String netdev : new String[] {"enp1s0f0np0", "enP2p1s0f0np0"}) {
            assertThat(port(found, netdev).port().state()).isEqualTo(PortState.DOWN);
            assertThat(port(found, netdev).port().rateGbps()).isEmpty();
        }
    }

    /**
     * ibdev2netdev_8xCX7_IB_plus_2xCX6_eth_imbue_cluster-health_issue4.txt: twelve HCAs whose mlx5_N
     * numbers are not in PCI order, IPoIB and Ethernet netdevs mixed. PCI functions follow the netdev
     * names (ibp26s0 is bus 0x1a); "(Up)" ports are active, "(Down)" ports are not.
     */
    @Test
    void h100HostMapsEachHcaToItsNetdevThroughSysfsNotByNumber() throws Exception {
        SysfsTree tree = new SysfsTree(dir);
        String[][] hcas = {
                {"mlx5_0", "0000:1a:00.0", "ibp26s0", "InfiniBand", "Down"},
                {"mlx5_1", "0000:1b:00.0", "enp27s0f0np0", "Ethernet", "Up"},
                {"mlx5_10", "0000:cc:00.0", "ibp204s0", "InfiniBand", "Down"},
                {"mlx5_11", "0000:dc:00.0", "ibp220s0", "InfiniBand", "Down"},
                {"mlx5_2", "0000:1b:00.1", "enp27s0f1np1", "Ethernet", "Down"},
                {"mlx5_3", "0000:3c:00.0", "ibp60s0", "InfiniBand", "Down"},
                {"mlx5_4", "0000:4d:00.0", "ibp77s0", "InfiniBand", "Down"},
                {"mlx5_5", "0000:5e:00.0", "ibp94s0", "InfiniBand", "Down"},
                {"mlx5_6", "0000:9c:00.0", "ibp156s0", "InfiniBand", "Down"},
                {"mlx5_7", "0000:9d:00.0", "enp157s0f0np0", "Ethernet", "Up"},
                {"mlx5_8", "0000:9d:00.1", "enp157s0f1np1", "Ethernet", "Down"},
                {"mlx5_9", "0000:bc:00.0", "ibp188s0", "InfiniBand", "Down"}};
        Map<String, String> expected = new TreeMap<>();
        for (String[] h : hcas) {
            boolean up = h[4].equals("Up");
            boolean ib = h[3].equals("InfiniBand");
            tree.hca(h[0], h[1]);
            tree.port(h[0], 1, up ? ACTIVE : DOWN, up ? LINK_UP : POLLING, h[3]);
            tree.netdev(h[2], h[1], up ? "up" : "down", up ? "1" : "0",
                    ib ? "00:00:10:29:fe:80:00:00:00:00:00:00:a0:88:c2:03:00:1f:2e:" + h[1].substring(5, 7)
                            : "a0:88:c2:1f:2e:" + h[1].substring(5, 7),
                    ib ? 2044 : 1500);
            expected.put(h[0] + "/1", h[2]);
        }

        Discovery found = discover(tree, "");

        assertThat(found.skipped()).isEmpty();
        assertThat(rdmaToNetdev(found)).isEqualTo(expected);
        assertThat(port(found, "ibp204s0").port().kind()).isEqualTo(PortKind.INFINIBAND);
        assertThat(port(found, "ibp204s0").mac()).hasValueSatisfying(m -> assertThat(m.split(":")).hasSize(20));
        assertThat(port(found, "enp27s0f1np1").port().kind()).isEqualTo(PortKind.ROCE);
        assertThat(found.ports().stream().filter(p -> p.port().active()).map(p -> p.port().netdev()))
                .containsExactly("enp27s0f0np0", "enp157s0f0np0");
    }

    /**
     * ibstatus_4x_mlx5_EDR_infiniband_sysfs_values.txt: ibstatus prints the sysfs files verbatim.
     * Assumed: IPoIB netdevs ib0..ib2 on the first three HCAs, none on mlx5_3.
     */
    @Test
    void edrInfinibandPortsReadRateStateAndDefaultGidAndSkipAPortWithoutNetdev() throws Exception {
        SysfsTree tree = new SysfsTree(dir);
        String[] gids = {
                "fe80:0000:0000:0000:506b:4b03:00f5:ce9c", "fe80:0000:0000:0000:506b:4b03:0049:4236",
                "fe80:0000:0000:0000:506b:4b03:00f5:cf04", "fe80:0000:0000:0000:506b:4b03:0049:3eb2"};
        for (int i = 0; i < 4; i++) {
            String hca = "mlx5_" + i;
            String pci = "0000:0" + (i + 1) + ":00.0";
            tree.hca(hca, pci);
            Path port = tree.port(hca, 1, ACTIVE, LINK_UP, "InfiniBand");
            tree.write(port, "rate", "100 Gb/sec (4X EDR)");
            tree.gid(hca, 1, 0, gids[i], null, null);
            if (i < 3) {
                String ipoib = "00:00:10:49:" + gids[i].replace(":", "").replaceAll("(..)(?!$)", "$1:");
                tree.netdev("ib" + i, pci, "up", "1", ipoib, 2044);
            }
        }

        Discovery found = discover(tree, "");

        assertThat(found.ports()).extracting(p -> p.port().netdev()).containsExactly("ib0", "ib1", "ib2");
        Port ib1 = port(found, "ib1").port();
        assertThat(ib1.rdma()).contains("mlx5_1");
        assertThat(ib1.kind()).isEqualTo(PortKind.INFINIBAND);
        assertThat(ib1.rateGbps()).contains(100.0);
        assertThat(ib1.state()).isEqualTo(PortState.ACTIVE);
        assertThat(port(found, "ib1").gids()).extracting(Gid::address).containsExactly(gids[1]);
        assertThat(port(found, "ib1").port().gidIndex()).as("InfiniBand has no RoCE v2 GID").isEmpty();
        assertThat(port(found, "ib1").mac()).hasValueSatisfying(m -> assertThat(m).endsWith("00:49:42:36"));
        assertThat(found.skipped()).singleElement().satisfies(s -> {
            assertThat(s.port()).isEqualTo("mlx5_3/1");
            assertThat(s.reason()).startsWith("no netdev");
        });
    }

    /**
     * rdma_link_show_connectx6dx_3FS_pr283.txt: two active RoCE ports on netdevs p1p1 and p1p2,
     * named in the GID table. An exclude entry drops an RDMA port by netdev or by HCA name; the
     * dropped netdev does not come back as a plain port through an include entry.
     */
    @Test
    void connectX6DxExcludeEntriesDropRdmaPortsByNetdevOrHca() throws Exception {
        SysfsTree tree = new SysfsTree(dir);
        for (int i = 0; i < 2; i++) {
            String hca = "mlx5_" + i;
            String pci = "0000:86:00." + i;
            String netdev = "p1p" + (i + 1);
            tree.hca(hca, pci);
            tree.port(hca, 1, ACTIVE, LINK_UP, "Ethernet");
            tree.gid(hca, 1, 0, "fe80:0000:0000:0000:0000:0000:0000:000" + (i + 1), "IB/RoCE v1", netdev);
            tree.netdev(netdev, pci, "up", "1", "b8:ce:f6:00:00:0" + i, 1500);
        }

        Discovery all = discover(tree, "");
        Discovery byNetdev = discover(tree, "p1*,!p1p2");
        Discovery byHca = discover(tree, "p1*,!mlx5_0");

        assertThat(rdmaToNetdev(all)).containsExactly(Map.entry("mlx5_0/1", "p1p1"), Map.entry("mlx5_1/1", "p1p2"));
        assertThat(byNetdev.ports()).extracting(p -> p.port().netdev()).containsExactly("p1p1");
        assertThat(byNetdev.skipped()).containsExactly(
                new SkippedPort("mlx5_1/1", "excluded by interface selection entry \"!p1p2\" (netdev \"p1p2\")"));
        assertThat(byHca.ports()).extracting(p -> p.port().netdev()).containsExactly("p1p2");
        assertThat(byHca.skipped()).extracting(SkippedPort::port).containsExactly("mlx5_0/1");
    }

    @Test
    void switchdevRepresentorsBesideTheUplinkAreResolvedThroughTheGidTable() throws Exception {
        SysfsTree tree = new SysfsTree(dir);
        tree.hca("mlx5_0", "0000:08:00.0");
        tree.port("mlx5_0", 1, ACTIVE, LINK_UP, "Ethernet");
        tree.netdev("enp8s0f0np0", "0000:08:00.0", "up", "1", "02:00:00:00:00:01", 1500);
        tree.netdev("pf0vf0", "0000:08:00.0", "up", "1", "02:00:00:00:00:02", 1500);
        SysfsTree bare = new SysfsTree(dir.resolve("bare"));
        bare.hca("mlx5_0", "0000:08:00.0");
        bare.port("mlx5_0", 1, ACTIVE, LINK_UP, "Ethernet");
        bare.netdev("enp8s0f0np0", "0000:08:00.0", "up", "1", "02:00:00:00:00:01", 1500);
        bare.netdev("pf0vf0", "0000:08:00.0", "up", "1", "02:00:00:00:00:02", 1500);
        tree.gid("mlx5_0", 1, 0, "fe80:0000:0000:0000:0000:00ff:fe00:0001", "RoCE v2", "enp8s0f0np0");

        Discovery withGids = discover(tree, "");
        Discovery withoutGids = discover(bare, "");

        assertThat(rdmaToNetdev(withGids)).containsExactly(Map.entry("mlx5_0/1", "enp8s0f0np0"));
        assertThat(withoutGids.ports()).isEmpty();
        assertThat(withoutGids.skipped()).singleElement()
                .satisfies(s -> assertThat(s.reason()).contains("several netdevs [\"enp8s0f0np0\", \"pf0vf0\"]"));
    }

    @Test
    void plainNetdevsAreTakenOnlyWhenSelectedWithStateAndSpeedFromCarrier() throws Exception {
        SysfsTree tree = new SysfsTree(dir);
        Path veth0 = tree.netdev("veth0", null, "up", "1", "ae:00:00:00:00:01", 1500);
        tree.write(veth0, "speed", "10000");
        Path veth1 = tree.netdev("veth1", null, "up", "1", "ae:00:00:00:00:02", 1500);
        tree.write(veth1, "speed", "-1");
        Path veth2 = tree.netdev("veth2", null, "unknown", "0", "ae:00:00:00:00:03", 1500);
        tree.write(veth2, "speed", "10000");
        Path eth9 = tree.netdev("eth9", "0000:05:00.0", "down", null, "52:54:00:00:00:09", 1500);
        tree.unreadable(eth9, "carrier");
        tree.unreadable(eth9, "speed");
        Path lo = tree.netdev("lo", null, "unknown", "1", "00:00:00:00:00:00", 65536);
        tree.unreadable(lo, "speed");
        tree.netdev("docker0", null, "down", "0", "02:42:00:00:00:00", 1500);
        tree.write(dir.resolve("sys/class/net"), "bonding_masters", "");

        Discovery found = discover(tree, "veth*,eth*,lo,bond*");

        assertThat(found.skipped()).isEmpty();
        assertThat(found.ports()).extracting(p -> p.port().netdev()).containsExactly("eth9", "lo", "veth0", "veth1", "veth2");
        assertThat(found.ports()).allSatisfy(p -> {
            assertThat(p.port().kind()).isEqualTo(PortKind.ETHERNET);
            assertThat(p.port().rdma()).isEmpty();
        });
        assertThat(port(found, "veth0").port().rateGbps()).contains(10.0);
        assertThat(port(found, "veth0").port().state()).isEqualTo(PortState.ACTIVE);
        assertThat(port(found, "veth1").port().rateGbps()).isEmpty();
        assertThat(port(found, "veth2").port().state()).isEqualTo(PortState.DOWN);
        assertThat(port(found, "veth2").port().rateGbps()).isEmpty();
        assertThat(port(found, "lo").port().state()).isEqualTo(PortState.ACTIVE);
        assertThat(port(found, "lo").mtu()).hasValue(65536);
        LocalPort down = port(found, "eth9");
        assertThat(down.port().state()).isEqualTo(PortState.DOWN);
        assertThat(down.carrier()).isFalse();
        assertThat(down.port().rateGbps()).isEmpty();
        assertThat(down.ifindex()).hasValue(4);
    }

    /** A required field that is odd skips its port; an optional one is dropped to unknown with a note naming the file. */
    @Test
    void anOddValueSkipsOnlyItsPortOrDropsOnlyItsFieldAndNamesTheFile() throws Exception {
        SysfsTree tree = new SysfsTree(dir);
        String[] hcas = {"mlx5_0", "mlx5_1", "mlx5_2"};
        for (int i = 0; i < hcas.length; i++) {
            String pci = "0000:0" + (i + 1) + ":00.0";
            tree.hca(hcas[i], pci);
            tree.port(hcas[i], 1, ACTIVE, LINK_UP, "Ethernet");
            tree.netdev("eth" + i, pci, "up", "1", "02:00:00:00:00:0" + i, 1500);
        }
        tree.write(dir.resolve("sys/class/infiniband/mlx5_0/ports/1"), "state", "4: ACTIV");
        Path rate = tree.port("mlx5_1", 1, ACTIVE, LINK_UP, "Ethernet").resolve("rate");
        tree.write(rate.getParent(), "rate", "fast");
        Path veth = tree.netdev("veth0", null, "up", "1", "not-a-mac", 1500);

        Discovery found = discover(tree, "veth*");

        assertThat(found.ports()).extracting(p -> p.port().netdev()).containsExactly("eth1", "eth2", "veth0");
        assertThat(found.skipped()).extracting(SkippedPort::port).containsExactly("mlx5_0/1");
        assertThat(found.skipped().get(0).reason())
                .isEqualTo(dir.resolve("sys/class/infiniband/mlx5_0/ports/1/state") + ": port state 4 is ACTIVE, not \"ACTIV\"");
        assertThat(port(found, "eth1").port().rateGbps()).isEmpty();
        assertThat(port(found, "veth0").mac()).isEmpty();
        assertThat(found.notes()).containsExactly(
                "port mlx5_1/1: rate unknown: " + rate + ": \"fast\" is not a rate such as \"400 Gb/sec (4X NDR)\"",
                "port veth0: hardware address unknown: " + veth.resolve("address")
                        + ": \"not-a-mac\" is not a hardware address (2 to 32 hex bytes separated by ':')");
    }

    /** Three CX-4 Lx RoCE ports as connectX4LxRoce... above, for the mutations below to spoil one of. */
    private SysfsTree threeRocePorts() {
        SysfsTree tree = new SysfsTree(dir);
        for (int i = 0; i < 3; i++) {
            String hca = "mlx5_" + i;
            String pci = "0000:3b:00." + i;
            tree.hca(hca, pci);
            tree.port(hca, 1, ACTIVE, LINK_UP, "Ethernet");
            tree.write(dir.resolve("sys/class/infiniband/" + hca + "/ports/1"), "rate", "25 Gb/sec (1X EDR)");
            tree.netdev("eth0" + i, pci, "up", "1", "0c:42:a1:40:29:a" + i, 1500);
            tree.gid(hca, 1, 0, "fe80:0000:0000:0000:0e42:a1ff:fe40:29a" + i, "RoCE v2", "eth0" + i);
        }
        return tree;
    }

    /**
     * The limits of each RDMA device come from ibv_devinfo -v (sysfs has none): the E810's -v block of
     * ibv_devinfo_v_irdma_e810_3fs_issue192.txt, its hca_id put on mlx5_0 of this tree; a bad max_qp of
     * mlx5_1 costs that limit, noted; mlx5_2, which the output does not list, has none.
     */
    @Test
    void eachRdmaPortTakesItsDevicesLimitsFromIbvDevinfoVerbose() throws Exception {
        String e810;
        try (java.io.InputStream in = getClass().getResourceAsStream("/fixtures/linux/ibv_devinfo_v_irdma_e810_3fs_issue192.txt")) {
            e810 = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
        String verbs = e810.replace("hca_id:\tirdma0", "hca_id:\tmlx5_0") + "hca_id:\tmlx5_1\n\tmax_qp:\t\t\t\t-3\n\tmax_mr:\t\t\t\t100\n";
        SysfsTree tree = threeRocePorts();

        Discovery found = new SysfsPortSource("n1", tree.root(), InterfaceSelection.rdmaOnly(),
                note -> VerbsLimits.parse("ibv_devinfo -v", verbs, note)).discover();

        assertThat(port(found, "eth00").port().rdmaLimits())
                .isEqualTo(io.railmap.matrix.model.RdmaLimits.of(4092, 262141, 4194301, 1048574));
        assertThat(port(found, "eth01").port().rdmaLimits()).isEqualTo(io.railmap.matrix.model.RdmaLimits.of(null, null, 100, null));
        assertThat(port(found, "eth02").port().rdmaLimits()).isEmpty();
        assertThat(found.notes()).anySatisfy(n -> assertThat(n).contains("ibv_devinfo -v: line", "max_qp left out"));

        // a device's limits are fixed for its life: ibv_devinfo runs again only when the devices change or it gave nothing
        java.util.concurrent.atomic.AtomicInteger runs = new java.util.concurrent.atomic.AtomicInteger();
        SysfsPortSource twice = new SysfsPortSource("n1", tree.root(), InterfaceSelection.rdmaOnly(),
                note -> {
                    runs.incrementAndGet();
                    return VerbsLimits.parse("ibv_devinfo -v", verbs, note);
                });
        Discovery first = twice.discover();
        Discovery second = twice.discover();
        assertThat(runs).hasValue(1);
        assertThat(second.notes()).isEqualTo(first.notes());
        assertThat(port(second, "eth00").port().rdmaLimits()).isEqualTo(port(first, "eth00").port().rdmaLimits());
        tree.write(dir.resolve("sys/class/infiniband/mlx5_9/ports/1"), "state", "4: ACTIVE");
        twice.discover();
        assertThat(runs).as("a new device: read again").hasValue(2);

        // no usable output: every limit unknown, said once; a sysfs tree alone asks nothing
        Discovery none = new SysfsPortSource("n1", tree.root(), InterfaceSelection.rdmaOnly(),
                note -> VerbsLimits.parse("ibv_devinfo -v", "No IB devices found\n", note)).discover();
        assertThat(none.ports()).allSatisfy(p -> assertThat(p.port().rdmaLimits()).isEmpty());
        assertThat(none.notes()).containsExactly("RDMA device limits unknown: ibv_devinfo -v: no \"hca_id:\" line");
        assertThat(discover(tree, "").ports()).allSatisfy(p -> assertThat(p.port().rdmaLimits()).isEmpty());
    }

    /** Issue 8: a NUL byte in gid_attrs aborted the node's discovery with a message naming no file. */
    @Test
    void aNulByteInTheGidTablesNetdevSkipsOnlyThatPortNamingTheFile() throws Exception {
        SysfsTree tree = threeRocePorts();
        Path ndevs = dir.resolve("sys/class/infiniband/mlx5_1/ports/1/gid_attrs/ndevs");
        tree.write(ndevs, "0", "eth01\0");
        Path types = dir.resolve("sys/class/infiniband/mlx5_2/ports/1/gid_attrs/types");
        tree.write(types, "0", "RoCE\0v2");

        Discovery found = discover(tree, "");

        assertThat(found.ports()).extracting(p -> p.port().netdev()).containsExactly("eth00", "eth02");
        assertThat(found.skipped()).containsExactly(new SkippedPort("mlx5_1/1", ndevs.resolve("0")
                + ": \"eth01\\x00\" is not a netdev name (1 to 15 characters, no '/', ':', white space or control character)"));
        assertThat(port(found, "eth02").gids()).singleElement().satisfies(g -> assertThat(g.type()).isEmpty());
        assertThat(found.notes()).containsExactly("port mlx5_2/1: type of GID 0 unknown: " + types.resolve("0")
                + ": GID type \"RoCE\\x00v2\" is not 1 to 32 printable characters");
    }

    /** Numbers have bounded digits: a 401-digit rate or speed is an odd value, dropped to unknown. */
    @Test
    void fourHundredDigitNumbersAreOddValuesNotOverflows() throws Exception {
        SysfsTree tree = threeRocePorts();
        String huge = "9".repeat(401);
        tree.write(dir.resolve("sys/class/infiniband/mlx5_0/ports/1"), "rate", huge + " Gb/sec (4X NDR)");
        Path veth = tree.netdev("veth0", null, "up", "1", "ae:00:00:00:00:01", 1500);
        tree.write(veth, "speed", huge);
        tree.write(veth, "mtu", huge);

        Discovery found = discover(tree, "veth*");

        assertThat(found.skipped()).isEmpty();
        assertThat(port(found, "eth00").port().rateGbps()).isEmpty();
        assertThat(port(found, "veth0").port().rateGbps()).isEmpty();
        assertThat(port(found, "veth0").mtu()).isEmpty();
        String shown = "\"" + "9".repeat(64) + "…(337 more)\"";
        assertThat(found.notes()).containsExactly(
                "port mlx5_0/1: rate unknown: " + dir.resolve("sys/class/infiniband/mlx5_0/ports/1/rate") + ": \"" + "9".repeat(64)
                        + "…(353 more)\" is not a rate such as \"400 Gb/sec (4X NDR)\"",
                "port veth0: MTU unknown: " + veth.resolve("mtu") + ": " + shown + " is not a whole number of at least 1 (up to nine digits)",
                "port veth0: rate unknown: " + veth.resolve("speed") + ": " + shown + " is not a speed in Mb/s (-1 or up to ten digits)");
    }

    /** A 10 MB attribute is read no further than one page; control characters are shown escaped. */
    @Test
    void aHugeOrControlCharacterValueIsNeverEchoedRaw() throws Exception {
        SysfsTree tree = threeRocePorts();
        Path port0 = dir.resolve("sys/class/infiniband/mlx5_0/ports/1");
        Files.writeString(port0.resolve("state"), "4".repeat(10 << 20));
        Path port1 = dir.resolve("sys/class/infiniband/mlx5_1/ports/1");
        tree.write(port1, "state", "4: ACT\u001b[2J\nIVE");

        Discovery found = discover(tree, "");

        assertThat(found.ports()).extracting(p -> p.port().netdev()).containsExactly("eth02");
        assertThat(found.skipped()).containsExactly(
                new SkippedPort("mlx5_0/1", port0.resolve("state") + ": longer than 4096 bytes, which no sysfs attribute is"),
                new SkippedPort("mlx5_1/1", port1.resolve("state") + ": \"4: ACT\\x1b[2J\\nIVE\" is not \"<number>: <STATE>\""
                        + " such as \"4: ACTIVE\""));
    }

    /** Only regular files are opened: a FIFO in place of an attribute reads as no value instead of hanging. */
    @Test
    void aFifoInPlaceOfAnAttributeDoesNotHang() throws Exception {
        SysfsTree tree = threeRocePorts();
        Path rate = dir.resolve("sys/class/infiniband/mlx5_0/ports/1/rate");
        Files.delete(rate);
        assertThat(new ProcessBuilder("mkfifo", rate.toString()).inheritIO().start().waitFor()).isZero();
        Path state = dir.resolve("sys/class/infiniband/mlx5_1/ports/1/state");
        Files.delete(state);
        assertThat(new ProcessBuilder("mkfifo", state.toString()).inheritIO().start().waitFor()).isZero();

        CompletableFuture<Discovery> run = CompletableFuture.supplyAsync(() -> {
            try {
                return discover(tree, "");
            } catch (DiscoveryException e) {
                throw new IllegalStateException(e);
            }
        });
        await().atMost(Duration.ofSeconds(30)).until(run::isDone);

        Discovery found = run.get();
        assertThat(found.ports()).extracting(p -> p.port().netdev()).containsExactly("eth00", "eth02");
        assertThat(port(found, "eth00").port().rateGbps()).isEmpty();
        assertThat(found.skipped()).containsExactly(new SkippedPort("mlx5_1/1", "cannot read " + state));
    }

    /** A port that is there twice (two HCAs naming one netdev) is not reported at all. */
    @Test
    void twoRdmaPortsNamingOneNetdevAreBothSkipped() throws Exception {
        SysfsTree tree = threeRocePorts();
        tree.write(dir.resolve("sys/class/infiniband/mlx5_2/ports/1/gid_attrs/ndevs"), "0", "eth01");

        Discovery found = discover(tree, "");

        assertThat(found.ports()).extracting(p -> p.port().netdev()).containsExactly("eth00");
        assertThat(found.skipped()).containsExactly(
                new SkippedPort("mlx5_1/1", "netdev \"eth01\" is also claimed by mlx5_2/1: neither is reported"),
                new SkippedPort("mlx5_2/1", "netdev \"eth01\" is also claimed by mlx5_1/1: neither is reported"));
    }

    @Test
    void aTreeWithoutSysClassNetFailsNamingTheDirectory() {
        assertThatThrownBy(() -> new SysfsPortSource("n1", dir.resolve("nothing"), InterfaceSelection.rdmaOnly()).discover())
                .isInstanceOf(DiscoveryException.class)
                .hasMessageContaining(dir.resolve("nothing/sys/class/net").toString());
    }

    /**
     * Bridge membership is {@code master} when {@code brport} is there: a veth in a bridge has it, a
     * bond member's {@code master} is no bridge, and a bridge port whose {@code master} cannot be read
     * has an unknown bridge and a note. A tree holds no addresses: they are unknown, never "none".
     */
    @Test
    void aBridgePortNamesItsBridgeAndATreeKnowsNoAddresses() throws Exception {
        SysfsTree tree = new SysfsTree(dir);
        tree.netdev("veth0", null, "up", "1", "ae:de:48:00:33:64", 1500);
        tree.netdev("br0", null, "up", "1", "ae:de:48:00:33:65", 1500);
        tree.bridgePort("veth0", "br0");
        tree.netdev("eth1", "0000:3b:00.0", "up", "1", "0c:42:a1:40:29:a1", 1500);
        tree.master("eth1", "bond0");
        tree.netdev("veth2", null, "up", "1", "ae:de:48:00:33:66", 1500);
        tree.bridgePort("veth2", null);

        Discovery found = discover(tree, "veth*,eth*");

        assertThat(port(found, "veth0").port().bridge()).contains("br0");
        assertThat(port(found, "eth1").port().bridge()).isEmpty();
        assertThat(port(found, "veth2").port().bridge()).isEmpty();
        assertThat(found.notes()).containsExactly("port veth2: bridge unknown: " + dir.resolve("sys/class/net/veth2/master")
                + ": a bridge port without a readable master link");
        assertThat(found.ports()).allSatisfy(p -> {
            assertThat(p.port().addressesKnown()).isFalse();
            assertThat(p.port().addresses()).isEmpty();
        });
    }

    /** --assume-rdma gives a selected plain netdev the device rdma_<netdev>, and leaves real RDMA ports and others alone. */
    @Test
    void assumedRdmaNamesOnlyTheSelectedPlainNetdevs() throws Exception {
        SysfsTree tree = new SysfsTree(dir);
        tree.hca("mlx5_0", "0000:1a:00.0");
        tree.port("mlx5_0", 1, ACTIVE, LINK_UP, "Ethernet");
        tree.netdev("ens1f0np0", "0000:1a:00.0", "up", "1", "0c:42:a1:40:29:a0", 1500);
        tree.gid("mlx5_0", 1, 0, "fe80:0000:0000:0000:0e42:a1ff:fe40:29a0", "RoCE v2", "ens1f0np0");
        tree.netdev("en6", null, "up", "1", "ae:de:48:00:33:64", 1500);
        tree.netdev("en7", null, "up", "1", "ae:de:48:00:33:65", 1500);
        tree.netdev("mgmt0", null, "up", "1", "ae:de:48:00:33:66", 1500);

        Discovery found = new SysfsPortSource("n1", tree.root(), InterfaceSelection.parse("en*,mgmt0"),
                AssumedRdma.parse("en*,!en7,ens*")).discover();

        assertThat(port(found, "en6").port().rdma()).contains("rdma_en6");
        assertThat(port(found, "en6").port().kind()).isEqualTo(PortKind.ETHERNET);
        assertThat(port(found, "en7").port().rdma()).isEmpty();
        assertThat(port(found, "mgmt0").port().rdma()).isEmpty();
        assertThat(port(found, "ens1f0np0").port().rdma()).contains("mlx5_0");
    }
}
