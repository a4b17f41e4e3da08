package io.railmap.matrix.rail;

import io.railmap.matrix.jaccl.JacclRules;
import io.railmap.matrix.jaccl.MlxVersion;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.railmap.matrix.Cluster;
import io.railmap.matrix.model.PortState;
import io.railmap.matrix.topology.Topology;
import java.util.List;
import org.junit.jupiter.api.Test;

class RailAlignerTest {

    private static DeviceMatrix align(Cluster cluster, List<String> ranks, RailOptions options) {
        return RailAligner.align(Topology.of(cluster.snapshot()), ranks, options);
    }

    @Test
    void crossedCablesGiveRailsThatAreTheSameCableOnBothEnds() {
        // A:en6–B:en7 and A:en7–B:en6: index k must name the two ends of one cable.
        DeviceMatrix m = align(new Cluster().cable("a:en6", "b:en7").cable("a:en7", "b:en6"), List.of("a", "b"),
                RailOptions.DEFAULTS);

        assertThat(m.devices().get(0).get(1)).containsExactly("rdma_en6", "rdma_en7");
        assertThat(m.devices().get(1).get(0)).containsExactly("rdma_en7", "rdma_en6");
        assertThat(m.ring()).isTrue();
        assertThat(JacclRules.isValidRing(m.devices(), MlxVersion.NEWEST)).isTrue();
    }

    @Test
    void theOrderCablesWereReportedInChangesNothing() {
        Cluster oneWay = new Cluster().cable("a:en6", "b:en7").cable("a:en7", "b:en6");
        Cluster otherWay = new Cluster().cable("b:en6", "a:en7").cable("b:en7", "a:en6");

        assertThat(align(otherWay, List.of("a", "b"), RailOptions.DEFAULTS).devices())
                .isEqualTo(align(oneWay, List.of("a", "b"), RailOptions.DEFAULTS).devices());
        assertThat(align(otherWay, List.of("b", "a"), RailOptions.DEFAULTS).devices().get(0).get(1))
                .containsExactly("rdma_en7", "rdma_en6");
    }

    @Test
    void aSingleCableStaysASingleWireAndNoRing() {
        DeviceMatrix m = align(new Cluster().cable("a:en2", "b:en3"), List.of("a", "b"), RailOptions.DEFAULTS);

        assertThat(m.devices()).isEqualTo(List.of(
                List.of(List.of(), List.of("rdma_en2")),
                List.of(List.of("rdma_en3"), List.of())));
        assertThat(m.ring()).isFalse();
        assertThat(JacclRules.isValidMesh(m.devices(), MlxVersion.NEWEST)).isTrue();
    }

    @Test
    void threeNodeMeshWithOneDoubledPair() {
        DeviceMatrix m = align(new Cluster().cable("a:p1", "b:p1").cable("a:p2", "b:p2").cable("b:p3", "c:p3")
                .cable("a:p3", "c:p1"), List.of("a", "b", "c"), RailOptions.DEFAULTS.withEqualRingWires(false));

        assertThat(m.wires(0, 1)).isEqualTo(2);
        assertThat(m.wires(1, 2)).isEqualTo(1);
        assertThat(m.wires(0, 2)).isEqualTo(1);
        assertThat(m.ring()).isTrue();
        assertThat(JacclRules.isValidMesh(m.devices(), MlxVersion.NEWEST)).isTrue();
        assertThat(JacclRules.isValidRing(m.devices(), MlxVersion.NEWEST)).isFalse();
    }

    @Test
    void ringEdgesAreTrimmedToEqualCountsWhenAsked() {
        Cluster c = new Cluster().cable("a:p1", "b:p1").cable("a:p2", "b:p2").cable("b:p3", "c:p3").cable("a:p3", "c:p1");
        DeviceMatrix m = align(c, List.of("a", "b", "c"), RailOptions.DEFAULTS);

        assertThat(m.wires(0, 1)).isEqualTo(1);
        assertThat(JacclRules.isValidRing(m.devices(), MlxVersion.NEWEST)).isTrue();
        assertThat(m.ring()).isFalse();
        assertThat(m.leftOut()).singleElement().satisfies(l -> assertThat(l.reason()).contains("trimmed to 1"));
    }

    @Test
    void ringTrimmingCapsAtFourWires() {
        Cluster c = new Cluster();
        for (int k = 0; k < 6; k++) {
            c.cable("a:p" + k, "b:p" + k);
        }
        assertThat(align(c, List.of("a", "b"), RailOptions.DEFAULTS).wires(0, 1)).isEqualTo(JacclRules.RING_MAX_CONNS);
        assertThat(align(c, List.of("a", "b"), RailOptions.DEFAULTS.withEqualRingWires(false)).wires(0, 1)).isEqualTo(6);
    }

