package io.railmap.matrix.model;

/** Where a port learned the switch at its far end ({@link SwitchPort}). */
public enum FarEndSource {
    /** LLDP, read from lldpd ({@code lldpcli show neighbors}). */
    LLDP,
    /** The InfiniBand fabric, read from infiniband-diags. */
    INFINIBAND;

    /** @return the name in records, lower case: {@code lldp}, {@code infiniband} */
    public String wireName() {
        return WireNames.of(this);
    }

    /**
     * @param name a wire name, in any case
     * @return the source
     * @throws IllegalArgumentException when no source has that name
     */
    public static FarEndSource fromWire(String name) {
        return WireNames.parse(FarEndSource.class, "far-end source", name);
    }
}
