package io.railmap.matrix.fabric;

import static org.assertj.core.api.Assertions.assertThat;

import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.finding.Severity;
import io.railmap.matrix.model.FarEndSource;
import io.railmap.matrix.model.SwitchPort;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** An LLDP neighbour that claims a node's name against the probe ({@link LldpImpostors}), on records. */
class LldpImpostorsTest {
    /** Leaf 0 of a probed rail-optimised fabric announces itself as {@code name} on every port. */
    private static Fabric leafZeroCalled(String name) {
        Fabric f = Fabric.probedSegments(4, 2);
        for (int n = 1; n <= 4; n++) {
            SwitchPort leaf = new SwitchPort(FarEndSource.LLDP, "52:54:00:00:00:00", Optional.of(name), "p" + n);
            f.change("g" + n + ":eth0", p -> p.withSwitchPort(Optional.of(leaf)));
        }
        return f;
    }

    private static List<Finding> impostors(RailTable table) {
        return table.findings().stream().filter(f -> f.code() == Code.LLDP_IMPOSTOR).toList();
    }

    @Test
    void aLeafCallingItselfANodeIsNamedOnEveryPortAndTheRailStaysTheProbes() {
        RailTable table = leafZeroCalled("g2.cluster.example").table();

        assertThat(impostors(table)).extracting(f -> f.ports().get(0).toString()).containsExactly("g1:eth0", "g2:eth0", "g3:eth0", "g4:eth0");
        assertThat(impostors(table)).first().satisfies(f -> {
            assertThat(f.severity()).isEqualTo(Severity.WARNING);
            assertThat(f.ports()).extracting(Object::toString).containsExactly("g1:eth0", "g2:eth0", "g3:eth0", "g4:eth0");
            assertThat(f.message()).startsWith("g1:eth0's LLDP neighbour (chassis 52:54:00:00:00:00, port p1) calls itself "
                    + "g2.cluster.example, the name of node g2, but the probe hears a shared segment there (g2:eth0, g3:eth0, g4:eth0)");
        });
        // the rail stays as the probe sees it: a segment of the four nodes, rail 0 as before; nothing else is found
        assertThat(table.rails()).hasSize(2);
        assertThat(table.rails().get(0).kind()).isEqualTo(Rail.Kind.SEGMENT);
        assertThat(table.rails().get(0).nics()).hasSize(4);
        assertThat(table.findings()).allMatch(f -> f.code() == Code.LLDP_IMPOSTOR);
    }

    @Test
    void aSwitchWithItsOwnNameIsNoImpostor() {
        assertThat(impostors(leafZeroCalled("leaf0").table())).isEmpty();
    }

    @Test
    void aCableToAnotherNodeThanTheOneClaimedIsNamed() {
        // g1:eth5 is cabled to g2:eth5 (the probe hears each from the other), but g2's lldpd announces "g3"
        UnaryOperator<String> lying = node -> node.equals("g2") ? "g3" : node;
        Fabric f = Fabric.railOptimised(3, 1).directCable("g1:eth5", "g2:eth5", lying, true);

        assertThat(impostors(f.table())).singleElement().satisfies(i -> {
            assertThat(i.ports()).extracting(Object::toString).containsExactly("g1:eth5", "g2:eth5");
            assertThat(i.message()).contains("calls itself g3, the name of node g3, but the probe hears g2:eth5 at the cable's far end");
        });
    }

    @Test
    void aNodeAtTheFarEndOfItsCableOrAPortTheProbeHeardNothingOnIsNoImpostor() {
        Fabric truthful = Fabric.railOptimised(3, 1).directCable("g1:eth5", "g2:eth5", UnaryOperator.identity(), true);
        Fabric unprobed = Fabric.railOptimised(3, 1).directCable("g1:eth5", "g2:eth5", node -> "g3", false);

        assertThat(impostors(truthful.table())).isEmpty();
        assertThat(impostors(unprobed.table())).isEmpty();
    }
}
