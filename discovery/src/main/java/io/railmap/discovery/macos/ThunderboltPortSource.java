package io.railmap.discovery.macos;

import com.fasterxml.jackson.databind.JsonNode;
import io.railmap.discovery.model.AssumedRdma;
import io.railmap.discovery.model.Discovery;
import io.railmap.discovery.model.DiscoveryException;
import io.railmap.discovery.model.InterfaceSelection;
import io.railmap.discovery.model.LocalPort;
import io.railmap.discovery.model.PortAddresses;
import io.railmap.discovery.model.PortSource;
import io.railmap.discovery.model.Quote;
import io.railmap.discovery.model.SkipException;
import io.railmap.matrix.model.Names;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.RdmaLimits;
import io.railmap.matrix.model.PortState;
import io.railmap.matrix.model.Thunderbolt;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Pattern;

/**
 * Discovers a Mac's Thunderbolt ports from {@code system_profiler SPThunderboltDataType -json},
 * {@code networksetup -listallhardwareports}, {@code ibv_devinfo}, {@code rdma_ctl status} and
 * {@code ifconfig -a}, all run through one {@link CommandRunner}.
 *
 * <p>Each host bus with receptacle {@code N} is one port: hardware port {@code "Thunderbolt N"}
 * gives its netdev from the "Device:" line (the number of the receptacle says nothing about the
 * netdev: real machines map 1 → en1, 2 → en6, 3 → en2) and its address from "Ethernet Address:".
 * A receptacle with no such hardware port, several, or one without a usable Device line, is
 * skipped with the reason, linked or not. Two buses that claim one receptacle are both skipped,
 * each with a reason naming both: which of them "Thunderbolt N" belongs to cannot be told.
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
 *       {@code active} with carrier and {@code down} without;</li>
 *   <li>addresses: the {@code inet} and {@code inet6} lines of the netdev's block in
 *       {@code ifconfig -a} ({@link Ifconfig}, {@link PortAddresses}); unknown when {@code ifconfig}
 *       gives no output or no block for the netdev;</li>
 *   <li>bridge: the bridge whose {@code member:} line names the netdev ({@code bridge0}, the
 *       Thunderbolt Bridge); none when no bridge lists it or {@code ifconfig} gives no output;</li>
 *   <li>RDMA limits: the device's {@code max_qp}, {@code max_pd}, {@code max_mr}, {@code max_cqe} in
 *       {@code ibv_devinfo -v} ({@link io.railmap.discovery.model.IbvDevinfo}); none when it does not print them.</li>
 * </ul>
 * The node's {@code rdmaEnabled} is what {@code rdma_ctl status} prints. A netdev without an RDMA
 * device that the {@link AssumedRdma} rule selects is given {@code rdma_<netdev>} (labs and tests).
 * The selection's exclude entries apply to the netdev and RDMA device names; include entries add
 * nothing on macOS, where only Thunderbolt ports are discovered.
 */
public final class ThunderboltPortSource implements PortSource {
    /** 2 to 32 hex bytes, as {@link LocalPort} takes them. */
    private static final Pattern MAC = Pattern.compile("[0-9a-f]{2}(:[0-9a-f]{2}){1,31}");
    private final String node;
    private final CommandRunner runner;
    private final InterfaceSelection selection;
    private final AssumedRdma assumed;

    /**
     * @param node      this node's name
     * @param runner    runs the commands (or reads their captures)
     * @param selection which ports to leave out
     * @param assumed   which netdevs without an RDMA device get an assumed one
     * @throws IllegalArgumentException when the node name is bad
     */
    public ThunderboltPortSource(String node, CommandRunner runner, InterfaceSelection selection, AssumedRdma assumed) {
        this.node = Names.node("node", node);
        this.runner = Objects.requireNonNull(runner, "runner");
        this.selection = Objects.requireNonNull(selection, "selection");
        this.assumed = Objects.requireNonNull(assumed, "assumed");
    }

