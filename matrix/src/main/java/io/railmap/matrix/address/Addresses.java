package io.railmap.matrix.address;

import io.railmap.matrix.model.Names;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.topology.Topology;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The IPv4 addresses and ports that jaccl and mlx.launch accept: validation, and the defaults taken
 * from the records (a node's management address, {@link NodeRecord#management()}).
 */
public final class Addresses {
    /**
     * mlx.launch's default {@code --starting-port}: the jaccl coordinator's port when none is given,
     * and the first port of the TCP ring's listen addresses.
     */
    public static final int STARTING_PORT = 32323;

    private Addresses() {
    }

    /**
     * @param topology the cable graph, whose records carry management addresses
     * @param node     a node
     * @return the node's management address when its record has one and it is IPv4 (jaccl's coordinator
     *         and mlx.launch's {@code ips} take IPv4 only)
     */
    public static Optional<String> managementIpv4(Topology topology, String node) {
        return topology.record(node).flatMap(NodeRecord::management).filter(a -> a.indexOf(':') < 0);
    }

    /**
     * @param topology the cable graph
     * @param rank0    the node of rank 0
     * @return {@code MLX_JACCL_COORDINATOR} when none is given: rank 0's IPv4 management address and
     *         {@value #STARTING_PORT}; empty when its record has none
     */
    public static Optional<String> defaultCoordinator(Topology topology, String rank0) {
        return managementIpv4(topology, rank0).map(ip -> ip + ":" + STARTING_PORT);
    }

    /**
     * {@link #defaultCoordinator}, or why there is none.
     *
     * @param topology the cable graph
     * @param ranks    node names in rank order
     * @return {@code IPv4:port}
     * @throws IllegalArgumentException when rank 0's record has no IPv4 management address
     */
    public static String coordinator(Topology topology, List<String> ranks) {
        String first = ranks.get(0);
        return defaultCoordinator(topology, first).orElseThrow(() ->
                new IllegalArgumentException("the env needs a coordinator, IPV4:PORT that rank 0 binds (MLX_JACCL_COORDINATOR), and rank 0 ("
                        + first + ") has no IPv4 management address in its record (" + why(topology, first) + "): pass --coordinator IPV4:PORT"));
    }

    /**
     * mlx.launch's {@code ips} for every rank: the address given for it, else its management address.
     *
     * @param topology the cable graph
     * @param ranks    node names in rank order
     * @param given    addresses given by hand ({@code --ip NODE=IPV4}); they win
     * @return node → IPv4 address, for the ranks that have one, rank 0 always
     * @throws IllegalArgumentException when a given address is not IPv4, or rank 0 has no address
     */
    public static Map<String, String> launchIps(Topology topology, List<String> ranks, Map<String, String> given) {
        given.forEach((node, ip) -> ipv4("address of " + node, ip));
        Map<String, String> ips = new LinkedHashMap<>();
        for (String node : ranks) {
            Optional.ofNullable(given.get(node)).or(() -> managementIpv4(topology, node)).ifPresent(ip -> ips.put(node, ip));
        }
        String first = ranks.get(0);
        if (!ips.containsKey(first)) {
            throw new IllegalArgumentException("an mlx.launch hostfile needs the IPv4 address of rank 0 (" + first
                    + "), which mlx.launch uses as the coordinator, and its record has none (" + why(topology, first)
                    + "): pass --ip " + first + "=ADDRESS");
        }
        return ips;
    }

    private static String why(Topology topology, String node) {
        return topology.record(node).flatMap(NodeRecord::management)
                .map(a -> "its management address " + a + " is IPv6")
                .orElse("a record from a railmapd before format version 2, or a daemon without a management network");
    }

    /**
     * @param what  what the value is, for the message (e.g. {@code "--coordinator"})
     * @param value a dotted-quad IPv4 address such as {@code 10.0.0.1}
     * @return the value
     * @throws IllegalArgumentException when the value is not four numbers 0–255 separated by dots
     */
    public static String ipv4(String what, String value) {
        String[] parts = value.split("\\.", -1);
        boolean ok = parts.length == 4;
        for (int i = 0; ok && i < 4; i++) {
            ok = parts[i].matches("[0-9]{1,3}") && Integer.parseInt(parts[i]) <= 255;
        }
        if (!ok) {
            throw new IllegalArgumentException(what + ": \"" + Names.escape(value) + "\" is not an IPv4 address such as 10.0.0.1 "
                    + "(jaccl's coordinator and mlx.launch's ips take IPv4 only)");
        }
        return value;
    }

    /**
     * @param what  what the value is, for the message
     * @param value {@code IPv4:port}, such as {@code 10.0.0.1:32323}
     * @return the value
     * @throws IllegalArgumentException when the address or the port (1–65535) is malformed
     */
    public static String ipv4AndPort(String what, String value) {
        int colon = value.lastIndexOf(':');
        if (colon < 0 || !value.substring(colon + 1).matches("[0-9]{1,5}")
                || Integer.parseInt(value.substring(colon + 1)) < 1 || Integer.parseInt(value.substring(colon + 1)) > 65535) {
            throw new IllegalArgumentException(what + ": \"" + Names.escape(value) + "\" is not IPV4:PORT such as 10.0.0.1:32323");
        }
        ipv4(what, value.substring(0, colon));
        return value;
    }
}
