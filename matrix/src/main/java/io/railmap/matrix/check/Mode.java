package io.railmap.matrix.check;

/** Which jaccl topology a devices file is checked as. */
public enum Mode {
    /** As a mesh: every pair needs a wire, at most 8 ranks, only wire 0 is used. */
    MESH,
    /** As a ring (MLX_JACCL_RING set): ranks in cycle order, equal wire counts, at most 4. */
    RING,
    /**
     * As jaccl decides: a valid file passes whether it is a valid mesh or a valid ring; findings that
     * only matter for the other mode become {@link Severity#INFO}; a file valid as neither gets both
     * modes' findings as errors. Default.
     */
    AUTO;

    /** @return the CLI value, e.g. {@code "auto"} */
    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
