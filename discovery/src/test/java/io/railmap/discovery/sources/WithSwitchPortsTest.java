package io.railmap.discovery.sources;

import static org.assertj.core.api.Assertions.assertThat;

import io.railmap.discovery.lldp.LldpdSource;
import io.railmap.discovery.model.Discovery;
import io.railmap.discovery.model.LocalPort;
import io.railmap.discovery.model.SwitchPorts;
import io.railmap.matrix.model.FarEndSource;
import io.railmap.matrix.model.Infiniband;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.PortState;
import io.railmap.matrix.model.SwitchPort;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** Switch ports attached to discovered ports: by netdev, only with carrier, their notes kept. */
class WithSwitchPortsTest {
    private static final SwitchPort LEAF0_P1 = new SwitchPort(FarEndSource.LLDP, "leaf0", Optional.of("leaf0"), "p1");
    private static final SwitchPort LEAF1_P1 = new SwitchPort(FarEndSource.LLDP, "leaf1", Optional.empty(), "p1");

    private static LocalPort port(String netdev, boolean carrier) {
        Port p = new Port("g1", netdev, Optional.empty(), 1, PortKind.ETHERNET, Optional.empty(), carrier ? PortState.ACTIVE : PortState.DOWN,
                Optional.empty(), List.of());
        return new LocalPort(p, Optional.empty(), OptionalInt.empty(), OptionalInt.empty(), carrier, List.of());
    }

    private static Discovery found() {
        Discovery.Builder b = Discovery.builder("g1");
        b.add(port("eth2", true), List.of());
        b.add(port("eth3", false), List.of());
        b.add(port("eth4", true), List.of());
        b.note("a note of the port source");
        return b.build();
    }

    @Test
    void aPortWithCarrierGetsItsNetdevsSwitchPortAPortWithoutCarrierNoneAndNotesFollowTheSources() throws Exception {
        SwitchPorts known = new SwitchPorts(Map.of("eth2", LEAF0_P1, "eth3", LEAF1_P1, "eth9", LEAF1_P1),
                List.of("interface \"eth4\" hears 2 LLDP neighbours (a hub, or a bridge that forwards LLDP): no switch port for it"));

        Discovery d = new WithSwitchPorts(WithSwitchPortsTest::found, ports -> known).discover();

        assertThat(d.ports()).extracting(p -> p.port().netdev() + "=" + p.port().switchPort().map(SwitchPort::switchId).orElse("-"))
                .containsExactly("eth2=lldp:leaf0", "eth3=-", "eth4=-");
        assertThat(d.ports().get(0).port().switchPort()).contains(LEAF0_P1);
        assertThat(d.notes()).containsExactly("a note of the port source",
                "interface \"eth4\" hears 2 LLDP neighbours (a hub, or a bridge that forwards LLDP): no switch port for it");
    }

    @Test
    void readingNowTurnsAnUnreachableLldpdIntoOneNote() {
        SwitchPorts read = WithSwitchPorts.readAll(List.of(new LldpdSource(Path.of("/nonexistent-railmap/lldpd.socket"))), List.of());

        assertThat(read.byNetdev()).isEmpty();
        assertThat(read.notes()).singleElement().asString().startsWith("lldpd unavailable: ")
                .satisfiesAnyOf(n -> assertThat(n).contains("/nonexistent-railmap/lldpd.socket: No such file or directory"),
                        n -> assertThat(n).contains("lldpcli is not installed"));
    }

    @Test
    void theFirstSourceWinsWhenTwoNameOneNetdevAndNotesAreBounded() {
        SwitchPorts first = new SwitchPorts(Map.of("eth2", LEAF0_P1), List.of("one"));
        SwitchPorts second = new SwitchPorts(Map.of("eth2", LEAF1_P1, "eth3", LEAF1_P1), java.util.Collections.nCopies(40, "two"));

        SwitchPorts both = first.and(second);

        assertThat(both.byNetdev()).containsExactlyInAnyOrderEntriesOf(Map.of("eth2", LEAF0_P1, "eth3", LEAF1_P1));
        assertThat(both.notes()).hasSize(SwitchPorts.MAX_NOTES).startsWith("one").endsWith("more notes like these were left out");
    }

    @Test
    void anInfinibandPortWithCarrierGetsItsHcaFactsAndWithoutCarrierNone() throws Exception {
        Infiniband peer = new Infiniband(Optional.of("0x48210b030096a5cb"), Optional.of("0x0002c90300336fe0"), Optional.of(1));
        SwitchPorts known = new SwitchPorts(Map.of(), Map.of("ib0", peer, "ib1", Infiniband.of("0x0c42a103004029a0")), List.of());
        Discovery.Builder b = Discovery.builder("g1");
        for (String netdev : List.of("ib0", "ib1")) {
            boolean carrier = netdev.equals("ib0");
            Port p = new Port("g1", netdev, Optional.of("mlx5_" + netdev.charAt(2)), 1, PortKind.INFINIBAND, Optional.empty(),
                    carrier ? PortState.ACTIVE : PortState.DOWN, Optional.empty(), List.of());
            b.add(new LocalPort(p, Optional.empty(), OptionalInt.empty(), OptionalInt.empty(), carrier, List.of()), List.of());
        }
        Discovery found = b.build();

        Discovery d = new WithSwitchPorts(() -> found, ports -> known).discover();

        assertThat(d.ports().get(0).port().infiniband()).contains(peer);
        assertThat(d.ports().get(1).port().infiniband()).isEmpty();
        SwitchPorts merged = new SwitchPorts(Map.of(), Map.of("ib0", Infiniband.of("0x0c42a103004029a0")), List.of()).and(known);
        assertThat(merged.infiniband()).containsOnlyKeys("ib0", "ib1");
        assertThat(merged.infinibandOf("ib0")).contains(Infiniband.of("0x0c42a103004029a0"));
    }
}
