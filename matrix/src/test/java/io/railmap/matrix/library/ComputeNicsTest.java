package io.railmap.matrix.library;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.railmap.matrix.Cluster;
import io.railmap.matrix.fabric.RailTable;
import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.model.FarEndSource;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.PortState;
import io.railmap.matrix.model.SwitchPort;
import io.railmap.matrix.rail.UnknownNodesException;
import io.railmap.matrix.topology.Topology;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ComputeNicsTest {
    private static NodeNics nics(Cluster cluster, String node, SettingsOptions options) {
        Topology topology = Topology.of(cluster.snapshot());
        return ComputeNics.of(topology, RailTable.of(topology), node, options);
    }

    /** a and b joined by two crossed 400 Gb/s cables and a 25 Gb/s side cable. */
    private static Cluster crossedWithASideCable() {
        return new Cluster().cable("a:en1", "b:en2", 400, PortState.ACTIVE).cable("a:en2", "b:en1", 400, PortState.ACTIVE)
                .cable("a:en9", "b:en9", 25, PortState.ACTIVE);
    }

    @Test
    void theFastestRateClassIsComputeAndASlowerSideNicIsLeftOutWithANote() {
        NodeNics a = nics(crossedWithASideCable(), "a", SettingsOptions.DEFAULTS);

        assertThat(a.nics()).extracting(ComputeNic::hca).containsExactly("rdma_en1", "rdma_en2");
        assertThat(a.findings()).singleElement().satisfies(f -> {
            assertThat(f.code()).isEqualTo(Code.CABLE_LEFT_OUT);
            assertThat(f.message()).contains("a:en9 (rdma_en9) is no compute NIC: 25 Gb/s, below 400 Gb/s, the fastest on a");
        });
    }

    @Test
    void aMinimumRateTakesSlowerNicsIn() {
        NodeNics a = nics(crossedWithASideCable(), "a", new SettingsOptions(Optional.of(25.0), false));

        assertThat(a.nics()).extracting(ComputeNic::hca).containsExactly("rdma_en1", "rdma_en2", "rdma_en9");
        assertThat(a.findings()).isEmpty();
    }

    /** jaccl's ring takes at most 4 wires per edge (JacclRules.RING_MAX_CONNS); NCCL and UCX have no such limit, so six cables are six rails. */
    @Test
    void sixCablesBetweenTwoNodesAreSixRailsNotJacclsFour() {
        Cluster cluster = new Cluster();
        for (int k = 0; k < 6; k++) {
            cluster.cable("a:en" + k, "b:en" + (5 - k), 400, PortState.ACTIVE);
        }
        NodeNics a = nics(cluster, "a", SettingsOptions.DEFAULTS);
        NodeNics b = nics(cluster, "b", SettingsOptions.DEFAULTS);

        assertThat(a.nics()).hasSize(6).allSatisfy(nic -> assertThat(nic.rail()).isPresent());
        for (int k = 0; k < 6; k++) {
            assertThat(rail(a, "rdma_en" + k)).as("a:en%d", k).isEqualTo(rail(b, "rdma_en" + (5 - k)));
        }
        assertThat(a.nics()).extracting(ComputeNic::rail).doesNotHaveDuplicates();
    }

    @Test
    void bothEndsOfADirectCableCarryTheSameRailId() {
        Cluster cluster = crossedWithASideCable();
        NodeNics a = nics(cluster, "a", SettingsOptions.DEFAULTS);
        NodeNics b = nics(cluster, "b", SettingsOptions.DEFAULTS);

        // a:en1 is cabled to b:en2, a:en2 to b:en1
        assertThat(rail(a, "rdma_en1")).isEqualTo(rail(b, "rdma_en2")).isPresent();
        assertThat(rail(a, "rdma_en2")).isEqualTo(rail(b, "rdma_en1")).isPresent();
        assertThat(rail(a, "rdma_en1")).isNotEqualTo(rail(a, "rdma_en2"));
    }

    /**
     * a and b each have a NIC on leaf0 (rail 0) and a direct cable to each other. NVIDIA/nccl src/graph/search.cc,
     * ncclTopoSearchCheckNet: with NCCL_CROSS_NIC=0 a channel may leave by any NIC of the rail id it entered by, so
     * the cable numbered from 0 too would join leaf0 and the cable. Its id comes after the switched rails.
     */
    @Test
    void aDirectCableOnANodeWithALeafIsNumberedAfterTheSwitchedRails() {
        Cluster cluster = new Cluster().cable("a:en1", "b:en1", 400, PortState.ACTIVE);
        for (String n : List.of("a", "b")) {
            cluster.put(new Port(n, "en0", Optional.of("rdma_en0"), 1, PortKind.ROCE, Optional.of(400.0), PortState.ACTIVE, Optional.empty(),
                    List.of(), false, Optional.empty(), Optional.of(new SwitchPort(FarEndSource.LLDP, "52:54:00:00:00:00", Optional.of("leaf0"),
                    n + "-0")), Optional.empty(), List.of()));
        }
        NodeNics a = nics(cluster, "a", SettingsOptions.DEFAULTS);
        NodeNics b = nics(cluster, "b", SettingsOptions.DEFAULTS);

        assertThat(rail(a, "rdma_en0")).contains(0);
        assertThat(rail(a, "rdma_en1")).contains(1).isEqualTo(rail(b, "rdma_en1"));
        assertThat(rail(b, "rdma_en0")).contains(0);
    }

    @Test
    void aDownPortIsNoComputeNicAndANodeWithoutOneIsAnError() {
        NodeNics a = nics(new Cluster().cable("a:en1", "b:en1", 400, PortState.DOWN), "a", SettingsOptions.DEFAULTS);

        assertThat(a.nics()).isEmpty();
        assertThat(a.findings()).extracting(Finding::code).containsExactly(Code.NO_RDMA_DEVICE);
        assertThat(a.findings().get(0).isError()).isTrue();
    }

    @Test
    void anUnknownNodeIsRefused() {
        assertThatThrownBy(() -> nics(crossedWithASideCable(), "zz", SettingsOptions.DEFAULTS))
                .isInstanceOf(UnknownNodesException.class);
    }

    @Test
    void aBadMinimumRateIsRefused() {
        for (double bad : new double[] {Double.NaN, -1, Double.POSITIVE_INFINITY}) {
            assertThatThrownBy(() -> new SettingsOptions(Optional.of(bad), false)).isInstanceOf(IllegalArgumentException.class);
        }
    }

    private static Optional<Integer> rail(NodeNics nics, String hca) {
        return nics.nics().stream().filter(n -> n.hca().equals(hca)).findFirst().orElseThrow().rail();
    }
}
