package io.railmap.matrix.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.railmap.matrix.Cluster;
import io.railmap.matrix.emit.JacclEnv;
import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.jaccl.JacclMode;
import io.railmap.matrix.jaccl.JacclRules;
import io.railmap.matrix.jaccl.MlxVersion;
import io.railmap.matrix.rail.RailOptions;
import io.railmap.matrix.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The plans railmap writes, run through jaccl's own rules ({@link JacclRules#init}) for the release
 * they are shaped for: every plan with a mode runs in that mode, and every case of issue 9 is the
 * choice jaccl's code gives.
 */
class JacclPlanTest {
    private static final MlxVersion V0_30_5 = new MlxVersion(0, 30, 5);
    private static final MlxVersion V0_31_1 = new MlxVersion(0, 31, 1);

    private static Plan plan(Cluster c, List<String> ranks, RailOptions options, MlxVersion v) {
        Plan plan = Planner.plan(Topology.of(c.snapshot()), ranks, Order.GIVEN, options, v);
        // whatever the case: a plan that names a mode is what jaccl runs, with MLX_JACCL_RING set exactly for the ring
        plan.mode().ifPresent(m -> assertThat(JacclRules.init(plan.matrix().devices(), m == JacclMode.RING, v).runs(m))
                .as("jaccl %s runs the plan as a %s", v, m).isTrue());
        assertThat(plan.hasErrors()).as("a plan jaccl cannot run is an error").isEqualTo(plan.mode().isEmpty()
                || plan.findings().stream().anyMatch(Finding::isError));
        return plan;
    }

    private static Plan plan(Cluster c, List<String> ranks) {
        return plan(c, ranks, RailOptions.DEFAULTS, MlxVersion.NEWEST);
    }

    private static List<String> codes(Plan plan) {
        return plan.findings().stream().map(f -> f.severity().wireName() + " " + f.code().wireName()).toList();
    }

    private static Cluster fullMesh(int n, List<String> ranks) {
        Cluster c = new Cluster();
        for (int i = 0; i < n; i++) {
            ranks.add("n" + i);
            for (int j = 0; j < i; j++) {
                c.cable("n" + i + ":to" + j, "n" + j + ":to" + i);
            }
        }
        return c;
    }

    private static Cluster fourRingDoubled() {
        return new Cluster().cable("a:p1", "b:p1").cable("a:p2", "b:p2").cable("b:p3", "c:p3").cable("b:p4", "c:p4")
                .cable("c:p5", "d:p5").cable("c:p6", "d:p6").cable("d:p7", "a:p7").cable("d:p8", "a:p8");
    }

    @Test
    void nineFullyCabledRanksRunTheRingBecauseTheMeshWouldThrow() {
        List<String> ranks = new ArrayList<>();
        Plan p = plan(fullMesh(9, ranks), ranks);
        assertThat(p.mode()).contains(JacclMode.RING);
        assertThat(p.hasErrors()).isFalse();
        assertThat(JacclEnv.render(p, "/d.json", "10.0.0.1:32323", Optional.of(0))).contains("MLX_JACCL_RING=1\n", "JACCL_RING=1\n");
        List<String> eight = new ArrayList<>();
        assertThat(plan(fullMesh(8, eight), eight).mode()).contains(JacclMode.MESH);
    }

    @Test
    void aCableWithoutRdmaIsAFindingNotARail() {
        Cluster c = new Cluster().cable("a:en2", "b:en2").plainCable("a:eth1", "b:eth1");
        Plan p = plan(c, List.of("a", "b"));
        assertThat(p.matrix().devices().get(0).get(1)).containsExactly("rdma_en2");
        assertThat(p.findings()).filteredOn(f -> f.code() == Code.NO_RDMA_DEVICE).singleElement()
                .satisfies(f -> assertThat(f.message()).contains("a:eth1 has no RDMA device"));
        assertThat(p.mode()).contains(JacclMode.MESH);
    }

    @Test
    void oneHostIsAnError() {
        Plan p = plan(new Cluster().cable("alpha:en2", "beta:en2"), List.of("alpha"));
        assertThat(p.mode()).isEmpty();
        assertThat(codes(p)).contains("error one-rank", "error jaccl-cannot-run");
    }

    @Test
    void unequalCountsDoNotAdviseTheRing() {
        // a-b doubled, b-c and c-a single: with equal ring wires off, the ring is invalid (2 vs 1 wires)
        Cluster c = new Cluster().cable("a:p1", "b:p1").cable("a:p2", "b:p2").cable("b:p3", "c:p3").cable("a:p4", "c:p4");
        Plan p = plan(c, List.of("a", "b", "c"), RailOptions.DEFAULTS.withEqualRingWires(false), MlxVersion.NEWEST);
        assertThat(p.mode()).contains(JacclMode.MESH);
        assertThat(p.findings()).filteredOn(f -> f.code() == Code.EXTRA_WIRES_UNUSED).singleElement().satisfies(f -> {
            assertThat(f.message()).contains("not valid here").doesNotContain("set MLX_JACCL_RING");
        });
    }

