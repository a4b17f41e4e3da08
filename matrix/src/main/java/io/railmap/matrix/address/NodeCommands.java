package io.railmap.matrix.address;

import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.model.EnumNames;
import io.railmap.matrix.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The commands that apply an {@link AddressPlan} on one node, as root; railmap prints them and never
 * runs them. Each planned port's IPv4 addresses are replaced by its address of the plan, and a port
 * that a bridge holds leaves it (jaccl needs an RDMA port outside {@code bridge0}; a bridged port's
 * address would be the bridge's). The changes last until the interface is reconfigured or the node
 * restarts, as {@code mlx.distributed_config --auto-setup}'s do.
 *
 * <ul>
 * <li>Linux (iproute2): {@code ip link set DEV nomaster}, {@code ip -4 addr flush dev DEV},
 *     {@code ip addr add A/30 dev DEV}.</li>
 * <li>macOS: {@code ifconfig BRIDGE deletem DEV}, then {@code ifconfig DEV inet A netmask 255.255.255.252},
 *     which replaces the interface's primary IPv4 address: the command
 *     {@code IPConfigurator.setup} in MLX's {@code python/mlx/_distributed_utils/config.py} runs for each
 *     Thunderbolt cable. (It also runs {@code route change PEER -interface DEV}; railmap leaves that out:
 *     the /30 is the longest route to the peer, and {@code route change} fails where no host route
 *     exists yet.) Untested on a Mac: no Mac runs here.</li>
 * </ul>
 */
public final class NodeCommands {
    /** The operating system whose commands to write. */
    public enum Os {
        /** iproute2 on Linux. */
        LINUX,
        /** ifconfig on macOS. */
        MACOS;

        /** @return the name as written on the command line and in JSON ({@code linux}, {@code macos}) */
        public String externalName() {
            return EnumNames.of(this);
        }

        /**
         * @param text {@code linux} or {@code macos}, any case
         * @return the OS
         * @throws IllegalArgumentException naming the value and both names when it is neither
         */
        public static Os parse(String text) {
            return EnumNames.parse(Os.class, "OS", text);
        }
    }

    private NodeCommands() {
    }

    /**
     * A node runs macOS when its record has a port whose Thunderbolt facts came from
     * {@code system_profiler} (only railmapd on a Mac reports them without an XDomain); Linux otherwise.
     *
     * @param topology every record
     * @param node     a node with a record
     * @return the node's OS as far as its record tells
     */
    public static Os guess(Topology topology, String node) {
        return topology.ports(node).stream().anyMatch(p -> p.appleThunderbolt() && p.thunderbolt().isPresent())
                ? Os.MACOS : Os.LINUX;
    }

    /**
     * @param topology every record (for each port's bridge)
     * @param plan     the plan
     * @param node     the node
     * @param os       its operating system
     * @return the node's commands, in plan order; empty when the plan has no port of the node
     */
    public static List<String> of(Topology topology, AddressPlan plan, String node, Os os) {
        List<String> out = new ArrayList<>();
        for (AddressPlan.Assignment link : plan.links()) {
            for (PortRef end : link.link().ends()) {
                if (!end.node().equals(node)) {
                    continue;
                }
                String dev = end.netdev();
                String address = link.address(end);
                Optional<String> bridge = topology.port(end).flatMap(Port::bridge);
                if (os == Os.LINUX) {
                    bridge.ifPresent(b -> out.add("ip link set " + dev + " nomaster"));
                    out.add("ip -4 addr flush dev " + dev);
                    out.add("ip addr add " + address + "/" + link.subnet().prefixLength() + " dev " + dev);
                } else {
                    bridge.ifPresent(b -> out.add("ifconfig " + b + " deletem " + dev));
                    out.add("ifconfig " + dev + " inet " + address + " netmask " + link.subnet().netmask());
                }
            }
        }
        return out;
    }

    /** @return the OS name for people ({@code Linux}, {@code macOS}) */
    public static String shown(Os os) {
        return os == Os.LINUX ? "Linux" : "macOS";
    }
}
