package io.railmap.daemon.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.railmap.discovery.model.SwitchPorts;
import io.railmap.matrix.model.FarEndSource;
import io.railmap.matrix.model.Infiniband;
import io.railmap.matrix.model.SwitchPort;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The far-end changes the watch logs between two readings: switch ports and back-to-back InfiniBand HCA ports. */
class SwitchPortWatchTest {
    private static final SwitchPort LEAF0_P1 = new SwitchPort(FarEndSource.LLDP, "b8:59:9f:00:10:00", Optional.of("leaf0"), "p1");
    private static final Infiniband TO_G2 = new Infiniband(Optional.of("0x0002c90300336fe0"), Optional.of("0x48210b030096a5cb"),
            Optional.of(1));

    @Test
    void aFarEndThatAppearsChangesOrGoesIsOneLineAndAnHcaNodeGuidAloneIsNoFarEnd() {
        SwitchPorts before = new SwitchPorts(Map.of("eth2", LEAF0_P1), Map.of("ib0", Infiniband.of("0x0002c90300336fe0")), List.of());
        SwitchPorts now = new SwitchPorts(Map.of(), Map.of("ib0", TO_G2, "ib1", Infiniband.of("0x0002c90300336fe0")), List.of());

        assertThat(SwitchPortWatch.changes(before, now)).containsExactly(
                "port eth2 far end: no switch port (was switch leaf0 port p1 (lldp:b8:59:9f:00:10:00))",
                "port ib0 far end: HCA 0x48210b030096a5cb port 1");
        assertThat(SwitchPortWatch.changes(now, now)).isEmpty();
    }
}
