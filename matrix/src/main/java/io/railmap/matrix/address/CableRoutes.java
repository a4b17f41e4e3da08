package io.railmap.matrix.address;

import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.topology.Cable;
import io.railmap.matrix.topology.Topology;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Whether a TCP connection meant for a cable travels it. MLX's ring backend, for one, connects to an
 * address of the far end without binding a source ({@code TCPSocket::connect} in MLX's
 * {@code mlx/distributed/utils.cpp}), so the connecting node's kernel picks the port ({@link Routes}),
 * and the listening node's kernel picks the port of every answer, towards the source address the
 * first chose (an address of the port it left by, in the subnet of its route). Both must be the
 * cable's own ports: then the connection is <em>pinned</em> to the cable.
 */
public final class CableRoutes {
    private CableRoutes() {
    }

    /** What a connection over a cable does. */
    public sealed interface Verdict permits Pinned, Strays, Unknown {
    }

    /**
     * The connection travels the cable.
     *
     * @param address the listening end's address the connection goes to
     * @param source  the connecting end's address it comes from
     */
    public record Pinned(String address, String source) implements Verdict {
    }

    /**
     * The connection may leave by another port than the cable's, or cannot reach the far end.
     *
     * @param ports   the cable's two ends, then the other ports the connection may take
     * @param reason  a sentence naming the node, the address, the ports and the subnet they share
     * @param mismatch true when the two ends share no subnet (the far end is out of reach), false when
     *                 several ports of a node hold the subnet (the wire may travel another cable)
     */
    public record Strays(List<PortRef> ports, String reason, boolean mismatch) implements Verdict {
        /** Copies the list, keeping the first of each port. */
        public Strays {
            ports = List.copyOf(new LinkedHashSet<>(ports));
        }
    }

    /**
     * The records do not say enough: an address without a known prefix length.
     *
     * @param reason a sentence naming the node
     */
    public record Unknown(String reason) implements Verdict {
    }

    /**
     * Judges a connection from the far end of {@code cable} to {@code address} on {@code to}.
     *
     * @param topology every record and cable
     * @param cable    a cable
     * @param to       the cable's listening end
     * @param address  an IPv4 address of {@code to}
     * @return whether the connection and its answers travel the cable
     * @throws IllegalArgumentException when {@code to} is not an end of the cable or the address is not IPv4
     */
    public static Verdict connection(Topology topology, Cable cable, PortRef to, String address) {
        PortRef from = cable.farEnd(to);
        Routes.Egress out = Routes.egress(topology.ports(from.node()), address);
        Optional<Verdict> wrong = judge(topology, cable, from, address, to, out);
        if (wrong.isPresent()) {
            return wrong.get();
        }
        Port fromPort = topology.port(from).orElseThrow();
        String source = fromPort.ipv4().stream().filter(a -> out.subnet().orElseThrow().contains(a)).findFirst().orElseThrow();
        Routes.Egress back = Routes.egress(topology.ports(to.node()), source);
        return judge(topology, cable, to, source, from, back).orElse(new Pinned(address, source));
    }

    /**
     * The first address of {@code to} (in record order) whose connection is pinned to the cable, or
     * else the verdict on its first IPv4 address.
     *
     * @param topology every record and cable
     * @param cable    a cable
     * @param to       the cable's listening end, with at least one IPv4 address
     * @return the verdict
     * @throws IllegalArgumentException when {@code to} is not an end of the cable or has no IPv4 address
     */
    public static Verdict best(Topology topology, Cable cable, PortRef to) {
        List<String> addresses = topology.port(to).map(Port::ipv4).orElse(List.of());
        if (addresses.isEmpty()) {
            throw new IllegalArgumentException(to + " has no IPv4 address");
        }
        List<Verdict> verdicts = new ArrayList<>();
        for (String address : addresses) {
            Verdict v = connection(topology, cable, to, address);
            if (v instanceof Pinned) {
                return v;
            }
            verdicts.add(v);
        }
        return verdicts.get(0);
    }

    /**
     * @return why a connection from {@code from} to {@code address} (on {@code to}) does not surely leave by {@code from}, if it
     *         does not; the ports of a verdict are those its sentence names, in the order it first names them
     */
    private static Optional<Verdict> judge(Topology topology, Cable cable, PortRef from, String address, PortRef to, Routes.Egress out) {
        if (out.surely(from)) {
            return Optional.empty();
        }
        String node = from.node();
        String what = "a connection from " + node + " to " + address + " (" + to + ", on cable " + cable + ")";
        List<PortRef> named = new ArrayList<>(List.of(to, cable.a(), cable.b()));
        if (out.local()) {
            return Optional.of(new Strays(named, what + " never leaves " + node + ": " + node + " holds " + address
                    + " itself; give every cable end an address of its own (railmap addresses)", true));
        }
        if (out.unknown()) {
            return Optional.of(new Unknown(node + "'s record does not say the prefix length of every address (a railmapd before snapshot"
                    + " format 5), so whether " + what + " travels its cable cannot be told"));
        }
        if (out.ports().isEmpty()) {
            return Optional.of(new Strays(named, what + " finds no subnet of " + node + "'s ports that holds " + address + ": the cable's"
                    + " two ends share no subnet, so it goes by another route or fails; give both ends addresses in one subnet of their"
                    + " own (railmap addresses)", true));
        }
        String assumed = out.assumed() ? " (a record that does not say prefix lengths: a link-local address taken as a /16, RFC 3927)" : "";
        named.addAll(out.ports());
        if (!out.ports().contains(from)) {
            named.add(from);
            return Optional.of(new Strays(named, what + " leaves " + node + " by " + names(out.ports()) + ", whose subnet "
                    + out.subnet().orElseThrow() + " is the longest that holds " + address + ", not by " + from + assumed
                    + "; give each cable a subnet of its own (railmap addresses)", false));
        }
        List<Cable> others = out.ports().stream().filter(p -> !p.equals(from)).flatMap(p -> topology.cableAt(p).stream()).toList();
        others.forEach(c -> named.addAll(List.of(c.a(), c.b())));
        return Optional.of(new Strays(named, what + " may leave " + node + " by any of " + names(out.ports()) + ", which all hold "
                + out.subnet().orElseThrow() + assumed + ": the kernel takes the first of equal routes, so the wire may travel "
                + (others.isEmpty() ? "another port" : others.stream().map(c -> "cable " + c).collect(Collectors.joining(" or ")))
                + "; give each cable a subnet of its own (railmap addresses)", false));
    }

    private static String names(List<PortRef> ports) {
        return ports.stream().map(PortRef::toString).collect(Collectors.joining(", "));
    }
}
