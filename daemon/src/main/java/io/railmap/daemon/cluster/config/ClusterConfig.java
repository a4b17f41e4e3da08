package io.railmap.daemon.cluster.config;

import io.railmap.matrix.model.Names;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What one daemon's cluster member is told, validated.
 *
 * <p>Ports on the management address: {@code port} (TCP, cluster traffic) and
 * {@code port + }{@value #FAILURE_DETECTION_OFFSET} (TCP, FD_SOCK2's failure-detection connections).
 * Without seeds, discovery also uses UDP multicast to {@link #multicastGroup()} port
 * {@value #MULTICAST_PORT} on the management interface, with a hop limit of 1 (this LAN only).
 *
 * @param cluster the cluster name (the same name the probe uses); members of other clusters are
 *                ignored. Rules of {@link Names#plain}
 * @param node    this node's name; the member's logical name. Rules of {@link Names#node}
 * @param bind    the management address: where the member listens and which interface discovery
 *                multicasts on. Never the wildcard
 * @param port    the cluster port, 1–{@value #MAX_PORT}. Default {@value #DEFAULT_PORT}
 * @param seeds   daemons to ask for the cluster when starting (TCPPING); empty means multicast
 *                discovery (MPING), or none at all when {@code bind} is a loopback address
 * @param key     when present, all cluster traffic is encrypted and authenticated with it
 *                (SYM_ENCRYPT), and a daemon without it can neither join nor inject a record
 * @param timing  failure detection, join and merge timing
 */
public record ClusterConfig(String cluster, String node, InetAddress bind, int port, List<Seed> seeds, Optional<ClusterKey> key,
                            ClusterTiming timing) {
    /** Default cluster port (TCP). */
    public static final int DEFAULT_PORT = 7800;
    /** FD_SOCK2 listens on the cluster port plus this. */
    public static final int FAILURE_DETECTION_OFFSET = 100;
    /** Highest cluster port: the failure-detection port must fit below 65536. */
    public static final int MAX_PORT = 65535 - FAILURE_DETECTION_OFFSET;
    /** Multicast discovery group for an IPv4 management address (administratively scoped). */
    public static final String MULTICAST_GROUP_V4 = "239.255.114.109";
    /** Multicast discovery group for an IPv6 management address (link-local scope, "rail" "md"). */
    public static final String MULTICAST_GROUP_V6 = "ff12::7261:696c:6d64";
    /** Multicast discovery UDP port (the probe uses 7245 and the API 7246). */
    public static final int MULTICAST_PORT = 7247;

    /**
     * @throws IllegalArgumentException naming the setting when a name is bad, the port is outside
     *                                  1–{@value #MAX_PORT} or {@code bind} is the wildcard
     * @throws NullPointerException     when a field is null
     */
    public ClusterConfig {
        Names.plain("cluster", cluster);
        Names.node("node", node);
        Objects.requireNonNull(bind, "bind");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(timing, "timing");
        seeds = List.copyOf(seeds);
        if (bind.isAnyLocalAddress()) {
            throw new IllegalArgumentException("the cluster cannot bind the wildcard address; give the management address");
        }
        if (port < 1 || port > MAX_PORT) {
            throw new IllegalArgumentException("--cluster-port " + port + " is outside 1-" + MAX_PORT
                    + " (the failure-detection port, " + FAILURE_DETECTION_OFFSET + " above it, must fit too)");
        }
    }

    /** @return FD_SOCK2's TCP port: {@code port + }{@value #FAILURE_DETECTION_OFFSET} */
    public int failureDetectionPort() {
        return port + FAILURE_DETECTION_OFFSET;
    }

    /** @return the multicast discovery group for the management address's family */
    public String multicastGroup() {
        return bind instanceof Inet6Address ? MULTICAST_GROUP_V6 : MULTICAST_GROUP_V4;
    }

    /** How this member finds the others. */
    public enum Discovery {
        /** TCPPING to the seeds. */
        SEEDS,
        /** MPING: UDP multicast on the management network. */
        MULTICAST,
        /** Nobody to find: bound to loopback without seeds, a cluster of one. */
        NONE
    }

    /** @return how this member finds the others */
    public Discovery discovery() {
        if (!seeds.isEmpty()) {
            return Discovery.SEEDS;
        }
        return bind.isLoopbackAddress() ? Discovery.NONE : Discovery.MULTICAST;
    }

    /** @return the management address and port as {@code host:port} (IPv6 in brackets) */
    public String address() {
        String host = bind.getHostAddress();
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }
}
