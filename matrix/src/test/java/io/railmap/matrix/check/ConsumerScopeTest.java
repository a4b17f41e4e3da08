package io.railmap.matrix.check;

import static org.assertj.core.api.Assertions.assertThat;

import io.railmap.matrix.Cluster;
import io.railmap.matrix.change.ClusterState;
import io.railmap.matrix.draw.TopologySvg;
import io.railmap.matrix.fabric.RailTable;
import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.finding.Consumer;
import io.railmap.matrix.jaccl.MlxVersion;
import io.railmap.matrix.model.FarEndSource;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.model.PortState;
import io.railmap.matrix.model.Snapshot;
import io.railmap.matrix.model.SwitchPort;
import io.railmap.matrix.model.Thunderbolt;
import io.railmap.matrix.plan.Order;
import io.railmap.matrix.plan.Planner;
import io.railmap.matrix.rail.RailOptions;
import io.railmap.matrix.topology.Topology;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Which findings a view shows ({@link ConsumerScope}) on the lab's switched example (examples/two-leaves.json: g1..g4,
 * NIC eth2 on leaf0, eth3 on leaf1, each leaf a bridge running lldpd, so a NIC's record has the leaf by LLDP and the
 * probe hears every other NIC on the leaf).
 */
class ConsumerScopeTest {
    /** The example's cabling: node → netdev → leaf. */
    private static Map<String, Map<String, String>> twoLeaves() {
        Map<String, Map<String, String>> cabling = new LinkedHashMap<>();
        for (String node : List.of("g1", "g2", "g3", "g4")) {
            cabling.put(node, new LinkedHashMap<>(Map.of("eth2", "leaf0", "eth3", "leaf1")));
        }
        return cabling;
    }

    /** Each NIC (RDMA device rdma_ethK) names its leaf by LLDP and hears, by the probe, every other NIC on that leaf. */
    private static Cluster switched(Map<String, Map<String, String>> cabling) {
        Cluster c = new Cluster();
        cabling.forEach((node, nics) -> nics.forEach((netdev, leaf) -> {
            List<PortRef> heard = new ArrayList<>();
            cabling.forEach((n, others) -> others.forEach((d, l) -> {
                if (!n.equals(node) && l.equals(leaf)) {
                    heard.add(new PortRef(n, d));
                }
            }));
            SwitchPort lldp = new SwitchPort(FarEndSource.LLDP, "52:54:00:00:00:0" + leaf.charAt(4), Optional.of(leaf), "p" + node.charAt(1));
            c.put(new Port(node, netdev, Optional.of("rdma_" + netdev), 1, PortKind.ROCE, Optional.of(100.0), PortState.ACTIVE,
                    Optional.<Thunderbolt>empty(), List.of(), false, Optional.empty(), Optional.of(lldp), Optional.empty(), heard));
        }));
        return c;
    }

    private static List<String> rankFree(Cluster c) {
        Topology t = Topology.of(c.snapshot());
        return CableFindings.of(t, RailTable.of(t)).stream().map(f -> f.severity().externalName() + " " + f.code().externalName()
                + " " + f.ports()).toList();
    }

    @Test
    void aCorrectlyCabledSwitchedFabricHasNoFinding() {
        Snapshot snapshot = switched(twoLeaves()).snapshot();
        Topology t = Topology.of(snapshot);

        assertThat(t.sharedSegments()).hasSize(8);
        assertThat(ConsumerScope.pointToPoint(t, RailTable.of(t))).isFalse();
        assertThat(CableFindings.of(t, RailTable.of(t))).isEmpty();
        assertThat(ConsumerScope.rails(t).findings()).isEmpty();
        assertThat(ConsumerScope.rails(t).rails()).hasSize(2);
        // the event feed's findings and the picture's (the page) are the same rank-free ones
        assertThat(ClusterState.of(snapshot, Set.of(), Optional.empty()).findings()).isEmpty();
        assertThat(TopologySvg.render(t)).doesNotContain("shared-segment").contains("0 findings");
    }

    @Test
    void aNicOnTheWrongLeafIsCrossRailAndNothingElse() {
        Map<String, Map<String, String>> cabling = twoLeaves();
        cabling.get("g4").putAll(Map.of("eth2", "leaf1", "eth3", "leaf0"));

        assertThat(rankFree(switched(cabling))).containsExactly(
                "error cross-rail [g4:eth2]", "error cross-rail [g4:eth3]");
    }

    @Test
    void aJacclMatrixAskedForOverTheSwitchesStillSaysTheyAreNoCables() {
        Topology t = Topology.of(switched(twoLeaves()).snapshot());

        List<Finding> plan = Planner.plan(t, List.of("g1", "g2"), Order.GIVEN, RailOptions.DEFAULTS, MlxVersion.NEWEST).findings();

        assertThat(plan).filteredOn(f -> f.code() == Code.SHARED_SEGMENT).extracting(f -> f.ports().get(0).toString())
                .containsExactly("g1:eth2", "g1:eth3", "g2:eth2", "g2:eth3");
    }

    @Test
    void aMixedClusterKeepsSharedSegmentsWhereJacclApplies() {
        Cluster c = switched(twoLeaves()).cable("g1:en6", "g2:en6");
        Topology t = Topology.of(c.snapshot());

        assertThat(ConsumerScope.pointToPoint(t, RailTable.of(t))).isTrue();
        assertThat(rankFree(c)).filteredOn(s -> s.contains("shared-segment")).hasSize(8).allMatch(s -> s.startsWith("warning"));
    }

    @Test
    void jacclAppliesWhenAskedForOrCabledAndEveryOtherConsumerAlways() {
        Topology t = Topology.of(switched(twoLeaves()).snapshot());
        RailTable rails = RailTable.of(t);

        assertThat(ConsumerScope.applying(t, rails, Set.of())).doesNotContain(Consumer.JACCL).contains(Consumer.MLX_RING, Consumer.NCCL);
        assertThat(ConsumerScope.applying(t, rails, Consumer.JACCL_ONLY)).isEqualTo(Consumer.EVERY);
        assertThat(Code.SHARED_SEGMENT.consumers()).containsExactly(Consumer.JACCL);
        assertThat(Code.CROSS_RAIL.consumers()).doesNotContain(Consumer.JACCL).contains(Consumer.NCCL, Consumer.UCX);
        assertThat(Code.LINK_DOWN.consumers()).containsExactlyInAnyOrder(Consumer.JACCL, Consumer.MLX_RING);
    }
}