    /**
     * Without assumed RDMA devices.
     *
     * @throws IllegalArgumentException when the node name is bad
     */
    public ThunderboltPortSource(String node, CommandRunner runner, InterfaceSelection selection) {
        this(node, runner, selection, AssumedRdma.none());
    }

    /**
     * @throws DiscoveryException when {@code system_profiler} or {@code networksetup} gives no
     *                            output, or output that does not follow its format at all (the
     *                            message names the command or capture file)
     */
    @Override
    public Discovery discover() throws DiscoveryException {
        CommandOutput profile = required(MacCommand.SYSTEM_PROFILER);
        List<JsonNode> buses = SystemProfilerThunderbolt.buses(profile);
        HardwarePorts hardwarePorts = HardwarePorts.parse(required(MacCommand.NETWORKSETUP));
        ThunderboltRdma rdma = ThunderboltRdma.read(runner);
        Optional<Ifconfig> ifconfig;
        Discovery.Builder found = Discovery.builder(node);
        hardwarePorts.notes().forEach(found::note);
        rdma.note().ifPresent(found::note);
        rdma.enabled().ifPresent(found::rdmaEnabled);
        try {
            ifconfig = Optional.of(Ifconfig.parse(runner.run(MacCommand.IFCONFIG)));
            ifconfig.get().notes().forEach(found::note);
        } catch (CommandException e) {
            ifconfig = Optional.empty();
            found.note("addresses and bridges unknown: " + e.getMessage());
        }
        Map<Integer, List<String>> claimants = new HashMap<>();
        List<Bus> read = new ArrayList<>();
        for (int i = 0; i < buses.size(); i++) {
            JsonNode json = buses.get(i);
            String name = json.path("_name").isTextual() ? Quote.value(json.path("_name").asText()) : "#" + i;
            Bus bus = new Bus(SystemProfilerThunderbolt.label(json, i), profile.source() + ": bus " + name);
            try {
                bus.parsed = SystemProfilerThunderbolt.bus(json, bus.where);
                claimants.computeIfAbsent(bus.parsed.thunderbolt().receptacle(), r -> new ArrayList<>()).add(name);
            } catch (SkipException e) {
                found.skip(bus.label, e.getMessage());
                continue;
            }
            read.add(bus);
        }
        for (Bus bus : read) {
            Thunderbolt thunderbolt = bus.parsed.thunderbolt();
            List<String> claims = claimants.get(thunderbolt.receptacle());
            if (claims.size() > 1) {
                found.skip(bus.label, profile.source() + ": receptacle " + thunderbolt.receptacle() + " is claimed by "
                        + claims.size() + " buses (" + String.join(", ", claims) + "): none of them is reported");
                continue;
            }
            try {
                HardwarePort hardwarePort = hardwarePort(hardwarePorts, thunderbolt.receptacle());
                String netdev = hardwarePort.device().orElseThrow(() -> new SkipException(
                        "hardware port " + Quote.value(hardwarePort.name()) + " has no Device line in "
                                + MacCommand.NETWORKSETUP));
                Optional<String> device = rdma.device(netdev).or(() -> assumed.device(netdev));
                Optional<String> excluded = device.isPresent()
                        ? selection.excludedBy(netdev, device.get())
                        : selection.excludedBy(netdev);
                if (excluded.isPresent()) {
                    found.exclude(bus.label, netdev + " excluded by interface selection entry " + Quote.value(excluded.get()));
                    continue;
                }
                PortState state = device.isPresent() ? rdma.state(device.get()).orElse(null) : null;
                if (state == null) {
                    state = bus.parsed.peerHost() ? PortState.ACTIVE : PortState.DOWN;
                }
                List<String> notes = new ArrayList<>(bus.parsed.notes());
                Optional<String> mac = mac(hardwarePort, notes);
                Optional<PortAddresses.Listed> addresses = addresses(ifconfig, netdev, notes);
                Optional<String> bridge = ifconfig.flatMap(i -> i.bridge(netdev));
                Optional<RdmaLimits> limits = device.isPresent() ? rdma.limits(device.get(), notes) : Optional.empty();
                found.add(port(netdev, device, state, thunderbolt, addresses, bridge, limits, mac, bus.parsed.peerHost()), notes);
            } catch (SkipException e) {
                found.skip(bus.label, e.getMessage());
            }
        }
        return found.build();
    }

