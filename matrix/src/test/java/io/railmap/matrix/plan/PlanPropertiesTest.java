package io.railmap.matrix.plan;

import io.railmap.matrix.jaccl.MlxVersion;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.railmap.matrix.Cells;
import io.railmap.matrix.Cluster;
import io.railmap.matrix.check.Checker;
import io.railmap.matrix.check.Mode;
import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.model.Port;

import io.railmap.matrix.model.PortState;
import io.railmap.matrix.rail.DeviceMatrix;
import io.railmap.matrix.rail.RailOptions;
import io.railmap.matrix.topology.Cable;
import io.railmap.matrix.topology.Topology;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;

/**
 * Properties of plans over seeded random multigraphs (up to 8 nodes, 0–3 cables per pair, mixed
 * rates and states, one-sided observations). Each failure names its seed; rerun one case by setting
 * {@code BASE_SEED} to it and {@code RUNS} to 1.
 */
class PlanPropertiesTest {
    private static final long BASE_SEED = 0x7a11_2026L;
    private static final int RUNS = 300;
    private static final Set<Code> RAIL_FAULTS = EnumSet.of(Code.MISMATCHED_RAIL, Code.NOT_A_CABLE, Code.UNKNOWN_DEVICE,
            Code.UNPAIRED_WIRE, Code.EMPTY_NAME, Code.DIAGONAL_NOT_EMPTY, Code.NOT_SQUARE);

    /** A random cluster, rank list and options. */
    record Case(Topology topology, List<String> ranks, RailOptions options) {
    }

    static Case randomCase(Random random) {
        int n = 2 + random.nextInt(7);
        Cluster cluster = new Cluster();
        int[] nextPort = new int[n];
        double[] rates = {40, 80, 100, 200, 400};
        for (int a = 0; a < n; a++) {
            cluster.node("n" + a);
            for (int b = a + 1; b < n; b++) {
                int cables = random.nextInt(4);
                for (int k = 0; k < cables; k++) {
                    String x = "n" + a + ":p" + nextPort[a]++;
                    String y = "n" + b + ":p" + nextPort[b]++;
                    PortState state = random.nextInt(8) == 0 ? PortState.DOWN : PortState.ACTIVE;
                    // ends given in random order: the side that "reports first" must not matter
                    if (random.nextBoolean()) {
                        cluster.cable(x, y, rates[random.nextInt(rates.length)], state);
                    } else {
                        cluster.cable(y, x, rates[random.nextInt(rates.length)], state);
                    }
                }
                if (random.nextInt(6) == 0) {
                    cluster.oneSided("n" + a + ":p" + nextPort[a]++, "n" + b + ":p" + nextPort[b]++);
                }
            }
        }
        List<String> ranks = new ArrayList<>();
        for (int a = 0; a < n; a++) {
            ranks.add("n" + a);
        }
        Collections.shuffle(ranks, random);
        ranks = ranks.subList(0, 1 + random.nextInt(n));
        int[] caps = {1, 2, 3, Integer.MAX_VALUE};
        RailOptions options = new RailOptions(random.nextInt(4) != 0, random.nextBoolean() ? 0 : rates[random.nextInt(3)],
                caps[random.nextInt(caps.length)], random.nextBoolean());
        return new Case(Topology.of(cluster.snapshot()), List.copyOf(ranks), options);
    }

    static void forEachCase(BiConsumer<Long, Case> property) {
        for (int run = 0; run < RUNS; run++) {
            long seed = BASE_SEED + run;
            Case c = randomCase(new Random(seed));
            try {
                property.accept(seed, c);
            } catch (AssertionError e) {
                fail("seed " + seed + ", ranks " + c.ranks() + ", " + c.options() + ": " + e.getMessage(), e);
            }
        }
    }

