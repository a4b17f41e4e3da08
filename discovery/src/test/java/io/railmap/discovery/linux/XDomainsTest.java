package io.railmap.discovery.linux;

import static org.assertj.core.api.Assertions.assertThat;

import io.railmap.discovery.model.Discovery;
import io.railmap.discovery.model.InterfaceSelection;
import io.railmap.discovery.model.LocalPort;
import io.railmap.discovery.model.SkippedPort;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.PortState;
import io.railmap.matrix.model.Thunderbolt;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Thunderbolt host-to-host links on a sysfs tree built from {@code fixtures/linux/thunderbolt_xdomain_mac_peer.tree}
 * (its sources: fixtures/README.md), and from that tree made careless or hostile.
 */
class XDomainsTest {
    /** The fixture's link: this host's domain 0 and the Mac's bus, 2 lanes × 20 Gb/s, the host router's first port. */
    static final Thunderbolt FIXTURE_LINK = new Thunderbolt(Optional.of("28CA4C30-A263-4C55-B302-953416D0B209"),
            Optional.of("817DCFA4-B481-4100-80FC-91C7AA969F0B"), 1, Optional.of(40.0), false, Optional.empty(), Optional.of("0-1"));
    private static final String NHI = "sys/devices/pci0000:00/0000:00:0d.2";
    private static final String XD = NHI + "/domain0/0-0/0-1";

    @TempDir
    Path dir;
    private SysfsTree tree;

    private static String fixture() {
        return SysfsTree.fixture("thunderbolt_xdomain_mac_peer.tree");
    }

    @BeforeEach
    void loadFixture() {
        tree = new SysfsTree(dir).load(fixture());
    }

    private Discovery discover() throws Exception {
        return new SysfsPortSource("strix", tree.root(), InterfaceSelection.rdmaOnly()).discover();
    }

    private static Port port(Discovery found, String netdev) {
        return found.ports().stream().map(LocalPort::port).filter(p -> p.netdev().equals(netdev)).findFirst()
                .orElseThrow(() -> new AssertionError("no port " + netdev + " in " + found.ports() + ", skipped " + found.skipped()));
    }

    private Path at(String path) {
        return tree.root().resolve(path);
    }

    private void delete(String path) {
        SysfsTree.delete(at(path));
    }

    /** A second XDomain on domain 0, route 3 (the host router's second port), with its netdev thunderbolt1. */
    private void secondXDomain() {
        tree.xdomain(NHI + "/domain0/0-0", "0-3", "c6030000-0080-7518-2391-a4e51a82e819", "thunderbolt1", "up");
    }

    @Test
    void aMacPeerIsAThunderboltPortOnItsThunderboltNetNetdevWithTheUsb4RdmaDeviceOfItsDomain() throws Exception {
        Discovery found = discover();

        assertThat(found.skipped()).isEmpty();
        assertThat(found.ports()).extracting(p -> p.port().netdev()).containsExactly("thunderbolt0");
        Port tb = port(found, "thunderbolt0");
        assertThat(tb.kind()).isEqualTo(PortKind.THUNDERBOLT);
        assertThat(tb.rdma()).contains("usb4_rdma4");
        assertThat(tb.rateGbps()).contains(40.0);
        assertThat(tb.state()).isEqualTo(PortState.ACTIVE);
        assertThat(tb.thunderbolt()).contains(FIXTURE_LINK);
        assertThat(tb.thunderbolt().orElseThrow().rdmaCapable()).isTrue();
    }

    @Test
    void withoutThunderboltIbverbsTheLinkIsStillAPortAndTheUuidsStillPairIt() throws Exception {
        delete("sys/class/infiniband");

        Port tb = port(discover(), "thunderbolt0");

        assertThat(tb.rdma()).isEmpty();
        assertThat(tb.thunderbolt()).contains(FIXTURE_LINK);
    }

    @Test
    void anExcludeEntryLeavesTheLinkOutByItsNetdevOrRdmaDevice() throws Exception {
        for (String entry : new String[] {"!thunderbolt*", "!usb4_rdma4"}) {
            Discovery found = new SysfsPortSource("strix", tree.root(), InterfaceSelection.parse(entry)).discover();
            assertThat(found.ports()).as(entry).isEmpty();
            assertThat(found.skipped()).as(entry).singleElement().satisfies(sk -> {
                assertThat(sk.port()).isEqualTo("xdomain 0-1");
                assertThat(sk.reason()).startsWith("excluded by interface selection entry \"" + entry + "\"");
            });
        }
    }

