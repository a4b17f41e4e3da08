package io.railmap.daemon.probe;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything the probe needs to know: who this daemon is, where hellos go, and how often.
 *
 * @param cluster     the cluster name; hellos of other clusters are dropped. Rules of
 *                    {@link ProbeDatagram#cluster()}
 * @param node        this node's name. Rules of {@link ProbeDatagram#node()}
 * @param incarnation this run of the daemon; must grow from one start to the next (the start time
 *                    in ms since the epoch is a fine choice). ≥ 0
 * @param management  this daemon's HTTP API as {@code host:port}, advertised in every hello
 * @param group       the IPv6 multicast group, a literal with link-local scope ({@code ff02::/16}).
 *                    Default {@value #DEFAULT_GROUP} ("ra" "il" in ASCII). Every node of a cluster
 *                    must use the same group
 * @param udpPort     the UDP port hellos are sent to and received on; 1–65535 but never 4791
 *                    (RoCEv2). Default {@value #DEFAULT_UDP_PORT}
 * @param timing      intervals and TTL; default {@link ProbeTiming#DEFAULTS}
 * @param key         the probe key derived from the cluster key: present, every hello sent is
 *                    authenticated and only authenticated hellos are taken; empty (no cluster key),
 *                    hellos are plain and anyone on a cable can forge one (see {@code PROBE.md})
 * @param limits      how much the probe holds; default {@link ProbeLimits#DEFAULTS}
 */
public record ProbeConfig(
        String cluster,
        String node,
        long incarnation,
        String management,
        String group,
        int udpPort,
        ProbeTiming timing,
        Optional<ProbeKey> key,
        ProbeLimits limits) {

    /** The default multicast group. */
    public static final String DEFAULT_GROUP = "ff02::7261:696c";
    /** The default UDP port. */
    public static final int DEFAULT_UDP_PORT = 7245;
    /** RoCEv2's UDP port, which the probe must never use. */
    public static final int ROCE_V2_PORT = 4791;

    /**
     * Validates the configuration.
     *
     * @throws NullPointerException     when a field is null
     * @throws IllegalArgumentException when a name, the incarnation, the management address, the
     *                                  group (not an IPv6 link-local multicast literal) or the port
     *                                  is invalid
     */
    public ProbeConfig {
        Objects.requireNonNull(timing, "timing");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(limits, "limits");
        // One hello built from these values checks names, incarnation and management address.
        new ProbeDatagram(cluster, node, "probe", Optional.empty(), "00", incarnation, 1, management, 0);
        checkGroup(group);
        if (udpPort < 1 || udpPort > 65535 || udpPort == ROCE_V2_PORT) {
            throw new IllegalArgumentException("probe UDP port " + udpPort + " is outside 1..65535 or is RoCEv2's 4791");
        }
    }

    /**
     * The configuration for daemons on real cables: default group, port, timing and limits, no key.
     *
     * @param cluster     the cluster name
     * @param node        this node's name
     * @param incarnation this run of the daemon
     * @param management  the HTTP API as {@code host:port}
     * @return the configuration
     * @throws IllegalArgumentException when a value is invalid
     */
    public static ProbeConfig defaults(String cluster, String node, long incarnation, String management) {
        return new ProbeConfig(cluster, node, incarnation, management, DEFAULT_GROUP, DEFAULT_UDP_PORT,
                ProbeTiming.DEFAULTS, Optional.empty(), ProbeLimits.DEFAULTS);
    }

    /** @return a copy with this timing */
    public ProbeConfig withTiming(ProbeTiming newTiming) {
        return new ProbeConfig(cluster, node, incarnation, management, group, udpPort, newTiming, key, limits);
    }

    /** @return a copy with this group and UDP port */
    public ProbeConfig withGroup(String newGroup, int newUdpPort) {
        return new ProbeConfig(cluster, node, incarnation, management, newGroup, newUdpPort, timing, key, limits);
    }

    /** @return a copy with this probe key (empty: plain hellos) */
    public ProbeConfig withKey(Optional<ProbeKey> newKey) {
        return new ProbeConfig(cluster, node, incarnation, management, group, udpPort, timing, newKey, limits);
    }

    /** @return a copy with these limits */
    public ProbeConfig withLimits(ProbeLimits newLimits) {
        return new ProbeConfig(cluster, node, incarnation, management, group, udpPort, timing, key, newLimits);
    }

    /**
     * The hello one port sends.
     *
     * @param netdev the port's netdev
     * @param rdma   its RDMA device, if any
     * @param mac    its link-layer address, in the form of {@link ProbeDatagram#mac()}
     * @return the hello, with the TTL of {@link ProbeTiming#ttlMs()} and sequence number 1 (the
     *         sender gives each datagram its own, {@link ProbeDatagram#withSeq})
     * @throws IllegalArgumentException when a name or the MAC is invalid
     */
    public ProbeDatagram hello(String netdev, Optional<String> rdma, String mac) {
        return new ProbeDatagram(cluster, node, netdev, rdma, mac, incarnation, 1, management, timing.ttlMs());
    }

    private static void checkGroup(String group) {
        Objects.requireNonNull(group, "group");
        boolean literal = !group.isEmpty() && group.chars().allMatch(c -> c == ':' || Character.digit(c, 16) >= 0);
        InetAddress address = null;
        if (literal) {
            try {
                address = InetAddress.getByName(group); // a literal: parsed, never looked up
            } catch (UnknownHostException e) {
                address = null;
            }
        }
        if (!(address instanceof Inet6Address) || !address.isMCLinkLocal()) {
            throw new IllegalArgumentException("probe group \"" + group
                    + "\" is not an IPv6 link-local multicast literal (ff02::...)");
        }
    }
}
