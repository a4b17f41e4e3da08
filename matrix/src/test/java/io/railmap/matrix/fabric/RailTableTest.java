package io.railmap.matrix.fabric;

import static org.assertj.core.api.Assertions.assertThat;

import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.finding.Severity;
import io.railmap.matrix.model.FarEndSource;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.model.PortState;
import io.railmap.matrix.model.Snapshot;
import io.railmap.matrix.model.SwitchPort;
import io.railmap.matrix.topology.Topology;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.Test;

class RailTableTest {
    private static List<Code> codes(RailTable table) {
        return table.findings().stream().map(Finding::code).toList();
    }

    @Test
    void aCleanRailOptimisedFabricHasOneRailPerLeafNumberedByHcaAndNoFindings() {
        RailTable table = Fabric.railOptimised(4, 2).table();

        assertThat(table.rails()).hasSize(2);
        for (int k = 0; k < 2; k++) {
            Rail rail = table.rails().get(k);
            assertThat(rail.id()).isEqualTo(k);
            assertThat(rail.kind()).isEqualTo(Rail.Kind.SWITCH);
            assertThat(rail.name()).isEqualTo("leaf" + k);
            assertThat(rail.hca()).isEqualTo("mlx5_" + k);
            assertThat(rail.nodes()).containsExactly("g1", "g2", "g3", "g4");
            assertThat(rail.nics()).allSatisfy(n -> {
                assertThat(n.placedBy()).isEqualTo("lldp");
                assertThat(n.switchPort()).isPresent();
            });
        }
        assertThat(table.findings()).isEmpty();
    }

    @Test
    void railIdsFollowTheHcaNamesNotTheSwitchIdentities() {
        // leaf9 carries every node's mlx5_0: it is rail 0 although its chassis sorts after leaf1's
        Fabric f = new Fabric();
        for (String node : List.of("g1", "g2", "g3")) {
            f.nic(node, 0, "leaf9").nic(node, 1, "leaf1").nic(node, 10, "leaf2");
        }
        RailTable table = f.table();
        assertThat(table.rails()).extracting(Rail::name).containsExactly("leaf9", "leaf1", "leaf2");
        assertThat(table.rails()).extracting(Rail::hca).containsExactly("mlx5_0", "mlx5_1", "mlx5_10");
    }

    @Test
    void aNodeWhoseTwoNicsAreSwappedBetweenLeavesIsCrossRailOnBothAndTheRailsKeepTheirIds() {
        RailTable table = Fabric.railOptimised(4, 2).move("g1:eth0", "leaf1").move("g1:eth1", "leaf0").table();

        assertThat(table.rails()).extracting(Rail::name).containsExactly("leaf0", "leaf1");
        assertThat(table.findings()).extracting(Finding::code).containsExactly(Code.CROSS_RAIL, Code.CROSS_RAIL);
        assertThat(table.findings()).allSatisfy(f -> assertThat(f.severity()).isEqualTo(Severity.ERROR));
        assertThat(table.findings().get(0).message()).contains("g1:eth0 (mlx5_0) reaches rail 1 (leaf1)",
                "mlx5_0 of 3 other nodes reaches rail 0 (leaf0)", "move g1's mlx5_0 cable to leaf0");
        assertThat(table.findings().get(0).rail()).contains(0);
        assertThat(table.findings().get(1).message()).contains("g1:eth1 (mlx5_1) reaches rail 0 (leaf0)", "rail 1 (leaf1)");
    }