    @Test
    void aDomainWithTwoXDomainsTiesItsRdmaDeviceToNeitherAndSaysWhy() throws Exception {
        secondXDomain();

        Discovery found = discover();

        assertThat(port(found, "thunderbolt0").rdma()).isEmpty();
        Port second = port(found, "thunderbolt1");
        assertThat(second.rdma()).isEmpty();
        assertThat(second.thunderbolt().orElseThrow().receptacle()).isEqualTo(2);
        assertThat(second.thunderbolt().orElseThrow().domainUuid()).isEqualTo(FIXTURE_LINK.domainUuid());
        assertThat(second.thunderbolt().orElseThrow().linkSpeedGbps()).isEmpty();
        assertThat(found.notes()).anyMatch(n -> n.contains("RDMA devices [usb4_rdma4] are on Thunderbolt domain 0, which has 2 XDomains"));
        assertThat(port(found, "ardma0").rdma()).as("the untied device is an RDMA port on its GID netdev, as before").contains("usb4_rdma4");
    }

    @Test
    void aDeviceOfTheDomainThatCouldNotBeReadStillCountsAgainstTyingItsRdmaDevice() throws Exception {
        secondXDomain();
        tree.write(at(NHI + "/domain0/0-0/0-3"), "uevent", "DEVTYPE=thunderbolt_xdomain\n".repeat(200).strip());

        Discovery found = discover();

        assertThat(found.skipped()).extracting(SkippedPort::port).containsExactly("thunderbolt 0-3");
        assertThat(port(found, "thunderbolt0").rdma()).isEmpty();
    }

    @Test
    void twoXDomainsClaimingOneNetdevAreBothSkipped() throws Exception {
        secondXDomain();
        tree.load(NHI + "/domain0/0-0/0-3/0-3.1/net/thunderbolt0/operstate = up");
        delete(NHI + "/domain0/0-0/0-3/0-3.1/net/thunderbolt1");

        Discovery found = discover();

        assertThat(found.skipped()).extracting(SkippedPort::port).containsExactlyInAnyOrder("xdomain 0-1", "xdomain 0-3");
        assertThat(found.skipped()).allSatisfy(sk -> assertThat(sk.reason()).contains("netdev \"thunderbolt0\" is also XDomain"));
    }

    @Test
    void anRdmaDeviceOnAnotherHostInterfaceIsNotTied() throws Exception {
        Path link = at(NHI + "/infiniband/usb4_rdma4/device");
        Files.delete(link);
        Files.createDirectories(at("sys/devices/pci0000:00/0000:c7:00.5"));
        Files.createSymbolicLink(link, Path.of("../../../0000:c7:00.5"));

        Discovery found = discover();

        assertThat(port(found, "thunderbolt0").rdma()).isEmpty();
        assertThat(found.notes()).anyMatch(n -> n.contains("RDMA device usb4_rdma4 is not this port's"));
    }

    @Test
    void aPeerBehindAHubAndAPeerOnTheSecondPortSayWhereTheCableLeaves() throws Exception {
        tree.xdomain(NHI + "/domain0/0-0/0-1", "0-301", "7f158861-c131-4d0d-83b6-ca50ef76c32b", "thunderbolt2", "down");

        Port hub = port(discover(), "thunderbolt2");

        assertThat(hub.thunderbolt().orElseThrow().behindHub()).isTrue();
        assertThat(hub.thunderbolt().orElseThrow().receptacle()).isEqualTo(1);
        assertThat(hub.thunderbolt().orElseThrow().rdmaCapable()).isFalse();
        assertThat(hub.state()).isEqualTo(PortState.DOWN);
    }

