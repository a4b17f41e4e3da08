package io.railmap.matrix.address;

import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Which of a node's ports a connection to an IPv4 address leaves by, as the kernel chooses: the
 * longest prefix among the subnets of the node's port addresses that hold the destination (each
 * address puts its subnet's route on its port: the connected routes of Linux's {@code main} table,
 * macOS's interface routes). When several ports hold a subnet of that length, which one the kernel
 * takes depends on the order the routes were made in (Linux keeps the first of equal routes; so
 * does macOS), so no port is sure. A destination the node holds itself never leaves it.
 *
 * <p>Only the ports in the node's record count (its cable and RDMA ports), not its management
 * interface or others: a record names no other. A port counts whatever its state (Linux keeps the
 * routes of a port without carrier, marked {@code linkdown}, and uses them).
 *
 * <p>A prefix length comes from the record ({@link Port#prefixLength}); a record before snapshot
 * format 5 says none, and then an address in 169.254.0.0/16 is taken as a /16, the length RFC 3927
 * (section 2.1) gives a link-local address and what macOS self-assigns a Thunderbolt port, while
 * any other address leaves the answer {@link Egress#unknown() unknown}.
 */
public final class Routes {
    private Routes() {
    }

    /**
     * How a node sends to one destination.
     *
     * @param ports        the ports holding the longest matching subnet: one when the route is sure,
     *                     several when it is not, none when no port's subnet holds the destination
     *                     (or it is local, or unknown)
     * @param subnet       that subnet, for messages; empty when no port holds one
     * @param local        true when the node holds the destination address itself
     * @param unknown      true when a port's address has no known prefix length, so the answer could differ
     * @param assumed      true when a link-local address without a known prefix length was taken as a /16
     */
    public record Egress(List<PortRef> ports, Optional<Ipv4Subnet> subnet, boolean local, boolean unknown, boolean assumed) {
        /** Copies the list. */
        public Egress {
            ports = List.copyOf(ports);
        }

        /** @return true when the connection surely leaves by {@code port} */
        public boolean surely(PortRef port) {
            return !local && !unknown && ports.equals(List.of(port));
        }
    }

    /**
     * @param ports       the node's ports, in record order
     * @param destination an IPv4 address
     * @return how the node sends to it
     * @throws IllegalArgumentException when the destination is not IPv4
     */
    public static Egress egress(List<Port> ports, String destination) {
        Ipv4Subnet.number(destination);
        int longest = -1;
        List<PortRef> best = new ArrayList<>();
        Optional<Ipv4Subnet> subnet = Optional.empty();
        boolean unknown = false;
        boolean assumed = false;
        for (Port port : ports) {
            for (String address : port.ipv4()) {
                if (address.equals(destination)) {
                    return new Egress(List.of(), Optional.empty(), true, false, false);
                }
                Optional<Integer> length = port.prefixLength(address);
                if (length.isEmpty()) {
                    if (!Ipv4Subnet.LINK_LOCAL.contains(address)) {
                        unknown = true;
                        continue;
                    }
                    assumed = true;
                }
                Ipv4Subnet held = Ipv4Subnet.of(address, length.orElse(Ipv4Subnet.LINK_LOCAL.prefixLength()));
                if (!held.contains(destination) || held.prefixLength() < longest) {
                    continue;
                }
                if (held.prefixLength() > longest) {
                    longest = held.prefixLength();
                    best.clear();
                    subnet = Optional.of(held);
                }
                if (!best.contains(port.ref())) {
                    best.add(port.ref());
                }
            }
        }
        return new Egress(best, subnet, false, unknown, assumed);
    }
}
