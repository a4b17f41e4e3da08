package io.railmap.discovery.sources;

import io.railmap.discovery.model.Discovery;
import io.railmap.discovery.model.DiscoveryException;
import io.railmap.discovery.model.LocalPort;
import io.railmap.discovery.model.PortSource;
import io.railmap.discovery.model.SourceUnavailableException;
import io.railmap.discovery.model.SwitchPortSource;
import io.railmap.discovery.model.SwitchPorts;
import io.railmap.matrix.model.Infiniband;
import io.railmap.matrix.model.SwitchPort;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * A {@link PortSource} whose ports carry the switch port at their far end: each discovered port
 * with carrier gets the switch port and InfiniBand facts that the {@link SwitchPorts} given for this
 * discovery name for its netdev (a port without carrier reaches no switch and no HCA, whatever a
 * neighbour table still holds), and their notes join the discovery's notes.
 */
public final class WithSwitchPorts implements PortSource {
    private final PortSource ports;
    private final Function<List<LocalPort>, SwitchPorts> switches;

    /**
     * @param ports    where the ports come from
     * @param switches given the ports just discovered, the switch ports known for them: the
     *                 daemon's last reading ({@code SwitchPortWatch}), or a reading made now
     *                 ({@link #readAll}); must not block for long, as it runs inside discovery
     */
    public WithSwitchPorts(PortSource ports, Function<List<LocalPort>, SwitchPorts> switches) {
        this.ports = Objects.requireNonNull(ports, "ports");
        this.switches = Objects.requireNonNull(switches, "switches");
    }

    @Override
    public Discovery discover() throws DiscoveryException {
        Discovery found = ports.discover();
        SwitchPorts known = switches.apply(found.ports());
        List<LocalPort> withSwitches = new ArrayList<>(found.ports().size());
        for (LocalPort p : found.ports()) {
            String netdev = p.port().netdev();
            Optional<SwitchPort> sw = p.carrier() ? known.of(netdev) : Optional.empty();
            Optional<Infiniband> ib = p.carrier() ? known.infinibandOf(netdev) : Optional.empty();
            withSwitches.add(new LocalPort(p.port().withSwitchPort(sw).withInfiniband(ib), p.mac(), p.mtu(), p.ifindex(), p.carrier(),
                    p.gids()));
        }
        List<String> notes = new ArrayList<>(found.notes());
        notes.addAll(known.notes());
        return new Discovery(found.node(), withSwitches, found.skipped(), notes, found.rdmaEnabled());
    }

    /**
     * Asks every source now, one after the other (for {@code railmap discover}, which runs once).
     * A source that cannot be asked adds one note saying why.
     *
     * @param sources the sources, first wins when two name a switch port for one netdev
     * @param ports   the ports just discovered
     * @return what they told together
     */
    public static SwitchPorts readAll(List<SwitchPortSource> sources, List<LocalPort> ports) {
        SwitchPorts all = SwitchPorts.NONE;
        for (SwitchPortSource source : sources) {
            try {
                all = all.and(source.read(ports));
            } catch (SourceUnavailableException e) {
                all = all.and(new SwitchPorts(java.util.Map.of(), List.of(source.name() + " unavailable: " + e.getMessage())));
            }
        }
        return all;
    }
}
