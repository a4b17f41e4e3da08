package io.railmap.matrix.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.railmap.matrix.Cluster;
import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.jaccl.MlxVersion;
import io.railmap.matrix.rail.RailOptions;
import io.railmap.matrix.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a plan says grows linearly with the ranks, however badly they are cabled. */
class PlanScaleTest {
    /** n nodes in a ring cabled out of name order (node a to node a + 7 mod n, two cables per edge). */
    private static Topology scrambledRing(int n) {
        Cluster c = new Cluster();
        for (int i = 0; i < n; i++) {
            int a = i * 7 % n;
            int b = (i + 1) * 7 % n;
            c.cable("n" + a + ":r0", "n" + b + ":l0").cable("n" + a + ":r1", "n" + b + ":l1");
        }
        return Topology.of(c.snapshot());
    }

    private static List<String> names(int n) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add("n" + i);
        }
        return out;
    }

    @Test
    void aLargeClusterInNoRunnableOrderGetsFindingsPerRankNotPerPair() {
        int n = 200;
        Plan plan = Planner.plan(scrambledRing(n), names(n), Order.GIVEN, RailOptions.DEFAULTS, MlxVersion.NEWEST);

        // jaccl runs nothing: both modes' findings are errors; as a mesh every rank misses 197 of its
        // 199 peers (19,700 pairs), as a ring nearly every ring edge is uncabled
        assertThat(plan.mode()).isEmpty();
        List<Finding> missing = plan.findings().stream().filter(f -> f.code() == Code.MISSING_LINK).toList();
        assertThat(missing).hasSize(n).allSatisfy(f -> assertThat(f.message()).contains("shares no wire with 197 of its 199 peers"));
        assertThat(plan.findings()).hasSizeLessThanOrEqualTo(3 * n);
    }

    @Test
    void aRingOrderThatCannotBeSearchedNamesAFewNodesAndCountsTheRest() {
        int n = 30;
        NoRingException e = catchThrowableOfType(
                () -> Planner.plan(scrambledRing(n), names(n), Order.RING, RailOptions.DEFAULTS, MlxVersion.NEWEST),
                NoRingException.class);

        assertThat(e.getMessage()).startsWith("no ring order through n0, n1, n2, n3, n4, n5, n6, n7 and 22 more: ")
                .contains("at most 24 nodes");
        assertThat(e.unplaceable()).hasSize(n);
    }
}
