package io.railmap.matrix.model;

/** Where a port learned the switch at its far end ({@link SwitchPort}). */
public enum FarEndSource {
    /** LLDP, read from lldpd ({@code lldpcli show neighbors}). */
    LLDP,
    /** The InfiniBand fabric, read from infiniband-diags. */
    INFINIBAND;

    /** @return the name in records, lower case: {@code lldp}, {@code infiniband} */
    public String externalName() {
        return EnumNames.of(this);
    }

    /**
     * @param name a external name, in any case
     * @return the source
     * @throws IllegalArgumentException when no source has that name
     */
    public static FarEndSource fromExternalName(String name) {
        return EnumNames.parse(FarEndSource.class, "far-end source", name);
    }
}
