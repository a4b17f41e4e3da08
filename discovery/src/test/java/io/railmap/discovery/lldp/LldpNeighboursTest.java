package io.railmap.discovery.lldp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.railmap.discovery.model.SwitchPorts;
import io.railmap.matrix.fabric.RailTable;
import io.railmap.matrix.model.FarEndSource;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.PortState;
import io.railmap.matrix.model.Snapshot;
import io.railmap.matrix.model.SwitchPort;
import io.railmap.matrix.topology.Topology;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** lldpd's json0 neighbour tables, real ones ({@code fixtures/lldp}, provenance in the README there) and broken ones. */
class LldpNeighboursTest {
    private static final String SOURCE = "lldpcli /run/lldpd.socket";
    private static final ObjectMapper JSON = new ObjectMapper();

    private static SwitchPorts parse(String fixture) {
        return LldpNeighbours.parse(SOURCE, fixture("lldp/" + fixture));
    }

    @Test
    void railOptimisedNodeOnFourSonicLeavesReadsEveryChassisNameAndPort() {
        SwitchPorts read = parse("unifabric_json0_sonic_leaves.json");

        assertThat(read.byNetdev()).hasSize(5);
        assertThat(read.of("ens108np0")).contains(new SwitchPort(FarEndSource.LLDP, "70:06:92:6e:33:18", Optional.of("LEAF01"), "Ethernet184"));
        assertThat(read.of("ens110np0")).contains(new SwitchPort(FarEndSource.LLDP, "70:06:92:6e:34:80", Optional.of("LEAF02"), "Ethernet184"));
        assertThat(read.of("ens841np0")).contains(new SwitchPort(FarEndSource.LLDP, "70:06:92:6e:32:1c", Optional.of("LEAF03"), "Ethernet184"));
        assertThat(read.of("ens842np0")).contains(new SwitchPort(FarEndSource.LLDP, "70:06:92:6e:34:5c", Optional.of("LEAF04"), "Ethernet184"));
        assertThat(read.of("ens1np0")).contains(new SwitchPort(FarEndSource.LLDP, "70:06:92:6e:32:64", Optional.of("StorageSW"), "Ethernet120"));
        assertThat(read.notes()).isEmpty();
    }

    @Test
    void portIdOfTypeIfnameOrMacIsTakenAsPrinted() {
        // 10-20-1-50 is a Linux host running lldpd with Bridge and Router enabled: the parser passes it on as lldpd heard it,
        // and the rail table decides whether it is a node (see theRailTableTakesTheLinuxHostForANodeOfTheRecords)
        SwitchPorts read = parse("unifabric_json0_h3c_and_hosts.json");

        assertThat(read.of("enp129s0f0")).contains(new SwitchPort(FarEndSource.LLDP, "58:c7:ac:5f:2d:2c",
                Optional.of("DaoCloud_ShangPu_H3C_D01_AccessSwitch"), "GigabitEthernet1/0/17"));
        assertThat(read.of("enp5s0f0np0")).contains(new SwitchPort(FarEndSource.LLDP, "ac:1f:6b:25:86:64", Optional.of("10-20-1-50"),
                "e8:eb:d3:93:ae:10"));
        assertThat(read.of("enp11s0f0np0").map(SwitchPort::port)).contains("b8:3f:d2:9f:09:42");
    }

    /**
     * lldpd turns Bridge on when the host has a bridge (lldpd 1.0.22 {@code src/daemon/interfaces.c}
     * {@code interfaces_helper_chassis}) and Router when IP forwarding is on ({@code src/daemon/lldpd.c}
     * {@code lldpd_update_localchassis}), as on 10-20-1-50: read as lldpd prints it, it is a node of
     * the records and not a switch once the rail table ({@code RailTable.switchReached}) sees that node.
     */
    @Test
    void theRailTableTakesTheLinuxHostForANodeOfTheRecords() {
        SwitchPorts read = parse("unifabric_json0_h3c_and_hosts.json");
        List<Port> ports = new ArrayList<>();
        for (String netdev : List.of("enp129s0f0", "enp5s0f0np0")) {
            ports.add(new Port("local", netdev, Optional.of("mlx5_" + ports.size()), 1, PortKind.ROCE, Optional.of(100.0),
                    PortState.ACTIVE, Optional.empty(), List.of(), true, Optional.empty(), read.of(netdev), List.of()));
        }
        Snapshot snapshot = new Snapshot(List.of(new NodeRecord("local", 1, ports), new NodeRecord("10-20-1-50", 1, List.of())));
        Topology topology = Topology.of(snapshot);

        assertThat(RailTable.switchReached(topology, ports.get(0)).map(SwitchPort::switchName)).contains("DaoCloud_ShangPu_H3C_D01_AccessSwitch");
        assertThat(RailTable.switchReached(topology, ports.get(1))).isEmpty();
        assertThat(RailTable.switchReached(Topology.of(new Snapshot(List.of(new NodeRecord("local", 1, ports)))), ports.get(1)))
                .as("without that node in the records, and no probe, nothing tells it from a switch").isPresent();
    }

