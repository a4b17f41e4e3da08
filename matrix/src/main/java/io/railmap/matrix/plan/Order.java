package io.railmap.matrix.plan;

import io.railmap.matrix.model.EnumNames;
/** How ranks are ordered. */
public enum Order {
    /** Rank i is the i-th node as given. Default. */
    GIVEN,
    /** Ranks follow a cycle of the cable graph that maximises the smallest wire count on it. */
    RING;

    /** @return the CLI value, e.g. {@code "ring"} */
    public String externalName() {
        return EnumNames.of(this);
    }

    /**
     * @param value a external name such as {@code "ring"}, any case
     * @return the matching constant
     * @throws IllegalArgumentException naming the valid values when none matches
     */
    public static Order fromExternalName(String value) {
        return EnumNames.parse(Order.class, "order", value);
    }
}