    @Test
    void bothNicsOfANodeOnOneLeafAreCrossRailRailMissingAndTwoNicsOnOneRail() {
        RailTable table = Fabric.railOptimised(4, 2).move("g3:eth1", "leaf0").table();

        assertThat(codes(table)).containsExactlyInAnyOrder(Code.CROSS_RAIL, Code.RAIL_MISSING, Code.TWO_NICS_ONE_RAIL);
        Finding missing = table.findings().stream().filter(f -> f.code() == Code.RAIL_MISSING).findFirst().orElseThrow();
        assertThat(missing.message()).contains("g3 has no active NIC on rail 1 (leaf1), which 3 of 4 nodes reach",
                "its mlx5_1 (g3:eth1) reaches rail 0 (leaf0)");
        assertThat(missing.rail()).contains(1);
        Finding two = table.findings().stream().filter(f -> f.code() == Code.TWO_NICS_ONE_RAIL).findFirst().orElseThrow();
        assertThat(two.message()).startsWith("g3 has 2 NICs on rail 0 (leaf0): mlx5_0 (g3:eth0), mlx5_1 (g3:eth1)");
        assertThat(two.severity()).isEqualTo(Severity.WARNING);
    }

    @Test
    void aDownNicLeavesItsRailMissingAndSaysSo() {
        RailTable table = Fabric.railOptimised(3, 2).change("g2:eth1", p -> p.withState(PortState.DOWN)).table();

        assertThat(codes(table)).containsExactly(Code.RAIL_MISSING);
        assertThat(table.findings().get(0).message()).contains("g2 has no active NIC on rail 1 (leaf1), which 2 of 3 nodes reach",
                "its mlx5_1 (g2:eth1) is down");
    }

    @Test
    void aNicOnASwitchNoOtherNodeReachesIsCrossRailAndNotARail() {
        RailTable table = Fabric.railOptimised(3, 2).move("g2:eth1", "leaf7").table();

        assertThat(table.rails()).extracting(Rail::name).containsExactly("leaf0", "leaf1");
        assertThat(table.strays()).hasSize(1);
        assertThat(codes(table)).containsExactlyInAnyOrder(Code.CROSS_RAIL, Code.RAIL_MISSING);
        assertThat(table.findings()).anySatisfy(f -> assertThat(f.message())
                .contains("g2:eth1 (mlx5_1) reaches leaf7 (no other node reaches it)", "move g2's mlx5_1 cable to leaf1"));
    }

    @Test
    void mixedRatesNameTheNicsNotAtTheUsualRate() {
        RailTable table = Fabric.railOptimised(4, 1)
                .change("g4:eth0", p -> new Port(p.node(), p.netdev(), p.rdma(), p.rdmaPort(), p.kind(), Optional.of(200.0), p.state(),
                        p.thunderbolt(), p.addresses(), p.addressesKnown(), p.bridge(), p.switchPort(), p.neighbours()))
                .table();

        assertThat(codes(table)).containsExactly(Code.MIXED_RATES_ON_RAIL);
        assertThat(table.findings().get(0).message()).contains("most NICs run at 400 Gb/s, but g4:eth0 at 200 Gb/s");
    }

    @Test
    void theManagementNicIsNotAComputeNic() {
        Fabric f = Fabric.railOptimised(3, 1);
        for (String node : List.of("g1", "g2", "g3")) {
            f.management(node, "mgmt0", "192.168.0." + node.charAt(1), "mgmt-switch");
        }
        RailTable table = f.table();
        assertThat(table.rails()).extracting(Rail::name).containsExactly("leaf0");
        assertThat(table.findings()).isEmpty();
    }

    @Test
    void withoutLldpTheProbesSegmentsAreTheRails() {
        // no switch port anywhere: each leaf is a segment the probe hears (every port hears the others on it)
        RailTable table = Fabric.probedSegments(3, 2).table();
        assertThat(table.rails()).extracting(Rail::kind).containsOnly(Rail.Kind.SEGMENT);
        assertThat(table.rails()).extracting(Rail::identity).containsExactly("segment:g1:eth0", "segment:g1:eth1");
        assertThat(table.rails()).extracting(Rail::name).containsExactly("segment of g1:eth0", "segment of g1:eth1");
        assertThat(table.rails().get(0).nics()).allSatisfy(n -> assertThat(n.placedBy()).isEqualTo("probe"));
        assertThat(table.findings()).isEmpty();
    }

