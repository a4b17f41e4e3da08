package io.railmap.matrix.finding;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * A consumer of what railmap writes: a library that reads its configuration (a devices matrix, a
 * hostfile, a NIC list). Each {@link Code} names the consumers its findings concern
 * ({@link Code#consumers()}); which findings a view shows is decided in one place,
 * {@link io.railmap.matrix.check.ConsumerScope}.
 */
public enum Consumer {
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

    /** Every consumer. */
    public static final Set<Consumer> EVERY = Collections.unmodifiableSet(EnumSet.allOf(Consumer.class));
    /** The libraries that stripe over a switched fabric's rails (a NIC per rail, rail ids alike on every node). */
    public static final Set<Consumer> RAIL_LIBRARIES = Collections.unmodifiableSet(EnumSet.of(NCCL, UCX, NIXL, MODEL_EXPRESS, NVSHMEM));
    /** jaccl alone. */
    public static final Set<Consumer> JACCL_ONLY = Collections.unmodifiableSet(EnumSet.of(JACCL));
    /** MLX's two backends over cables: jaccl and the TCP ring. */
    public static final Set<Consumer> MLX = Collections.unmodifiableSet(EnumSet.of(JACCL, MLX_RING));
    /** MLX's TCP ring alone. */
    public static final Set<Consumer> MLX_RING_ONLY = Collections.unmodifiableSet(EnumSet.of(MLX_RING));
}
