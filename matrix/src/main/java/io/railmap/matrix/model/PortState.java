package io.railmap.matrix.model;

/**
 * The logical state of a port, after the InfiniBand port states of Linux sysfs
 * ({@code /sys/class/infiniband/<dev>/ports/<n>/state}: {@code 1: DOWN} … {@code 4: ACTIVE}) and
 * {@code ibv_devinfo}'s {@code PORT_ACTIVE (4)}. A port without RDMA is {@link #ACTIVE} when its
 * netdev is up with carrier. The external name is the lower-case JSON value.
 */
public enum PortState {
    /** Link up and usable: the only state the device matrix takes by default. */
    ACTIVE,
    /** No link (cable pulled, peer off, netdev down). */
    DOWN,
    /** InfiniBand: physical link up, waiting for the subnet manager. */
    INIT,
    /** InfiniBand: configured by the subnet manager, not yet active. */
    ARMED,
    /** The source did not say. */
    UNKNOWN;

    /** @return the JSON value, e.g. {@code "active"} */
    public String externalName() {
        return EnumNames.of(this);
    }

    /**
     * @param value a JSON value such as {@code "down"}
     * @return the matching state
     * @throws IllegalArgumentException when the value names no state; the message lists the valid ones
     */
    public static PortState fromExternalName(String value) {
        return EnumNames.parse(PortState.class, "port state", value);
    }
}
