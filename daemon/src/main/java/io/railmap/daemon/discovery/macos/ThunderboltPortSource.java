package io.railmap.daemon.discovery.macos;

import com.fasterxml.jackson.databind.JsonNode;
import io.railmap.daemon.discovery.Discovery;
import io.railmap.daemon.discovery.DiscoveryException;
import io.railmap.daemon.discovery.InterfaceSelection;
import io.railmap.daemon.discovery.LocalPort;
import io.railmap.daemon.discovery.PortSource;
import io.railmap.daemon.discovery.SkipException;
import io.railmap.matrix.model.Names;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.PortState;
import io.railmap.matrix.model.Thunderbolt;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * Discovers a Mac's Thunderbolt ports from {@code system_profiler SPThunderboltDataType -json},
 * {@code networksetup -listallhardwareports}, {@code ibv_devinfo} and {@code rdma_ctl status}, all
 * run through one {@link CommandRunner}.
 *
 * <p>Each host bus with receptacle {@code N} is one port: hardware port {@code "Thunderbolt N"}
 * gives its netdev from the "Device:" line (the number of the receptacle says nothing about the
 * netdev: real machines map 1 → en1, 2 → en6, 3 → en2) and its address from "Ethernet Address:".
 * A receptacle with no such hardware port, or one without a Device line, is skipped with the
 * reason, linked or not.
 *
 * <ul>
 *   <li>kind {@code thunderbolt}, RDMA port 1;</li>
 *   <li>rate: the receptacle's linked speed in Gb/s ({@code current_speed_key} "80 Gb/s"); unknown
 *       when nothing is linked ("Up to 120 Gb/s");</li>
 *   <li>thunderbolt: receptacle, the bus's domain UUID, the link speed, and the peer host's name,
 *       domain UUID and whether it sits behind a hub (see {@link SystemProfilerThunderbolt});</li>
 *   <li>carrier: a peer host is linked (a dock or drive alone gives the IP interface no one to
 *       talk to); MTU and ifindex are not known;</li>
 *   <li>RDMA device: see {@link ThunderboltRdma};</li>
 *   <li>state: port 1's state in {@code ibv_devinfo} when it lists the device with a state; else
 *       {@code active} with carrier and {@code down} without.</li>
 * </ul>
 * The selection's exclude entries apply to the netdev and RDMA device names; include entries add
 * nothing on macOS, where only Thunderbolt ports are discovered.
 */
public final class ThunderboltPortSource implements PortSource {
    private final String node;
    private final CommandRunner runner;
    private final InterfaceSelection selection;

    /**
     * @param node      this node's name
     * @param runner    runs the commands (or reads their captures)
     * @param selection which ports to leave out
     * @throws IllegalArgumentException when the node name is bad
     */
    public ThunderboltPortSource(String node, CommandRunner runner, InterfaceSelection selection) {
        this.node = Names.node("node", node);
        this.runner = Objects.requireNonNull(runner, "runner");
        this.selection = Objects.requireNonNull(selection, "selection");
    }

    /**
     * @throws DiscoveryException when {@code system_profiler} or {@code networksetup} gives no
     *                            output, or output that does not follow its format (the message
     *                            names the command or capture file)
     */
    @Override
    public Discovery discover() throws DiscoveryException {
        List<JsonNode> buses = SystemProfilerThunderbolt.buses(required(MacCommand.SYSTEM_PROFILER));
        HardwarePorts hardwarePorts = HardwarePorts.parse(required(MacCommand.NETWORKSETUP));
        ThunderboltRdma rdma = ThunderboltRdma.read(runner);
        Discovery.Builder found = Discovery.builder(node);
        Set<Integer> receptacles = new HashSet<>();
        for (int i = 0; i < buses.size(); i++) {
            String label = SystemProfilerThunderbolt.label(buses.get(i), i);
            try {
                ThunderboltBus bus = SystemProfilerThunderbolt.bus(buses.get(i));
                Thunderbolt thunderbolt = bus.thunderbolt();
                if (!receptacles.add(thunderbolt.receptacle())) {
                    throw new SkipException("receptacle " + thunderbolt.receptacle() + " appears on two buses");
                }
                HardwarePort hardwarePort = hardwarePort(hardwarePorts, thunderbolt.receptacle());
                String netdev = hardwarePort.device().orElseThrow(() -> new SkipException(
                        "hardware port \"" + hardwarePort.name() + "\" has no Device line"));
                Optional<String> device = rdma.device(netdev);
                Optional<String> excluded = device.isPresent()
                        ? selection.excludedBy(netdev, device.get())
                        : selection.excludedBy(netdev);
                if (excluded.isPresent()) {
                    found.exclude(label, netdev + " excluded by interface selection entry \"" + excluded.get() + "\"");
                    continue;
                }
                PortState state = device.flatMap(rdma::state)
                        .orElse(bus.peerHost() ? PortState.ACTIVE : PortState.DOWN);
                found.add(port(netdev, device, state, thunderbolt, hardwarePort.ethernetAddress(), bus.peerHost()));
            } catch (SkipException e) {
                found.skip(label, e.getMessage());
            }
        }
        return found.build();
    }

    private CommandOutput required(MacCommand command) throws DiscoveryException {
        try {
            return runner.run(command);
        } catch (CommandException e) {
            throw new DiscoveryException(e.getMessage(), e);
        }
    }

    private static HardwarePort hardwarePort(HardwarePorts ports, int receptacle) throws SkipException {
        String name = "Thunderbolt " + receptacle;
        List<HardwarePort> named = ports.named(name);
        if (named.isEmpty()) {
            throw new SkipException("no hardware port \"" + name + "\" in networksetup -listallhardwareports");
        }
        if (named.size() > 1) {
            throw new SkipException(named.size() + " hardware ports named \"" + name + "\"");
        }
        return named.get(0);
    }

    private LocalPort port(String netdev, Optional<String> device, PortState state, Thunderbolt thunderbolt,
                           Optional<String> mac, boolean carrier) throws SkipException {
        try {
            Port port = new Port(node, netdev, device, 1, PortKind.THUNDERBOLT, thunderbolt.linkSpeedGbps(), state,
                    Optional.of(thunderbolt), List.of());
            return new LocalPort(port, mac, OptionalInt.empty(), OptionalInt.empty(), carrier, List.of());
        } catch (IllegalArgumentException e) {
            throw new SkipException(e.getMessage());
        }
    }
}
