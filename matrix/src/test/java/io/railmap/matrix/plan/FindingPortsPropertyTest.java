package io.railmap.matrix.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.railmap.matrix.SentencePorts;
import io.railmap.matrix.check.Checker;
import io.railmap.matrix.check.Mode;
import io.railmap.matrix.fabric.RailTable;
import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.jaccl.MlxVersion;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.rail.DeviceMatrix;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Every finding of a plan, of a check of a corrupted matrix and of the rail table carries exactly the
 * ports its sentence names ({@link SentencePorts}, the oracle), over {@link PlanPropertiesTest}'s
 * seeded random clusters.
 */
class FindingPortsPropertyTest {
    /** The codes these clusters raise about ports: each must be seen carrying ports, or the property proves little. */
    private static final Set<Code> SEEN = EnumSet.of(Code.MISMATCHED_RAIL, Code.NOT_A_CABLE, Code.LINK_DOWN, Code.NETDEV_NAME,
            Code.UNCONFIRMED_CABLE, Code.CABLE_LEFT_OUT);

    @Test
    void everyFindingCarriesThePortsItsSentenceNames() {
        Set<Code> carried = EnumSet.noneOf(Code.class);
        PlanPropertiesTest.forEachCase((seed, c) -> {
            Set<String> known = SentencePorts.known(c.topology());
            Plan plan = Planner.plan(c.topology(), c.ranks(), Order.GIVEN, c.options(), MlxVersion.NEWEST);
            List<Finding> findings = new ArrayList<>(plan.findings());
            findings.addAll(RailTable.of(c.topology()).findings());
            findings.addAll(Checker.check(c.topology(), plan.ranks(), corrupted(plan.matrix(), c, new Random(seed)), Mode.AUTO,
                    MlxVersion.NEWEST));
            SentencePorts.assertCarried(findings, known);
            findings.stream().filter(f -> !f.ports().isEmpty()).forEach(f -> carried.add(f.code()));
        });
        assertThat(carried).containsAll(SEEN);
    }

    /** The plan's matrix with a few names replaced by another port's device or netdev name of the same rank. */
    private static List<List<List<String>>> corrupted(DeviceMatrix m, PlanPropertiesTest.Case c, Random random) {
        List<List<List<String>>> cells = new ArrayList<>();
        for (int i = 0; i < m.size(); i++) {
            List<List<String>> row = new ArrayList<>();
            List<Port> ports = c.topology().ports(m.ranks().get(i));
            for (int j = 0; j < m.size(); j++) {
                List<String> cell = new ArrayList<>(m.devices().get(i).get(j));
                for (int k = 0; k < cell.size(); k++) {
                    if (random.nextInt(3) == 0 && !ports.isEmpty()) {
                        Port p = ports.get(random.nextInt(ports.size()));
                        cell.set(k, random.nextInt(4) == 0 ? p.netdev() : p.rdma().orElse(p.netdev()));
                    }
                }
                row.add(cell);
            }
            cells.add(row);
        }
        return cells;
    }
}
