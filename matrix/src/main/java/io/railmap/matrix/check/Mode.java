package io.railmap.matrix.check;

import com.fasterxml.jackson.annotation.JsonValue;
import io.railmap.matrix.model.EnumNames;
/**
 * How a config is checked: which jaccl topology a devices file or a jaccl hostfile is, or the
 * addresses of MLX's TCP ring backend ({@link #MLX_RING}, an mlx.launch hostfile only).
 */
public enum Mode {
    /** As a mesh: every pair needs a wire, at most 8 ranks, only wire 0 is used. */
    MESH,
    /** As a ring (MLX_JACCL_RING set): ranks in cycle order, equal wire counts, at most 4. */
    RING,
    /**
     * As jaccl's {@code init} decides without {@code MLX_JACCL_RING}: the mesh when the file is a
     * valid mesh by jaccl's own test (even when that mesh then throws, as above 8 ranks), else the ring
     * when it is a valid ring; the other mode's findings become {@link Severity#INFO}; a file valid as
     * neither gets both modes' findings as errors. Default.
     */
    AUTO,
    /**
     * As MLX's TCP {@code ring} backend uses an mlx.launch hostfile's {@code ips} (backend {@code ring}):
     * rank r's addresses are its ends of cables to rank r-1, each connection pinned to its cable
     * ({@link MlxRingCheck}). Not for a jaccl devices file.
     */
    MLX_RING;

    /** @return the CLI value, e.g. {@code "auto"} */
    @JsonValue
    public String externalName() {
        return EnumNames.of(this);
    }

    /**
     * @param value a external name such as {@code "auto"}, any case
     * @return the matching constant
     * @throws IllegalArgumentException naming the valid values when none matches
     */
    public static Mode fromExternalName(String value) {
        return EnumNames.parse(Mode.class, "mode", value);
    }
}