    @Test
    void aNicWithoutLldpIsPlacedByTheProbeOnItsSegmentsSwitchAndReportedAsUnknownFarEnd() {
        // g3's lldpd is stopped: its ports name no switch, but the probe hears them with the others on each leaf
        Fabric f = Fabric.railOptimised(3, 2);
        for (int k = 0; k < 2; k++) {
            int kk = k;
            f.change("g3:eth" + k, p -> p.withSwitchPort(Optional.empty())
                    .withNeighbours(List.of(new PortRef("g1", "eth" + kk), new PortRef("g2", "eth" + kk))));
            f.change("g1:eth" + k, p -> p.withNeighbours(List.of(new PortRef("g2", "eth" + kk), new PortRef("g3", "eth" + kk))));
            f.change("g2:eth" + k, p -> p.withNeighbours(List.of(new PortRef("g1", "eth" + kk), new PortRef("g3", "eth" + kk))));
        }
        RailTable table = f.table();

        assertThat(table.rails()).extracting(Rail::name).containsExactly("leaf0", "leaf1");
        assertThat(table.railOf(PortRef.parse("g3:eth1"))).map(Rail::id).contains(1);
        assertThat(codes(table)).containsExactly(Code.UNKNOWN_FAR_END, Code.UNKNOWN_FAR_END);
        assertThat(table.findings().get(0).message()).contains("g3:eth0 (mlx5_0) names no switch", "placed on rail 0 by the probe only",
                "run lldpd on g3 with LLDP on eth0");
    }

    @Test
    void aNicWithNoFarEndAtAllIsUnknownFarEndAndOnNoRail() {
        RailTable table = Fabric.railOptimised(3, 2).change("g2:eth0", p -> p.withSwitchPort(Optional.empty())).table();

        assertThat(table.unplaced()).extracting(Port::ref).containsExactly(PortRef.parse("g2:eth0"));
        assertThat(codes(table)).containsExactlyInAnyOrder(Code.UNKNOWN_FAR_END, Code.RAIL_MISSING);
        assertThat(table.findings()).anySatisfy(f -> assertThat(f.message())
                .contains("g2:eth0 (mlx5_0) is active but railmap knows nothing at its far end", "run lldpd on g2 with LLDP on eth0"));
    }

    // lldpd announces Router when IP forwarding is on (lldpd 1.0.22 src/daemon/lldpd.c lldpd_update_localchassis) and Bridge
    // when the host has any bridge (src/daemon/interfaces.c interfaces_helper_chassis): a GPU node with docker0 is no Station
    // alone, so the LLDP neighbour at the far end of a direct cable looks like a switch (RailTable.switchReached).

    @Test
    void aDirectCableBetweenTwoNodesRunningLldpdIsACableNotAPhantomSwitch() {
        // g1 and g2 cable their mlx5_1 to each other; g3 and g4 to leaf1. lldpd sends the canonical host name (src/daemon/priv.c
        // asroot_gethostname): g2.cluster.example, whose first label is node g2
        Fabric f = new Fabric();
        for (int n = 1; n <= 4; n++) {
            f.nic("g" + n, 0, "leaf0");
        }
        f.nic("g3", 1, "leaf1").nic("g4", 1, "leaf1").directCable("g1:eth1", "g2:eth1", node -> node + ".cluster.example", true);
        RailTable table = f.table();

        assertThat(table.rails()).extracting(Rail::name).containsExactly("leaf0", "leaf1");
        assertThat(table.strays()).isEmpty();
        assertThat(table.unplaced()).extracting(Port::ref).containsExactly(PortRef.parse("g1:eth1"), PortRef.parse("g2:eth1"));
        assertThat(table.findings()).isEmpty();
        assertThat(table.hasErrors()).isFalse();
    }

