package io.railmap.matrix.finding;

import com.fasterxml.jackson.annotation.JsonValue;
import io.railmap.matrix.model.EnumNames;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * What railmap writes a finding can concern: a collective library's configuration. Each {@link Code}
 * names the outputs it concerns ({@link Code#outputs()}); which of them a view shows is decided in one
 * place, {@link io.railmap.matrix.check.OutputScope}.
 */
public enum Output {
    /** MLX jaccl: its devices matrix, its environment and mlx.launch's jaccl hostfile (point-to-point cables only). */
    JACCL,
    /** MLX's TCP ring backend: its hostfile of addresses (any IP path, switched or cabled). */
    MLX_RING,
    /** NCCL's NIC lists and rail settings. */
    NCCL,
    /** UCX's device list. */
    UCX,
    /** NIXL (UCX underneath, its own device list). */
    NIXL,
    /** ModelExpress's per-GPU NIC list. */
    MODEL_EXPRESS,
    /** NVSHMEM's HCA list. */
    NVSHMEM;

    /** Every output. */
    public static final Set<Output> EVERY = Collections.unmodifiableSet(EnumSet.allOf(Output.class));
    /** The libraries that stripe over a switched fabric's rails (a NIC per rail, rail ids alike on every node). */
    public static final Set<Output> RAIL_LIBRARIES = Collections.unmodifiableSet(EnumSet.of(NCCL, UCX, NIXL, MODEL_EXPRESS, NVSHMEM));
    /** jaccl alone. */
    public static final Set<Output> JACCL_ONLY = Collections.unmodifiableSet(EnumSet.of(JACCL));
    /** MLX's two backends over cables: jaccl and the TCP ring. */
    public static final Set<Output> MLX = Collections.unmodifiableSet(EnumSet.of(JACCL, MLX_RING));
    /** MLX's TCP ring alone. */
    public static final Set<Output> MLX_RING_ONLY = Collections.unmodifiableSet(EnumSet.of(MLX_RING));

    /** @return the JSON value, e.g. {@code "mlx-ring"} */
    @JsonValue
    public String externalName() {
        return EnumNames.of(this);
    }
}
