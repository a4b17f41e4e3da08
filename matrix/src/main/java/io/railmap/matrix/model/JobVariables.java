package io.railmap.matrix.model;

import java.util.List;

/**
 * The environment variables of a running process that railmap reads to find collective jobs, and
 * the bounds on what it keeps of them. No other variable of a process is ever read into memory
 * beyond the scan that skips it (an environment holds secrets).
 *
 * <p>Sources: MLX jaccl and its ring backend ({@code mlx/distributed/jaccl}, {@code ring/ring.cpp};
 * {@code python/mlx/_distributed_utils/launch.py}), NCCL ({@code src/transport/net_ib.cc}), UCX
 * ({@code ucs/config}), ModelExpress, NVSHMEM; job ids of Slurm and of PMIx/Open MPI launchers.
 */
public final class JobVariables {
    /** The variables railmap reads, in name order. */
    public static final List<String> NAMES = List.of(
            "JACCL_COORDINATOR", "JACCL_IBV_DEVICES", "JACCL_RANK", "JACCL_RING",
            "MLX_HOSTFILE", "MLX_IBV_DEVICES", "MLX_JACCL_COORDINATOR", "MLX_JACCL_RING", "MLX_RANK", "MX_RDMA_NIC_PIN",
            "NCCL_CROSS_NIC", "NCCL_IB_HCA", "NCCL_IB_SUBNET_AWARE_ROUTING",
            "NVSHMEM_ENABLE_NIC_PE_MAPPING", "NVSHMEM_HCA_LIST",
            "OMPI_COMM_WORLD_RANK", "PMIX_NAMESPACE", "PMIX_RANK",
            "SLURM_JOB_ID", "SLURM_PROCID", "SLURM_STEP_ID",
            "UCX_MAX_RMA_RAILS", "UCX_NET_DEVICES");

    /** The longest value kept of one variable, in characters. */
    public static final int MAX_VALUE_CHARS = 4096;

    /**
     * The longest devices file or hostfile read, in characters (a 64-rank devices file of 4 rails fits);
     * a longer one is not read (the rank is kept without its devices row or hostfile digest).
     */
    public static final int MAX_FILE_CHARS = 256 * 1024;

    /**
     * The most ranks one node publishes in its record. A node runs one rank per accelerator (8 on a
     * GPU server, 1 on a Mac); 16 leaves room for two jobs at once. Ranks past it are left out (the
     * lowest process ids kept) and the daemon says so: with {@link #MAX_RANK_CHARS} it keeps a
     * record's ranks under 100 KiB, well inside the cluster's 256 KiB record message.
     */
    public static final int MAX_RANKS_PER_NODE = 16;

    /**
     * The most characters one rank holds: its settings' names and values and its devices row's names,
     * summed. A rank over it is left out, not cut: a cut setting would be a wrong one.
     */
    public static final int MAX_RANK_CHARS = 6144;

    /** The most cells in a rank's devices row: the ranks of one jaccl job (MLX runs at most a few dozen). */
    public static final int MAX_ROW_CELLS = 256;

    /** The most rails (device names) in one cell of a devices row. */
    public static final int MAX_RAILS = 16;

    /**
     * The most addresses of one rank's ring hostfile entry ({@link RingEntry}): its wires to its left
     * neighbour (a Mac has a handful of Thunderbolt ports; {@code mlx.launch --connections-per-ip} multiplies
     * them). An entry over it is not published.
     */
    public static final int MAX_RING_ADDRESSES = 16;

    /** The most entries (ranks) of a ring hostfile whose entry a rank publishes: {@code Jobs.MAX_RANKS_PER_JOB}. */
    public static final int MAX_RING_RANKS = 1024;

    /** The longest device name in a devices row, in characters (the kernel's IB_DEVICE_NAME_MAX is 64). */
    public static final int MAX_DEVICE_NAME_CHARS = 64;

    /**
     * The variables that make a process a rank: any of {@link #NAMES} but the launchers' job ids
     * ({@code SLURM_*}, {@code PMIX_*}, {@code OMPI_*}), which every process of a job step holds
     * (its shells too) and which say nothing about the network on their own.
     */
    public static final List<String> COLLECTIVE_NAMES = NAMES.stream()
            .filter(n -> !n.startsWith("SLURM_") && !n.startsWith("PMIX_") && !n.startsWith("OMPI_")).toList();

    private JobVariables() {
    }
}