    @Test
    void railKIsTheSameCableOnBothEnds() {
        forEachCase((seed, c) -> {
            DeviceMatrix m = Planner.plan(c.topology(), c.ranks(), Order.GIVEN, c.options(), MlxVersion.NEWEST).matrix();
            int n = m.size();
            for (int i = 0; i < n; i++) {
                assertThat(m.devices().get(i).get(i)).isEmpty();
                for (int j = 0; j < n; j++) {
                    if (i == j) {
                        continue;
                    }
                    assertThat(m.devices().get(i).get(j)).hasSameSizeAs(m.devices().get(j).get(i));
                    for (int k = 0; k < m.wires(i, j); k++) {
                        Port p = port(c.topology(), m.ranks().get(i), m.device(i, j, k));
                        Port q = port(c.topology(), m.ranks().get(j), m.device(j, i, k));
                        Optional<Cable> cable = c.topology().cableAt(p.ref());
                        assertThat(cable).as("rail %d of (%d,%d)", k, i, j).isPresent();
                        assertThat(cable.get().farEnd(p.ref())).isEqualTo(q.ref());
                    }
                }
            }
        });
    }

    @Test
    void checkFindsNoFaultInWhatMatrixEmits() {
        forEachCase((seed, c) -> {
            Plan plan = Planner.plan(c.topology(), c.ranks(), Order.GIVEN, c.options(), MlxVersion.NEWEST);
            List<Finding> findings = Checker.check(c.topology(), plan.ranks(), plan.matrix().devices(), Mode.AUTO, MlxVersion.NEWEST);
            assertThat(findings).noneMatch(f -> RAIL_FAULTS.contains(f.code()));
            if (c.options().activeOnly()) {
                assertThat(findings).noneMatch(f -> f.code() == Code.LINK_DOWN);
                if (plan.mode().isPresent()) {
                    assertThat(findings).noneMatch(Finding::isError);
                }
            }
        });
    }

    @Test
    void swappingTwoWiresOfOneCellIsAlwaysAMismatchedRail() {
        forEachCase((seed, c) -> {
            DeviceMatrix m = Planner.plan(c.topology(), c.ranks(), Order.GIVEN, c.options(), MlxVersion.NEWEST).matrix();
            Random random = new Random(seed);
            for (int i = 0; i < m.size(); i++) {
                for (int j = 0; j < m.size(); j++) {
                    if (m.wires(i, j) < 2) {
                        continue;
                    }
                    int x = random.nextInt(m.wires(i, j));
                    int y = (x + 1 + random.nextInt(m.wires(i, j) - 1)) % m.wires(i, j);
                    List<List<List<String>>> cells = Cells.copy(m.devices());
                    Collections.swap(cells.get(i).get(j), x, y);
                    List<Finding> findings = Checker.check(c.topology(), m.ranks(), cells, Mode.AUTO, MlxVersion.NEWEST);
                    assertThat(findings).filteredOn(f -> f.code() == Code.MISMATCHED_RAIL)
                            .extracting(f -> f.rail().orElseThrow())
                            .containsExactlyInAnyOrder(Math.min(x, y), Math.max(x, y));
                }
            }
        });
    }

    @Test
    void aRingOrderWhenFoundFollowsCablesAndIsAValidRing() {
        forEachCase((seed, c) -> {
            if (c.ranks().size() < 2) {
                return;
            }
            Plan plan;
            try {
                plan = Planner.plan(c.topology(), c.ranks(), Order.RING, c.options().withEqualRingWires(true), MlxVersion.NEWEST);
            } catch (NoRingException e) {
                assertThat(e.unplaceable()).isNotEmpty().isSubsetOf(c.ranks());
                return;
            }
            assertThat(plan.ranks()).containsExactlyInAnyOrderElementsOf(c.ranks()).startsWith(c.ranks().get(0));
            assertThat(plan.validRing()).isTrue();
        });
    }

    private static Port port(Topology t, String node, String name) {
        return t.ports().stream().filter(p -> p.node().equals(node) && (p.netdev().equals(name) || p.rdma().orElse("").equals(name))).findFirst()
                .orElseThrow(() -> new AssertionError("no port " + name + " on " + node));
    }
}
