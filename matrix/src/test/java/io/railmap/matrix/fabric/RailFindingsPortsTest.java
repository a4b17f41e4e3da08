package io.railmap.matrix.fabric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.railmap.matrix.SentencePorts;
import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortState;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The rail table's findings carry exactly the ports their sentences name ({@link SentencePorts}, the
 * oracle), over seeded rail-optimised fabrics with cables moved to other leaves, NICs down, NICs
 * whose switch is unknown and NICs at another rate.
 */
class RailFindingsPortsTest {
    private static final long SEED = 0x10_f0_27L;
    private static final int RUNS = 200;

    @Test
    void everyRailFindingCarriesThePortsItsSentenceNames() {
        Set<Code> carried = EnumSet.noneOf(Code.class);
        for (int run = 0; run < RUNS; run++) {
            long seed = new SplittableRandom(SEED + run).nextLong();
            Random random = new Random(seed);
            int nodes = 3 + random.nextInt(6);
            int rails = 1 + random.nextInt(4);
            Fabric fabric = Fabric.railOptimised(nodes, rails);
            for (int changes = random.nextInt(5); changes > 0; changes--) {
                String nic = "g" + (1 + random.nextInt(nodes)) + ":eth" + random.nextInt(rails);
                switch (random.nextInt(4)) {
                    case 0 -> fabric.move(nic, "leaf" + random.nextInt(rails + 1));
                    case 1 -> fabric.change(nic, p -> p.withState(PortState.DOWN));
                    case 2 -> fabric.change(nic, p -> p.withSwitchPort(Optional.empty()));
                    default -> fabric.change(nic, p -> new Port(p.node(), p.netdev(), p.rdma(), p.rdmaPort(), p.kind(), Optional.of(200.0),
                            p.state(), p.thunderbolt(), p.addresses(), p.addressesKnown(), p.bridge(), p.switchPort(), p.neighbours()));
                }
            }
            Set<String> known = new HashSet<>();
            fabric.records().stream().flatMap(r -> r.ports().stream()).forEach(p -> known.add(p.ref().toString()));
            try {
                SentencePorts.assertCarried(fabric.table().findings(), known);
            } catch (AssertionError e) {
                fail("seed " + seed + ": " + e.getMessage(), e);
            }
            fabric.table().findings().stream().filter(f -> !f.ports().isEmpty()).map(Finding::code).forEach(carried::add);
        }
        assertThat(carried).containsAll(EnumSet.of(Code.CROSS_RAIL, Code.RAIL_MISSING, Code.TWO_NICS_ONE_RAIL, Code.MIXED_RATES_ON_RAIL,
                Code.UNKNOWN_FAR_END));
    }
}
