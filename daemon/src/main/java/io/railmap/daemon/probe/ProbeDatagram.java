package io.railmap.daemon.probe;

import io.railmap.matrix.model.Names;
import io.railmap.matrix.model.PortRef;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One hello (message type 1): "I am port {@code port} of node {@code node} in cluster
 * {@code cluster}; believe it for {@code ttlMs}". A hello with {@code ttlMs == 0} is a goodbye: the
 * receiver forgets the sender's port at once. The protocol version travels in the datagram header,
 * not here; see {@link ProbeCodec} for the bytes.
 *
 * @param cluster     the cluster name; receivers drop hellos of other clusters. At most
 *                    {@value #MAX_NAME_BYTES} bytes of UTF-8, no whitespace, no {@code ':'} or {@code ','}
 * @param node        the sending node's name, same rules as {@code cluster}
 * @param port        the netdev the hello left by ({@code en6}, {@code enp1s0f1np1}); at most
 *                    {@value #MAX_NAME_BYTES} bytes, no whitespace
 * @param rdma        the RDMA device on that port ({@code rdma_en6}, {@code mlx5_0}), empty when
 *                    the port has none; same rules as {@code port}
 * @param mac         the port's link-layer address: 1 to {@value #MAX_MAC_OCTETS} octets as lower-case
 *                    hex pairs joined by {@code ':'} (6 for Ethernet and Thunderbolt, 20 for IPoIB)
 * @param incarnation which run of the sending daemon this is; grows each time the daemon starts
 *                    (its start time in ms is a fine choice). ≥ 0
 * @param seq         the sending daemon's datagram counter within this incarnation: one counter
 *                    for all its ports, 1 for the first datagram and one more for every datagram
 *                    after it, so a receiver can drop a datagram it has seen before (a replay).
 *                    0 only in a version-1 hello, which carried none. ≥ 0
 * @param management  the sending daemon's HTTP API as {@code host:port} ({@code 10.0.0.5:7246},
 *                    {@code [fd00::5]:7246}); printable ASCII, at most {@value #MAX_MANAGEMENT_CHARS}
 *                    characters, port 1–65535
 * @param ttlMs       how long the receiver keeps the sender as its neighbour without hearing it
 *                    again, in ms; 0 to {@value #MAX_TTL_MS}; 0 means goodbye
 */
public record ProbeDatagram(
        String cluster,
        String node,
        String port,
        Optional<String> rdma,
        String mac,
        long incarnation,
        long seq,
        String management,
        long ttlMs) {

    /** Longest cluster, node, netdev or RDMA device name, in bytes of UTF-8: the rule of every name, {@link Names#MAX_BYTES}. */
    public static final int MAX_NAME_BYTES = Names.MAX_BYTES;
    /** Most octets in a link-layer address (IPoIB has 20). */
    public static final int MAX_MAC_OCTETS = 20;
    /** Longest management address, in characters. */
    public static final int MAX_MANAGEMENT_CHARS = 128;
    /** Longest TTL a hello may carry, in ms (10 minutes). */
    public static final long MAX_TTL_MS = 600_000;

    private static final Pattern MAC = Pattern.compile("[0-9a-f]{2}(:[0-9a-f]{2}){0," + (MAX_MAC_OCTETS - 1) + "}");

    /**
     * Validates every field.
     *
     * @throws NullPointerException     when a field is null
     * @throws IllegalArgumentException when a field breaks the rules above, naming the field
     */
    public ProbeDatagram {
        Objects.requireNonNull(rdma, "rdma");
        Names.node("cluster", cluster);
        Names.node("node", node);
        Names.plain("netdev", port);
        rdma.ifPresent(r -> Names.plain("RDMA device", r));
        Objects.requireNonNull(mac, "mac");
        if (!MAC.matcher(mac).matches()) {
            throw new IllegalArgumentException("MAC \"" + mac + "\" is not 1 to " + MAX_MAC_OCTETS
                    + " lower-case hex octets joined by ':'");
        }
        if (incarnation < 0) {
            throw new IllegalArgumentException("incarnation " + incarnation + " is negative");
        }
        if (seq < 0) {
            throw new IllegalArgumentException("sequence number " + seq + " is negative");
        }
        checkManagement(management);
        if (ttlMs < 0 || ttlMs > MAX_TTL_MS) {
            throw new IllegalArgumentException("TTL " + ttlMs + " ms is outside 0.." + MAX_TTL_MS);
        }
    }

    /** @return the sending port, {@code node:port}: the far end of the cable this hello came over */
    public PortRef farEnd() {
        return new PortRef(node, port);
    }

    /** @return true when this hello is a goodbye (TTL 0) */
    public boolean goodbye() {
        return ttlMs == 0;
    }

    /**
     * @param newTtlMs the TTL in ms, 0 for a goodbye
     * @return a copy with that TTL
     * @throws IllegalArgumentException when the TTL is out of range
     */
    public ProbeDatagram withTtlMs(long newTtlMs) {
        return new ProbeDatagram(cluster, node, port, rdma, mac, incarnation, seq, management, newTtlMs);
    }

    /**
     * @param newCluster another cluster name
     * @return a copy claiming that cluster
     */
    public ProbeDatagram withCluster(String newCluster) {
        return new ProbeDatagram(newCluster, node, port, rdma, mac, incarnation, seq, management, ttlMs);
    }

    /**
     * @param newSeq the sequence number, ≥ 0
     * @return a copy with that sequence number
     */
    public ProbeDatagram withSeq(long newSeq) {
        return new ProbeDatagram(cluster, node, port, rdma, mac, incarnation, newSeq, management, ttlMs);
    }

    private static void checkManagement(String management) {
        Objects.requireNonNull(management, "management");
        if (management.isEmpty() || management.length() > MAX_MANAGEMENT_CHARS) {
            throw new IllegalArgumentException("management address must be 1 to " + MAX_MANAGEMENT_CHARS
                    + " characters, is " + management.length());
        }
        for (int i = 0; i < management.length(); i++) {
            char c = management.charAt(i);
            if (c <= ' ' || c > '~') {
                throw new IllegalArgumentException("management address \"" + management
                        + "\" holds a character that is not printable ASCII");
            }
        }
        int colon = management.lastIndexOf(':');
        String host = colon < 0 ? "" : management.substring(0, colon);
        String portText = colon < 0 ? "" : management.substring(colon + 1);
        boolean bracketed = host.startsWith("[") && host.endsWith("]");
        boolean hostOk = bracketed ? host.length() > 2 : !host.isEmpty() && host.chars().noneMatch(c -> c == ':' || c == '[' || c == ']');
        if (!hostOk || !validPort(portText)) {
            throw new IllegalArgumentException("management address \"" + management
                    + "\" is not host:port (IPv6 hosts in brackets, port 1-65535)");
        }
    }

    private static boolean validPort(String text) {
        if (text.isEmpty() || text.length() > 5) {
            return false;
        }
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) < '0' || text.charAt(i) > '9') {
                return false;
            }
        }
        int port = Integer.parseInt(text);
        return port >= 1 && port <= 65535;
    }
}