    @Test
    void anInterfaceHearingTwoNeighboursGetsNoSwitchPortAndOneNote() {
        SwitchPorts read = parse("lldpd_1.0.16_json0_cable_and_hub.json");

        assertThat(read.of("ha")).isEmpty();
        assertThat(read.notes()).containsExactly("interface \"ha\" hears 2 LLDP neighbours (a hub, or a bridge that forwards LLDP): no switch port for it");
    }

    @Test
    void aStationOnlyNeighbourGivesNoSwitchPortAndAnyOtherIsPassedOn() throws Exception {
        // veth-a0's neighbour is lldpd on a host without a bridge: Bridge, Router, Wlan off, Station on
        assertThat(parse("lldpd_1.0.16_json0_cable_and_hub.json").of("veth-a0")).isEmpty();

        ObjectNode root = (ObjectNode) JSON.readTree(fixture("lldp/lldpd_1.0.16_json0_cable_and_hub.json"));
        ArrayNode capabilities = (ArrayNode) neighbour(root, "veth-a0").path("chassis").path(0).path("capability");
        ((ObjectNode) capabilities.get(0)).put("enabled", true);
        assertThat(LldpNeighbours.parse(SOURCE, root.toString()).of("veth-a0"))
                .contains(new SwitchPort(FarEndSource.LLDP, "06:6d:20:9c:21:79", Optional.of("leaf-b"), "06:6d:20:9c:21:79"));
        ((ObjectNode) neighbour(root, "veth-a0").path("chassis").path(0)).remove("capability");
        assertThat(LldpNeighbours.parse(SOURCE, root.toString()).of("veth-a0")).isPresent();
    }

    @Test
    void aNeighbourWithoutSystemNameKeepsChassisAndPort() throws Exception {
        ObjectNode root = (ObjectNode) JSON.readTree(fixture("lldp/unifabric_json0_sonic_leaves.json"));
        ObjectNode leaf01 = neighbour(root, "ens108np0");
        ((ObjectNode) leaf01.path("chassis").path(0)).remove("name");

        SwitchPorts read = LldpNeighbours.parse(SOURCE, root.toString());

        assertThat(read.of("ens108np0")).contains(new SwitchPort(FarEndSource.LLDP, "70:06:92:6e:33:18", Optional.empty(), "Ethernet184"));
        assertThat(read.of("ens108np0").orElseThrow().switchName()).isEqualTo("70:06:92:6e:33:18");
        assertThat(read.notes()).isEmpty();
    }

    @Test
    void aBadNeighbourIsSkippedWithANoteAndTheOthersAreKept() throws Exception {
        ObjectNode root = (ObjectNode) JSON.readTree(fixture("lldp/unifabric_json0_sonic_leaves.json"));
        ((ObjectNode) neighbour(root, "ens108np0").path("port").path(0)).remove("id");
        ((ObjectNode) neighbour(root, "ens110np0").path("chassis").path(0).path("id").path(0)).put("value", "x".repeat(300));
        ((ObjectNode) neighbour(root, "ens841np0").path("chassis").path(0).path("name").path(0)).put("value", "leaf\u0007bell");
        ((ObjectNode) neighbour(root, "ens842np0").path("chassis").path(0)).put("id", "not an array");

        SwitchPorts read = LldpNeighbours.parse(SOURCE, root.toString());

        assertThat(read.byNetdev()).containsOnlyKeys("ens1np0");
        assertThat(read.notes()).hasSize(4);
        assertThat(read.notes().get(0)).startsWith(SOURCE + ": neighbour 2 on \"ens841np0\": switch name ")
                .endsWith("; skipped");
        assertThat(read.notes()).anySatisfy(n -> assertThat(n).contains("\"ens108np0\": no port ID; skipped"));
        assertThat(read.notes()).anySatisfy(n -> assertThat(n).contains("\"ens110np0\": switch chassis").contains("300 bytes of UTF-8, over 255"));
        assertThat(read.notes()).anySatisfy(n -> assertThat(n).contains("\"ens842np0\": chassis ID is not [{\"value\": text}]"));
    }

    @Test
    void anEmptyTableAsLldpdPrintsItHasNoSwitchPorts() {
        SwitchPorts read = LldpNeighbours.parse(SOURCE, "{\n  \"lldp\": [\n    {\n      \n    }\n  ]\n}\n");

        assertThat(read.byNetdev()).isEmpty();
        assertThat(read.notes()).isEmpty();
    }

    @Test
    void neighboursLearntByAnotherProtocolAreLeftOut() throws Exception {
        ObjectNode root = (ObjectNode) JSON.readTree(fixture("lldp/unifabric_json0_sonic_leaves.json"));
        neighbour(root, "ens108np0").put("via", "CDPv2");

        assertThat(LldpNeighbours.parse(SOURCE, root.toString()).byNetdev()).hasSize(4).doesNotContainKey("ens108np0");
    }