    @Test
    void unequalCountsAroundARingAreLeftAloneWithoutTrimming() {
        Cluster c = new Cluster().cable("a:p1", "b:p1").cable("a:p2", "b:p2").cable("b:p3", "c:p3").cable("c:p4", "a:p4");
        DeviceMatrix m = align(c, List.of("a", "b", "c"), RailOptions.DEFAULTS.withEqualRingWires(false));
        assertThat(JacclRules.isValidRing(m.devices(), MlxVersion.NEWEST)).isFalse();
        assertThat(m.ring()).isTrue();
    }

    @Test
    void rateFilterDropsSlowAndUnknownCablesAndWireZeroIsTheFastest() {
        Cluster c = new Cluster().cable("a:tb4", "b:tb4", 40.0, PortState.ACTIVE).cable("a:tb5", "b:tb5", 80.0, PortState.ACTIVE);
        DeviceMatrix all = align(c, List.of("a", "b"), RailOptions.DEFAULTS);
        assertThat(all.devices().get(0).get(1)).containsExactly("rdma_tb5", "rdma_tb4");

        DeviceMatrix fast = align(c, List.of("a", "b"), RailOptions.DEFAULTS.withMinRateGbps(80));
        assertThat(fast.devices().get(0).get(1)).containsExactly("rdma_tb5");
        assertThat(fast.leftOut()).singleElement().satisfies(l -> assertThat(l.reason()).contains("40 Gb/s is below the minimum 80 Gb/s"));
    }

    @Test
    void downCablesAreLeftOutUnlessAsked() {
        Cluster c = new Cluster().cable("a:p1", "b:p1").cable("a:p2", "b:p2", 100.0, PortState.DOWN);
        assertThat(align(c, List.of("a", "b"), RailOptions.DEFAULTS).wires(0, 1)).isEqualTo(1);
        assertThat(align(c, List.of("a", "b"), RailOptions.DEFAULTS.withActiveOnly(false)).wires(0, 1)).isEqualTo(2);
    }

    @Test
    void maxWiresKeepsTheFastest() {
        Cluster c = new Cluster().cable("a:p1", "b:p1", 100.0, PortState.ACTIVE).cable("a:p2", "b:p2", 200.0, PortState.ACTIVE)
                .cable("a:p3", "b:p3", 400.0, PortState.ACTIVE);
        DeviceMatrix m = align(c, List.of("a", "b"), RailOptions.DEFAULTS.withMaxWires(2));
        assertThat(m.devices().get(0).get(1)).containsExactly("rdma_p3", "rdma_p2");
    }

    @Test
    void aOneSidedObservationStaysOutOfTheMatrix() {
        DeviceMatrix m = align(new Cluster().cable("a:p1", "b:p1").oneSided("a:p2", "b:p2"), List.of("a", "b"), RailOptions.DEFAULTS);
        assertThat(m.devices().get(0).get(1)).containsExactly("rdma_p1");
    }

    @Test
    void aCableWithAnEndWithoutRdmaIsNoRail() {
        // jaccl opens devices by RDMA name only: a netdev name in a cell fails at init
        Cluster c = new Cluster().cable("a:en2", "b:en2").plainCable("a:eth1", "b:eth1");
        DeviceMatrix m = align(c, List.of("a", "b"), RailOptions.DEFAULTS);
        assertThat(m.devices().get(0).get(1)).containsExactly("rdma_en2");
        assertThat(m.leftOut()).singleElement().satisfies(l -> {
            assertThat(l.notRdma()).isTrue();
            assertThat(l.reason()).contains("a:eth1 has no RDMA device");
        });
    }


    @Test
    void badRankListsAreRefusedWithTheirNames() {
        Cluster c = new Cluster().cable("a:p1", "b:p1");
        assertThatThrownBy(() -> align(c, List.of("a", "x", "y"), RailOptions.DEFAULTS))
                .isInstanceOf(UnknownNodesException.class)
                .hasMessage("no record for nodes x, y (known: a, b)");
        assertThatThrownBy(() -> align(c, List.of("a", "a"), RailOptions.DEFAULTS)).hasMessageContaining("named twice");
        assertThatThrownBy(() -> align(c, List.of(), RailOptions.DEFAULTS)).hasMessageContaining("no ranks");
    }

    @Test
    void optionsRejectNonsense() {
        assertThatThrownBy(() -> RailOptions.DEFAULTS.withMinRateGbps(Double.NaN)).hasMessageContaining("finite number");
        assertThatThrownBy(() -> RailOptions.DEFAULTS.withMinRateGbps(Double.POSITIVE_INFINITY)).hasMessageContaining("finite number");
        assertThatThrownBy(() -> RailOptions.DEFAULTS.withMinRateGbps(-1)).hasMessageContaining("at least 0");
        assertThatThrownBy(() -> RailOptions.DEFAULTS.withMaxWires(0)).hasMessageContaining("at least 1");
    }
}