    @Test
    void fiveWiresRunFourAsARingOrTheMeshOnWireZero() {
        Cluster c = new Cluster();
        for (int k = 0; k < 5; k++) {
            c.cable("a:p" + k, "b:p" + k);
        }
        Plan trimmed = plan(c, List.of("a", "b"));
        assertThat(trimmed.mode()).contains(JacclMode.RING);
        assertThat(trimmed.matrix().wires(0, 1)).isEqualTo(4);
        Plan five = plan(c, List.of("a", "b"), RailOptions.DEFAULTS.withEqualRingWires(false), MlxVersion.NEWEST);
        assertThat(five.mode()).contains(JacclMode.MESH);
        assertThat(five.runRing()).isFalse();
        assertThat(five.findings()).filteredOn(f -> f.code() == Code.EXTRA_WIRES_UNUSED).singleElement()
                .satisfies(f -> assertThat(f.message()).contains("at most 4"));
    }

    @Test
    void eachMlxReleaseGetsWhatItsJacclReads() {
        Cluster two = new Cluster().cable("a:en6", "b:en7").cable("a:en7", "b:en6");
        List<String> ab = List.of("a", "b");
        Plan newest = plan(two, ab, RailOptions.DEFAULTS, MlxVersion.NEWEST);
        assertThat(newest.mode()).contains(JacclMode.RING);
        // v0.32.0 lib/jaccl/ring_impl.h RingImpl::recv counts each wire's prefill from its own slice (mlx #3654)
        assertThat(newest.minMlxVersion()).contains(new MlxVersion(0, 32, 0));
        Plan v0320 = plan(two, ab, RailOptions.DEFAULTS, new MlxVersion(0, 32, 0));
        assertThat(v0320.mode()).contains(JacclMode.RING);
        assertThat(v0320.matrix().wires(0, 1)).isEqualTo(2);
        // 0.31.2: several names per cell parse, but v0.31.2 ring_impl.h RingImpl::recv can hang over two
        // wires (its prefill runs to the message's end): the mesh, wire 0
        Plan v0312 = plan(two, ab, RailOptions.DEFAULTS, MlxVersion.MULTI_NAME);
        assertThat(v0312.mode()).contains(JacclMode.MESH);
        assertThat(v0312.minMlxVersion()).contains(MlxVersion.MULTI_NAME);
        // 0.30.6-0.31.1: one name per mesh cell
        Plan v0311 = plan(two, ab, RailOptions.DEFAULTS, V0_31_1);
        assertThat(v0311.matrix().devices().get(0).get(1)).containsExactly("rdma_en6");
        assertThat(v0311.findings()).filteredOn(f -> f.code() == Code.CABLE_LEFT_OUT)
                .anySatisfy(f -> assertThat(f.message()).contains("MLX 0.31.1"));
        // the Mac Studio ring, two cables per edge: one wire per edge before 0.32.0, null non-neighbours
        Plan ring0311 = plan(fourRingDoubled(), List.of("a", "b", "c", "d"), RailOptions.DEFAULTS, V0_31_1);
        assertThat(ring0311.mode()).contains(JacclMode.RING);
        assertThat(ring0311.matrix().wires(0, 1)).isEqualTo(1);
        assertThat(ring0311.minMlxVersion()).contains(MlxVersion.RING);
        assertThat(plan(fourRingDoubled(), List.of("a", "b", "c", "d")).matrix().wires(0, 1)).isEqualTo(2);
    }

    @Test
    void nineRanksOnAnOldRelease() {
        List<String> ranks = new ArrayList<>();
        Cluster c = fullMesh(9, ranks);
        // 0.31.1's ring needs null cells between non-neighbours: railmap writes them so
        Plan v0311 = plan(c, ranks, RailOptions.DEFAULTS, V0_31_1);
        assertThat(v0311.mode()).contains(JacclMode.RING);
        assertThat(v0311.matrix().wires(0, 4)).isZero();
        // 0.30.5 has no ring and its mesh stops at 8: nothing runs
        Plan v0305 = plan(c, ranks, RailOptions.DEFAULTS, V0_30_5);
        assertThat(v0305.mode()).isEmpty();
        assertThat(codes(v0305)).contains("error jaccl-cannot-run");
    }

    @Test
    void theEnvFollowsTheRelease() {
        Plan mesh = plan(new Cluster().cable("a:en2", "b:en2"), List.of("a", "b"));
        String env = JacclEnv.render(mesh, "/d.json", "10.0.0.1:32323", Optional.of(0));
        assertThat(env).contains("JACCL_IBV_DEVICES=/d.json\n", "JACCL_RANK=0\n", "JACCL_COORDINATOR=10.0.0.1:32323\n")
                .doesNotContainPattern("(?m)^(MLX_)?JACCL_RING=");
        Plan old = plan(new Cluster().cable("a:en2", "b:en2"), List.of("a", "b"), RailOptions.DEFAULTS, new MlxVersion(0, 30, 3));
        assertThat(JacclEnv.render(old, "/d.json", "10.0.0.1:32323", Optional.of(0)))
                .contains("MLX_JACCL_DEVICES=/d.json\n").doesNotContain("MLX_IBV_DEVICES", "JACCL_RANK");
    }
}