    /** Each careless or hostile input costs its XDomain (with a reason naming the file), never the node. */
    @Test
    void aBadXDomainIsSkippedWithAReasonAndTheNextOneIsRead() throws Exception {
        String outside = Files.writeString(dir.resolve("outside-huge"), "a".repeat(8192)).toString();
        String[][] cases = {
                {XD + "/unique_id = c6030000-0080-7518-2391", "is not a UUID"},
                {XD + "/unique_id = " + "0".repeat(5000), "longer than 4096 bytes"},
                {"DELETE " + XD + "/unique_id", "no file"},
                {"DELETE " + XD + "/unique_id\n" + XD + "/unique_id -> " + outside, "longer than 4096 bytes"},
                {"DELETE " + NHI + "/domain0/0-0/unique_id", "no file"},
                {NHI + "/domain0/0-0/unique_id = 28ca4c30-a263-4c55-b302-953416d0b20\u0000", "is not a UUID"},
                {"DELETE " + XD + "/0-1.1/net", "no thunderbolt-net netdev"},
                {"DELETE " + XD + "/0-1.1/net/thunderbolt0\n" + XD + "/0-1.1/net/thunder bolt0/operstate = up", "is not a netdev name"},
                {"DELETE " + XD + "/0-1.1/net\n" + XD + "/0-1.1/net -> " + twoNetdevsOutside(), "several thunderbolt-net netdevs"},
        };
        for (String[] c : cases) {
            Path root = dir.resolve("case" + c[1].hashCode() + Integer.toHexString(c[0].hashCode()));
            tree = new SysfsTree(root).load(fixture());
            secondDomain();
            for (String line : c[0].split("\n")) {
                if (line.startsWith("DELETE ")) {
                    delete(line.substring("DELETE ".length()));
                } else {
                    if (line.contains(" -> ")) {
                        Files.deleteIfExists(at(line.substring(0, line.indexOf(" -> "))));
                    }
                    tree.load(line);
                }
            }

            Discovery found = discover();

            assertThat(found.skipped()).as(c[0]).singleElement().satisfies(s -> {
                assertThat(s.port()).isEqualTo("xdomain 0-1");
                assertThat(s.reason()).contains(c[1]);
            });
            assertThat(port(found, "thunderbolt9").thunderbolt().orElseThrow().xdomain()).as(c[0]).contains("1-1");
        }
    }

    /** A directory outside every tree with two netdev-like entries: a link out of the tree lists them. */
    private String twoNetdevsOutside() throws IOException {
        Path outside = dir.resolve("outside-net");
        Files.createDirectories(outside.resolve("eth0"));
        Files.createDirectories(outside.resolve("eth1"));
        return outside.toString();
    }

    @Test
    void anOddSpeedOrPeerNameIsUnknownWithANoteAndTheLinkStays() throws Exception {
        tree.load(XD + "/rx_speed = 20 Gb/s\n" + XD + "/device_name = mac\u0007");

        Discovery found = discover();

        Port tb = port(found, "thunderbolt0");
        assertThat(tb.rateGbps()).isEmpty();
        assertThat(tb.thunderbolt().orElseThrow().peerName()).isEmpty();
        assertThat(tb.thunderbolt().orElseThrow().peerDomainUuid()).isEqualTo(FIXTURE_LINK.peerDomainUuid());
        assertThat(found.notes()).anyMatch(n -> n.startsWith("port usb4_rdma4/1: link speed unknown: ")
                && n.contains("is not a lane speed"));
        assertThat(found.notes()).anyMatch(n -> n.contains("peer name unknown: ") && n.contains("is not a host name"));
    }

    @Test
    void aHugeUeventSkipsThatDeviceAloneAndARouterIsNoLink() throws Exception {
        tree.write(at(XD), "uevent", "DEVTYPE=thunderbolt_xdomain\n".repeat(200).strip());
        tree.load(String.join("\n",
                NHI + "/domain0/0-0/0-3/uevent = DEVTYPE=thunderbolt_device",
                NHI + "/domain0/0-0/0-3/unique_id = c0030000-00a2-8508-2219-f4d4d2c1a918",
                "sys/bus/thunderbolt/devices/0-3 -> ../../../devices/pci0000:00/0000:00:0d.2/domain0/0-0/0-3"));

        Discovery found = discover();

        assertThat(found.skipped()).extracting(SkippedPort::port).containsExactly("thunderbolt 0-1");
        assertThat(found.ports()).as("no link: the RDMA device is a port on its GID netdev").extracting(p -> p.port().netdev())
                .containsExactly("ardma0");
    }

    /** A second domain (1) with one good XDomain {@code 1-1} and netdev thunderbolt9, to show a bad one costs only itself. */
    private void secondDomain() {
        String nhi = "sys/devices/pci0000:00/0000:00:0d.3";
        tree.load(nhi + "/domain1/1-0/unique_id = c6030000-0080-7518-2391-a4e51a82e819\n"
                + "sys/bus/thunderbolt/devices/1-0 -> ../../../devices/pci0000:00/0000:00:0d.3/domain1/1-0");
        tree.xdomain(nhi + "/domain1/1-0", "1-1", "7f158861-c131-4d0d-83b6-ca50ef76c32b", "thunderbolt9", "up");
    }
}
