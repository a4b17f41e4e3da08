package io.railmap.matrix.model;

import java.util.Arrays;
import java.util.stream.Collectors;

/** What kind of link a port drives. The wire name is the lower-case JSON value. */
public enum PortKind {
    /** A Thunderbolt IP/RDMA interface on macOS ({@code enX} with {@code rdma_enX}). */
    THUNDERBOLT,
    /** RDMA over Converged Ethernet: an HCA port whose link layer is Ethernet. */
    ROCE,
    /** An InfiniBand HCA port. */
    INFINIBAND,
    /** A plain Ethernet netdev with no RDMA device (a veth in a lab, a management NIC). */
    ETHERNET;

    /** @return the JSON value, e.g. {@code "roce"} */
    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /**
     * @param value a JSON value such as {@code "thunderbolt"}
     * @return the matching kind
     * @throws IllegalArgumentException when the value names no kind; the message lists the valid ones
     */
    public static PortKind fromWire(String value) {
        for (PortKind kind : values()) {
            if (kind.wireName().equals(value)) {
                return kind;
            }
        }
        throw new IllegalArgumentException("unknown port kind \"" + value + "\" (expected one of "
                + Arrays.stream(values()).map(PortKind::wireName).collect(Collectors.joining(", ")) + ")");
    }
}
