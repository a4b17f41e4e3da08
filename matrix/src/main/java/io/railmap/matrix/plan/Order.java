package io.railmap.matrix.plan;

/** How ranks are ordered. */
public enum Order {
    /** Rank i is the i-th node as given. Default. */
    GIVEN,
    /** Ranks follow a cycle of the cable graph that maximises the smallest wire count on it. */
    RING;

    /** @return the CLI value, e.g. {@code "ring"} */
    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
