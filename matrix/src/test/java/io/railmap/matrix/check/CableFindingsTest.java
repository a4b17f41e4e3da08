package io.railmap.matrix.check;

import static org.assertj.core.api.Assertions.assertThat;

import io.railmap.matrix.Cluster;
import io.railmap.matrix.fabric.RailTable;
import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.jaccl.MlxVersion;
import io.railmap.matrix.plan.Order;
import io.railmap.matrix.plan.Plan;
import io.railmap.matrix.plan.Planner;
import io.railmap.matrix.rail.RailOptions;
import io.railmap.matrix.topology.Topology;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The findings about cables and ports: one definition, rank-free for events and the picture, ranked in a plan. */
class CableFindingsTest {
    /** Code, ports and sentence: what the rank-free and the ranked finding share. */
    private static List<String> sameFacts(List<Finding> findings) {
        return findings.stream().filter(f -> CableFindings.CODES.contains(f.code()))
                .map(f -> f.code().wireName() + " " + f.ports() + " " + f.message()).sorted().toList();
    }

    @Test
    void aPlanOverEveryNodeHasTheRankFreeFindingsWithRanksAttached() {
        Topology t = Topology.of(new Cluster().cable("a:en6", "b:en7").plainCable("a:eth0", "b:eth0")
                .oneSided("a:en8", "c:en1").hears("b:en9", "x:p1", "y:p1").snapshot());
        List<Finding> free = CableFindings.of(t, RailTable.of(t));
        Plan plan = Planner.plan(t, List.of("b", "a", "c"), Order.GIVEN, RailOptions.DEFAULTS, MlxVersion.NEWEST);

        assertThat(free).extracting(f -> f.code().wireName()).contains("unconfirmed-cable", "shared-segment", "no-rdma-device");
        assertThat(free).allSatisfy(f -> assertThat(f.ranks()).isEmpty());
        assertThat(sameFacts(plan.findings())).isEqualTo(sameFacts(free));
        assertThat(plan.findings()).filteredOn(f -> f.code() == Code.NO_RDMA_DEVICE).singleElement()
                .satisfies(f -> assertThat(f.ranks()).containsExactly(0, 1));
    }

    @Test
    void aPlanOverSomeNodesKeepsOnlyTheFindingsTouchingThem() {
        Topology t = Topology.of(new Cluster().cable("a:en6", "b:en7").oneSided("c:en8", "d:en1").snapshot());
        Plan plan = Planner.plan(t, List.of("a", "b"), Order.GIVEN, RailOptions.DEFAULTS, MlxVersion.NEWEST);

        assertThat(CableFindings.observed(t, RankScope.EVERY_NODE)).extracting(f -> f.code().wireName()).containsExactly("unconfirmed-cable");
        assertThat(plan.findings()).noneMatch(f -> f.code() == Code.UNCONFIRMED_CABLE);
    }

    @Test
    void twoThousandNodesGiveOneFindingPerProblem() {
        // a ring of 2,000 nodes with one one-sided observation: the rank-free findings walk nodes and cables, not pairs
        Cluster c = new Cluster();
        int n = 2_000;
        for (int i = 0; i < n; i++) {
            c.cable("n" + i + ":r0", "n" + (i + 1) % n + ":l0");
        }
        c.oneSided("n0:x0", "n1000:x0");
        Topology t = Topology.of(c.snapshot());

        assertThat(CableFindings.of(t, RailTable.of(t))).extracting(f -> f.code().wireName() + " " + f.ports())
                .containsExactly("unconfirmed-cable [n0:x0, n1000:x0]");
    }
}