    /** One bus of system_profiler's output, as it is read. */
    private static final class Bus {
        private final String label;
        private final String where;
        private ThunderboltBus parsed;

        Bus(String label, String where) {
            this.label = label;
            this.where = where;
        }
    }

    private CommandOutput required(MacCommand command) throws DiscoveryException {
        try {
            return runner.run(command);
        } catch (CommandException e) {
            throw new DiscoveryException(e.getMessage(), e);
        }
    }

    /**
     * @return the one hardware port "Thunderbolt N"
     * @throws SkipException when there is none, several, or its block has a problem
     */
    private static HardwarePort hardwarePort(HardwarePorts ports, int receptacle) throws SkipException {
        String name = "Thunderbolt " + receptacle;
        List<HardwarePort> named = ports.named(name);
        if (named.isEmpty()) {
            throw new SkipException("no hardware port \"" + name + "\" in " + MacCommand.NETWORKSETUP);
        }
        if (named.size() > 1) {
            throw new SkipException(named.size() + " hardware ports named \"" + name + "\" in " + MacCommand.NETWORKSETUP);
        }
        HardwarePort port = named.get(0);
        if (port.problem().isPresent()) {
            throw new SkipException("hardware port \"" + name + "\": " + port.problem().get());
        }
        return port;
    }

    /** The Ethernet Address of a hardware port, dropped to unknown with a note when it is no address. */
    private static Optional<String> mac(HardwarePort port, List<String> notes) {
        Optional<String> mac = port.ethernetAddress().map(m -> m.toLowerCase(Locale.ROOT));
        if (mac.isPresent() && !MAC.matcher(mac.get()).matches()) {
            notes.add("hardware address unknown: " + MacCommand.NETWORKSETUP + ": hardware port " + Quote.value(port.name())
                    + ": Ethernet Address " + Quote.value(port.ethernetAddress().get()) + " is not hex bytes separated by ':'");
            return Optional.empty();
        }
        return mac;
    }

    /** The netdev's addresses from its ifconfig block; unknown, with a note, when the output has none for it. */
    private static Optional<PortAddresses.Listed> addresses(Optional<Ifconfig> ifconfig, String netdev, List<String> notes) {
        if (ifconfig.isEmpty()) {
            return Optional.empty();
        }
        Optional<List<String>> listed = ifconfig.get().addresses(netdev);
        if (listed.isEmpty()) {
            notes.add("addresses unknown: " + ifconfig.get().source() + " has no single block for " + netdev);
            return Optional.empty();
        }
        return Optional.of(PortAddresses.of(ifconfig.get().source(), listed.get(), notes));
    }

    private LocalPort port(String netdev, Optional<String> device, PortState state, Thunderbolt thunderbolt,
                           Optional<PortAddresses.Listed> addresses, Optional<String> bridge, Optional<RdmaLimits> limits,
                           Optional<String> mac, boolean carrier)
            throws SkipException {
        try {
            Port port = new Port(node, netdev, device, 1, PortKind.THUNDERBOLT, thunderbolt.linkSpeedGbps(), state,
                    Optional.of(thunderbolt), addresses.map(PortAddresses.Listed::addresses).orElse(List.of()),
                    addresses.map(PortAddresses.Listed::prefixLengths).orElse(Map.of()), addresses.isPresent(), bridge, Optional.empty(),
                    Optional.empty(), Optional.empty(), limits, List.of());
            return new LocalPort(port, mac, OptionalInt.empty(), OptionalInt.empty(), carrier, List.of());
        } catch (IllegalArgumentException e) {
            throw new SkipException(Names.escape(e.getMessage(), Quote.PATH_CHARS));
        }
    }
}
