package io.railmap.matrix.library;

import static org.assertj.core.api.Assertions.assertThat;

import io.railmap.matrix.fabric.RailTable;
import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.finding.Severity;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Snapshot;
import io.railmap.matrix.topology.Topology;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** jaccl's settings for one node: {@code railmap matrix --format env}'s lines for the node's rank (see {@link JacclLibrary}). */
class JacclLibraryTest {
    private static final JacclLibrary LIBRARY = new JacclLibrary();

    private static List<String> lines(NodeSettings s) {
        return s.settings().stream().map(Setting::toString).toList();
    }

    @Test
    void aRingOfThreeMacsGivesEachNodeItsSortedIndexAsRankAndTheRingVariables() {
        // sorted order a, b, c is a ring here; two wires per edge make jaccl's ring the choice (Planner.plan)
        RingCables t = new RingCables("c", "a", "b");
        int k = 0;
        for (String[] edge : new String[][] {{"a", "b"}, {"b", "c"}, {"c", "a"}}) {
            for (int w = 0; w < 2; w++, k++) {
                t.cable(edge[0], "169.254." + k + ".1", edge[1], "169.254." + k + ".2");
            }
        }
        NodeSettings b = t.settings(LIBRARY, "b");

        // RingCables gives management addresses 10.0.0.1, .2, .3 in the order the nodes were named: a is 10.0.0.2
        assertThat(lines(b)).filteredOn(l -> !l.startsWith("RAILMAP_")).containsExactly("MLX_IBV_DEVICES=/etc/railmap/devices.json",
                "MLX_RANK=1", "MLX_JACCL_COORDINATOR=10.0.0.2:32323", "MLX_JACCL_RING=1", "JACCL_IBV_DEVICES=/etc/railmap/devices.json",
                "JACCL_RANK=1", "JACCL_COORDINATOR=10.0.0.2:32323", "JACCL_RING=1");
        assertThat(b.findings()).noneMatch(Finding::isError);
    }

    @Test
    void theEnvOfANodeWhoseDevicesTakeTooFewQueuePairsSaysSoWithTheDevicesOwnNumber() {
        // two Macs, two cables: railmap runs the ring (two wires), and ring.cpp RingGroup::initialize opens each
        // device of the one neighbour cell twice (left and right are the same rank), so each takes 2 queue pairs
        RingCables t = new RingCables("a", "b").cable("a", "169.254.0.1", "b", "169.254.0.2").cable("a", "169.254.1.1", "b", "169.254.1.2")
                .limits("a", io.railmap.matrix.model.RdmaLimits.of(2, null, null, null));
        assertThat(t.settings(LIBRARY, "a").findings()).filteredOn(f -> f.code() == io.railmap.matrix.finding.Code.TOO_MANY_QUEUE_PAIRS)
                .hasSize(2).allSatisfy(f -> assertThat(f.message()).contains("for 2 queue pairs (ring)", "at most 1", "max_qp 2"));
        t.limits("a", io.railmap.matrix.model.RdmaLimits.of(3, null, null, null));
        assertThat(t.settings(LIBRARY, "a").findings()).noneMatch(f -> f.code() == io.railmap.matrix.finding.Code.TOO_MANY_QUEUE_PAIRS);
    }

    @Test
    void aMeshWritesNoRingVariableAndSaysToUnsetThem() {
        // jaccl turns the ring on when MLX_JACCL_RING or JACCL_RING exists at all, whatever its value
        RingCables t = new RingCables("a", "b").cable("a", "169.254.0.1", "b", "169.254.0.2");
        NodeSettings a = t.settings(LIBRARY, "a");

        assertThat(lines(a)).noneMatch(l -> l.contains("RING")).contains("MLX_RANK=0", "JACCL_RANK=0");
        assertThat(a.findings()).anySatisfy(f -> {
            assertThat(f.severity()).isEqualTo(Severity.INFO);
            assertThat(f.message()).contains("unset both");
        });
    }

    @Test
    void nodesJacclCannotJoinGetThePlansError() {
        RingCables t = new RingCables("a", "b", "c").cable("a", "169.254.0.1", "b", "169.254.0.2");
        NodeSettings c = t.settings(LIBRARY, "c");

        assertThat(c.findings()).anySatisfy(f -> {
            assertThat(f.isError()).isTrue();
            assertThat(f.code()).isEqualTo(Code.JACCL_CANNOT_RUN);
        });
        assertThat(c.findings()).noneMatch(f -> f.message().contains("unset")); // no mesh runs, so no advice about one
    }

    @Test
    void errorsOnOtherRanksAreCountedInOneErrorNotListed() {
        // a b c d, only a-b and c-d cabled: rank 1 (b) and rank 2 (c) share no cable, nor do 3 (d) and 0 (a)
        RingCables t = new RingCables("a", "b", "c", "d").cable("a", "169.254.0.1", "b", "169.254.0.2")
                .cable("c", "169.254.1.1", "d", "169.254.1.2");
        NodeSettings a = t.settings(LIBRARY, "a");

        assertThat(a.findings()).filteredOn(Finding::isError).allSatisfy(f -> assertThat(f.ranks().isEmpty() || f.ranks().contains(0)).isTrue());
        assertThat(a.findings()).anySatisfy(f -> assertThat(f.message()).matches("\\d+ more errors? on other ranks stop the job.*"));
    }

    @Test
    void withoutRankZerosManagementAddressThereIsNoCoordinatorSoAnErrorSaysWhatToRunAndNoVariableIsWritten() {
        RingCables cabled = new RingCables("a", "b").cable("a", "169.254.0.1", "b", "169.254.0.2");
        List<NodeRecord> records = cabled.topology().nodes().stream()
                .map(n -> cabled.topology().record(n).orElseThrow())
                .map(r -> new NodeRecord(r.node(), r.version(), r.ports(), Optional.empty(), r.rdmaEnabled())).toList();
        Topology t = Topology.of(new Snapshot(records));
        NodeSettings b = LIBRARY.settings(ComputeNics.of(t, RailTable.of(t), "b", SettingsOptions.DEFAULTS));

        assertThat(b.settings()).isEmpty();
        assertThat(b.findings()).filteredOn(Finding::isError).singleElement()
                .satisfies(f -> assertThat(f.message()).contains("rank 0 (a)", "--rank 1 --coordinator IPV4:PORT"));
    }
}