    @Test
    void anLldpNeighbourNamedLikeANodeIsThatNodeEvenWithoutTheProbe() {
        Fabric f = Fabric.railOptimised(3, 1).directCable("g1:eth1", "g2:eth1", node -> node, false);
        Topology topology = Topology.of(new Snapshot(f.records()));
        RailTable table = RailTable.of(topology);

        assertThat(RailTable.switchReached(topology, topology.port(PortRef.parse("g1:eth1")).orElseThrow())).isEmpty();
        assertThat(table.rails()).extracting(Rail::name).containsExactly("leaf0");
        assertThat(table.unplaced()).extracting(Port::ref).containsExactly(PortRef.parse("g1:eth1"), PortRef.parse("g2:eth1"));
        // the far end is known (LLDP names the node): not unknown-far-end
        assertThat(table.findings()).isEmpty();
    }

    @Test
    void aMeshOfDirectCablesWhoseLldpNamesAreNoNodesIsToldFromSwitchesByTheProbe() {
        // three nodes in a ring of direct cables, lldpd named 10-20-1-N (not their node names): each node's chassis is heard by
        // two others, so taken as switches they would be three rails of two nodes, each missing its third node
        Fabric f = Fabric.railOptimised(3, 2);
        UnaryOperator<String> systemName = node -> "10-20-1-" + node.substring(1);
        f.directCable("g1:eth2", "g2:eth3", systemName, true).directCable("g2:eth2", "g3:eth3", systemName, true)
                .directCable("g3:eth2", "g1:eth3", systemName, true);
        RailTable table = f.table();

        assertThat(table.rails()).extracting(Rail::name).containsExactly("leaf0", "leaf1");
        assertThat(table.strays()).isEmpty();
        assertThat(table.unplaced()).hasSize(6);
        assertThat(table.findings()).isEmpty();
    }

    @Test
    void twoNodesAloneOnARealSwitchStayOnItsRailThoughTheProbeSeesACable() {
        // the switch forwards the probe, so each NIC hears only the other: a confirmed cable, but both hear leaf0's chassis
        Fabric f = Fabric.railOptimised(2, 1)
                .change("g1:eth0", p -> p.withNeighbours(List.of(PortRef.parse("g2:eth0"))))
                .change("g2:eth0", p -> p.withNeighbours(List.of(PortRef.parse("g1:eth0"))));
        Topology topology = Topology.of(new Snapshot(f.records()));
        assertThat(topology.cableAt(PortRef.parse("g1:eth0"))).isPresent();

        RailTable table = RailTable.of(topology);
        assertThat(table.rails()).extracting(Rail::name).containsExactly("leaf0");
        assertThat(table.rails().get(0).nics()).extracting(RailNic::placedBy).containsOnly("lldp");
        assertThat(table.findings()).isEmpty();
    }

    @Test
    void anInfinibandSwitchPortIsTakenAsItIs() {
        // NodeInfo's node type tells a switch from an HCA: a name like a node's does not make it one
        Fabric f = Fabric.railOptimised(2, 1);
        for (String node : List.of("g1", "g2")) {
            f.change(node + ":eth0", p -> p.withSwitchPort(Optional.of(new SwitchPort(FarEndSource.INFINIBAND, "0xe41d2d03004bef70",
                    Optional.of("g1"), "17"))));
        }
        RailTable table = f.table();
        assertThat(table.rails()).extracting(Rail::identity).containsExactly("infiniband:0xe41d2d03004bef70");
    }

    /** How the NICs on one leaf tell what they reach. */
    private enum Placement {
        /** every NIC names the leaf by LLDP */
        LLDP,
        /** no NIC names it (no lldpd anywhere): the probe hears them all on one segment */
        PROBE,
        /** some NICs name it, the others are placed by the probe on the segment they share with them */
        MIXED
    }

