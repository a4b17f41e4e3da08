package io.railmap.discovery.sources;

import io.railmap.matrix.model.IpAddresses;
import io.railmap.matrix.model.Names;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InterfaceAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * Which address the cluster binds to when {@code --bind} is not given:
 * <ol>
 *   <li>the IPv4 address of the interface that holds the default route (Linux), which on a cluster
 *       node is the management network;</li>
 *   <li>else the only IPv4 address of the machine that is neither loopback nor link-local
 *       ({@code 169.254/16}, which Thunderbolt and other cable ports get by themselves);</li>
 *   <li>else, with no such address at all, the loopback address: the daemon is a cluster of one;</li>
 *   <li>else (several candidates and no default route) no choice: {@code --bind} is required.</li>
 * </ol>
 * {@link #choose} is the pure rule; {@link #ofThisMachine} reads the interfaces and the route table.
 */
public final class ManagementAddress {
    private static final Path ROUTES = Path.of("/proc/net/route");

    private ManagementAddress() {
    }

    /**
     * One IPv4 address of an interface that is up.
     *
     * @param netdev  the interface name
     * @param address the address
     */
    public record Candidate(String netdev, InetAddress address) {
    }

    /**
     * A choice and why it was made.
     *
     * @param address the address to bind
     * @param reason  a phrase for the start-up log, e.g. {@code "the default route's interface eth0"}
     */
    public record Choice(InetAddress address, String reason) {
    }

    /**
     * @param candidates        IPv4 addresses of interfaces that are up, loopback included
     * @param defaultRouteNetdev the interface of the default route, when known
     * @return the address to bind and why
     * @throws IllegalArgumentException listing the candidates when several remain and none holds
     *                                  the default route
     */
    public static Choice choose(List<Candidate> candidates, Optional<String> defaultRouteNetdev) {
        List<Candidate> usable = new ArrayList<>();
        for (Candidate c : candidates) {
            if (c.address() instanceof Inet4Address && !c.address().isLoopbackAddress() && !c.address().isLinkLocalAddress()) {
                usable.add(c);
            }
        }
        if (defaultRouteNetdev.isPresent()) {
            for (Candidate c : usable) {
                if (c.netdev().equals(defaultRouteNetdev.get())) {
                    return new Choice(c.address(), "the address of " + c.netdev() + ", which holds the default route");
                }
            }
        }
        if (usable.size() == 1) {
            return new Choice(usable.get(0).address(), "the only address of this machine (on " + usable.get(0).netdev() + ")");
        }
        if (usable.isEmpty()) {
            return new Choice(InetAddress.getLoopbackAddress(), "no management address: this daemon is a cluster of one");
        }
        StringBuilder list = new StringBuilder();
        for (Candidate c : usable) {
            list.append(list.length() == 0 ? "" : ", ").append(c.address().getHostAddress()).append(" on ").append(c.netdev());
        }
        throw new IllegalArgumentException("--bind is required: this machine has several addresses (" + list
                + ") and none holds the default route; give the management address");
    }

    /**
     * @return the choice for this machine
     * @throws IllegalArgumentException as {@link #choose}, or when the interfaces cannot be listed
     */
    public static Choice ofThisMachine() {
        List<Candidate> candidates = new ArrayList<>();
        try {
            for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (!nic.isUp()) {
                    continue;
                }
                for (InterfaceAddress a : nic.getInterfaceAddresses()) {
                    if (a.getAddress() instanceof Inet4Address) {
                        candidates.add(new Candidate(nic.getName(), a.getAddress()));
                    }
                }
            }
        } catch (SocketException e) {
            throw new IllegalArgumentException("cannot list this machine's interfaces to pick --bind: " + e.getMessage());
        }
        return choose(candidates, defaultRouteNetdev());
    }

    /**
     * @param text the contents of {@code /proc/net/route}
     * @return the interface of the first default route (destination and mask 0), if any
     */
    static Optional<String> defaultRouteNetdev(String text) {
        for (String line : text.split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length >= 8 && f[1].equals("00000000") && f[7].equals("00000000")) {
                return Optional.of(f[0]);
            }
        }
        return Optional.empty();
    }

    private static Optional<String> defaultRouteNetdev() {
        try {
            return Files.isReadable(ROUTES) ? defaultRouteNetdev(Files.readString(ROUTES)) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /**
     * The management address a record carries: the address the cluster binds, unless that is the
     * loopback address (a cluster of one, which no other node can reach) or the wildcard.
     *
     * @param bound the cluster's bind address
     * @return its text ({@link io.railmap.matrix.model.IpAddresses#canonical}, without a zone), or
     *         empty for loopback or the wildcard
     */
    public static Optional<String> ofRecord(InetAddress bound) {
        if (bound.isLoopbackAddress() || bound.isAnyLocalAddress()) {
            return Optional.empty();
        }
        String text = bound.getHostAddress();
        int zone = text.indexOf('%');
        return Optional.of(IpAddresses.canonical("management address", zone < 0 ? text : text.substring(0, zone)));
    }

    /**
     * The management address a record made without a daemon carries ({@code railmap discover}): the
     * one the daemon would bind by default ({@link #ofThisMachine}), or empty when that rule picks
     * none (loopback) or cannot choose. Never fails.
     *
     * @return the address, or empty
     */
    public static Optional<String> defaultForRecord() {
        try {
            return ofRecord(ofThisMachine().address());
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /**
     * Checks that an address given with {@code --bind} belongs to this machine.
     *
     * @param text the address as given
     * @return the address
     * @throws IllegalArgumentException naming {@code --bind} when it is not an IP literal or not an
     *                                  address of this machine
     */
    public static InetAddress parseLocal(String text) {
        InetAddress address = literal("--bind", text);
        if (address.isAnyLocalAddress()) {
            throw new IllegalArgumentException("--bind " + text + " is the wildcard address; give the one management address");
        }
        requireLocal("--bind", text, address);
        return address;
    }

    /**
     * @param what    the flag, for messages
     * @param text    the address as given
     * @param address the address
     * @throws IllegalArgumentException naming the flag when no interface of this machine has the address
     */
    public static void requireLocal(String what, String text, InetAddress address) {
        try {
            if (NetworkInterface.getByInetAddress(address) == null) {
                throw new IllegalArgumentException(what + " " + text + " is not an address of this machine");
            }
        } catch (SocketException e) {
            throw new IllegalArgumentException(what + " " + text + ": cannot check this machine's addresses: " + e.getMessage());
        }
    }

    /**
     * @param what the flag, for messages
     * @param text an IPv4 or IPv6 literal (IPv6 with or without brackets); never a host name
     * @return the address
     * @throws IllegalArgumentException naming the flag when the text is not an IP literal
     */
    public static InetAddress literal(String what, String text) {
        String bare = text.strip();
        if (bare.startsWith("[") && bare.endsWith("]")) {
            bare = bare.substring(1, bare.length() - 1);
        }
        boolean ipv4 = bare.matches("(25[0-5]|2[0-4][0-9]|1?[0-9]?[0-9])(\\.(25[0-5]|2[0-4][0-9]|1?[0-9]?[0-9])){3}");
        boolean ipv6 = bare.indexOf(':') >= 0 && bare.matches("[0-9A-Fa-f:.]+(%[A-Za-z0-9_.-]+)?");
        if (!ipv4 && !ipv6) {
            throw new IllegalArgumentException(what + " \"" + Names.escape(text) + "\" is not an IP address (IPv4 a.b.c.d or IPv6)");
        }
        try {
            return InetAddress.getByName(bare);
        } catch (IOException e) {
            throw new IllegalArgumentException(what + " \"" + Names.escape(text) + "\" is not an IP address: " + e.getMessage());
        }
    }
}
