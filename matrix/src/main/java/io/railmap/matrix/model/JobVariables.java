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

    /** The longest devices file or hostfile kept, in characters (a 64-rank devices file of 4 rails fits). */
    public static final int MAX_FILE_CHARS = 256 * 1024;

    private JobVariables() {
    }
}