    /**
     * Property: every daemon numbers the rails alike, whatever order its records (and their ports and
     * probe neighbours) arrived in, whether the leaves are known by LLDP, by the probe's segments
     * alone, or by a mix of both; and on a cleanly cabled fabric rail k is where every node's k-th HCA
     * goes, whatever the switches' chassis IDs.
     */
    @RepeatedTest(60)
    void railNumberingIsTheSameForShuffledRecords(RepetitionInfo info) {
        Random random = new Random(4211L * info.getCurrentRepetition());
        int nodes = 2 + random.nextInt(10);
        int rails = 1 + random.nextInt(8);
        Fabric f = new Fabric();
        List<String> leaves = new ArrayList<>();
        for (int k = 0; k < rails; k++) {
            leaves.add("leaf" + random.nextInt(200));
        }
        leaves = new ArrayList<>(new LinkedHashSet<>(leaves));
        // the probe makes a segment of three NICs or more; two alone on a leaf hear each other as a cable
        List<Placement> placements = new ArrayList<>();
        for (int k = 0; k < leaves.size(); k++) {
            placements.add(nodes < 3 ? Placement.LLDP : Placement.values()[random.nextInt(Placement.values().length)]);
        }
        boolean clean = random.nextBoolean();
        Map<String, List<PortRef>> onLeaf = new LinkedHashMap<>();
        for (int n = 1; n <= nodes; n++) {
            for (int k = 0; k < leaves.size(); k++) {
                String leaf = clean || random.nextInt(5) > 0 ? leaves.get(k) : leaves.get(random.nextInt(leaves.size()));
                f.nic("g" + n, k, leaf);
                onLeaf.computeIfAbsent(leaf, l -> new ArrayList<>()).add(new PortRef("g" + n, "eth" + k));
            }
        }
        int probePlaced = 0;
        for (int k = 0; k < leaves.size(); k++) {
            Placement placement = placements.get(k);
            List<PortRef> members = onLeaf.getOrDefault(leaves.get(k), List.of());
            for (int i = 0; i < members.size(); i++) {
                PortRef nic = members.get(i);
                List<PortRef> heard = members.stream().filter(m -> !m.equals(nic)).toList();
                // in a mixed leaf the first NIC always names it, so the segment has a switch to take
                boolean named = placement == Placement.LLDP || (placement == Placement.MIXED && (i == 0 || random.nextBoolean()));
                if (placement == Placement.MIXED && !named) {
                    probePlaced++;
                }
                f.change(nic.toString(), p -> (named ? p : p.withSwitchPort(Optional.empty()))
                        .withNeighbours(placement == Placement.LLDP ? List.of() : heard));
            }
        }
        List<NodeRecord> records = f.records();
        RailTable reference = RailTable.of(Topology.of(new Snapshot(records)));

        List<NodeRecord> shuffled = new ArrayList<>();
        for (NodeRecord r : records) {
            List<Port> ports = new ArrayList<>();
            for (Port p : r.ports()) {
                List<PortRef> heard = new ArrayList<>(p.neighbours());
                Collections.shuffle(heard, random);
                ports.add(p.withNeighbours(heard));
            }
            Collections.shuffle(ports, random);
            shuffled.add(new NodeRecord(r.node(), r.version(), ports, r.management(), r.rdmaEnabled()));
        }
        Collections.shuffle(shuffled, random);
        RailTable again = RailTable.of(Topology.of(new Snapshot(shuffled)));

        assertThat(again.rails()).isEqualTo(reference.rails());
        assertThat(again.strays()).isEqualTo(reference.strays());
        assertThat(again.findings()).isEqualTo(reference.findings());
        if (clean) {
            assertThat(reference.rails()).hasSize(leaves.size());
            for (int k = 0; k < leaves.size(); k++) {
                Rail rail = reference.rails().get(k);
                assertThat(rail.hca()).isEqualTo("mlx5_" + k);
                if (placements.get(k) == Placement.PROBE) {
                    assertThat(rail.kind()).isEqualTo(Rail.Kind.SEGMENT);
                } else {
                    assertThat(rail.name()).isEqualTo(leaves.get(k));
                }
            }
            // a NIC the probe alone puts on a switch's rail is reported so; nothing else is wrong
            assertThat(codes(reference)).hasSize(probePlaced).allMatch(c -> c == Code.UNKNOWN_FAR_END);
        }
    }
}