    @Test
    void theOldJsonFormatOrNoJsonAtAllIsRejectedNamingTheSource() {
        assertThatThrownBy(() -> LldpNeighbours.parse(SOURCE, "{\"lldp\": {\"interface\": {\"eth0\": {}}}}"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(SOURCE + ": not lldpcli's json0 neighbour table (no \"lldp\" array): is lldpcli older than 0.9.8, or run without -f json0?");
        assertThatThrownBy(() -> LldpNeighbours.parse(SOURCE, "unable to connect to socket"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith(SOURCE + ": not JSON (");
        assertThatThrownBy(() -> LldpNeighbours.parse(SOURCE, ""))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith(SOURCE + ": not lldpcli's json0");
    }

    @Test
    @Timeout(30)
    void deepNestingAndHugeStringsAreRejectedQuickly() {
        String deep = "{\"lldp\": " + "[".repeat(100_000) + "]".repeat(100_000) + "}";
        assertThatThrownBy(() -> LldpNeighbours.parse(SOURCE, deep)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not JSON");
        String huge = "{\"lldp\": [{\"interface\": [{\"name\": \"" + "a".repeat(1 << 20) + "\"}]}]}";
        assertThatThrownBy(() -> LldpNeighbours.parse(SOURCE, huge)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not JSON");
    }

    @Test
    void moreNeighboursThanTheBoundAreLeftOutWithOneNote() throws Exception {
        ObjectNode root = (ObjectNode) JSON.readTree(fixture("lldp/unifabric_json0_sonic_leaves.json"));
        ArrayNode interfaces = (ArrayNode) root.path("lldp").path(0).path("interface");
        ObjectNode template = (ObjectNode) interfaces.get(0);
        interfaces.removeAll();
        for (int i = 0; i < LldpNeighbours.MAX_NEIGHBOURS + 10; i++) {
            interfaces.add(template.deepCopy().put("name", "eth" + i));
        }

        SwitchPorts read = LldpNeighbours.parse(SOURCE, root.toString());

        assertThat(read.byNetdev()).hasSize(LldpNeighbours.MAX_NEIGHBOURS).doesNotContainKey("eth" + LldpNeighbours.MAX_NEIGHBOURS);
        assertThat(read.notes()).containsExactly(SOURCE + ": " + (LldpNeighbours.MAX_NEIGHBOURS + 10) + " neighbours, more than "
                + LldpNeighbours.MAX_NEIGHBOURS + " are read; the last 10 left out");
    }

    @Test
    void theNoteOnNeighboursLeftOutSurvivesTheCapOnNotes() throws Exception {
        ObjectNode root = (ObjectNode) JSON.readTree(fixture("lldp/unifabric_json0_sonic_leaves.json"));
        ArrayNode interfaces = (ArrayNode) root.path("lldp").path(0).path("interface");
        ObjectNode template = (ObjectNode) interfaces.get(0);
        interfaces.removeAll();
        for (int i = 0; i < LldpNeighbours.MAX_NEIGHBOURS + 10; i++) {
            ObjectNode bad = template.deepCopy().put("name", "eth" + i);
            bad.remove("port");
            interfaces.add(bad);
        }

        SwitchPorts read = LldpNeighbours.parse(SOURCE, root.toString());

        assertThat(read.byNetdev()).isEmpty();
        assertThat(read.notes()).hasSize(SwitchPorts.MAX_NOTES)
                .startsWith(SOURCE + ": " + (LldpNeighbours.MAX_NEIGHBOURS + 10) + " neighbours, more than "
                        + LldpNeighbours.MAX_NEIGHBOURS + " are read; the last 10 left out");
    }

    /** Every cut of a real table, and random bytes spliced in, give a reading or an IllegalArgumentException, quickly. */
    @RepeatedTest(20)
    void truncatedOrCorruptedTablesNeverThrowAnythingElseNorHang(RepetitionInfo repetition) {
        String real = fixture("lldp/unifabric_json0_h3c_and_hosts.json");
        Random random = new Random(0x11dd + repetition.getCurrentRepetition());
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        for (int i = 0; i < 200 && System.nanoTime() < deadline; i++) {
            StringBuilder text = new StringBuilder(real.substring(0, random.nextInt(real.length() + 1)));
            if (random.nextBoolean() && text.length() > 0) {
                text.insert(random.nextInt(text.length()), (char) random.nextInt(0x80));
            }
            try {
                SwitchPorts read = LldpNeighbours.parse(SOURCE, text.toString());
                assertThat(read.notes().size()).isLessThanOrEqualTo(SwitchPorts.MAX_NOTES);
            } catch (IllegalArgumentException expected) {
                assertThat(expected.getMessage()).startsWith(SOURCE + ": ").doesNotContain("\n");
            }
        }
    }

    /** @param path relative to {@code fixtures/} */
    static String fixture(String path) {
        try (InputStream in = LldpNeighboursTest.class.getResourceAsStream("/fixtures/" + path)) {
            if (in == null) {
                throw new IllegalArgumentException("no fixture " + path);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static ObjectNode neighbour(ObjectNode root, String name) {
        for (var entry : root.path("lldp").path(0).path("interface")) {
            if (entry.path("name").asText().equals(name)) {
                return (ObjectNode) entry;
            }
        }
        throw new AssertionError("no neighbour on " + name);
    }
}
