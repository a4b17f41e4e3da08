package io.railmap.matrix.model;

/** What kind of link a port drives. The external name is the lower-case JSON value. */
public enum PortKind {
    /**
     * A Thunderbolt IP/RDMA interface: macOS {@code enX} with {@code rdma_enX}; Linux a thunderbolt-net
     * netdev ({@code thunderbolt0}), with thunderbolt-ibverbs' {@code usb4_rdma<i>} where tied.
     */
    THUNDERBOLT,
    /** RDMA over Converged Ethernet: an HCA port whose link layer is Ethernet. */
    ROCE,
    /** An InfiniBand HCA port. */
    INFINIBAND,
    /** A plain Ethernet netdev with no RDMA device (a veth in a lab, a management NIC). */
    ETHERNET;

    /** @return the JSON value, e.g. {@code "roce"} */
    public String externalName() {
        return EnumNames.of(this);
    }

    /**
     * @param value a JSON value such as {@code "thunderbolt"}
     * @return the matching kind
     * @throws IllegalArgumentException when the value names no kind; the message lists the valid ones
     */
    public static PortKind fromExternalName(String value) {
        return EnumNames.parse(PortKind.class, "port kind", value);
    }
}
