package io.railmap.matrix.job;

import io.railmap.matrix.model.EnumNames;

/** What makes a set of ranks one job, and so how the job is checked. */
public enum JobKind {
    /**
     * MLX's jaccl backend: the ranks sharing a coordinator address ({@code JACCL_COORDINATOR}, else
     * {@code MLX_JACCL_COORDINATOR}); checked by its devices matrix, assembled from the ranks' rows.
     */
    JACCL,
    /**
     * MLX's TCP ring backend: the ranks sharing a hostfile ({@code MLX_HOSTFILE}), by its content's digest;
     * checked by that hostfile, put together again from the entries the ranks published.
     */
    MLX_RING,
    /**
     * NCCL, UCX, ModelExpress or NVSHMEM under a launcher: the ranks sharing a launcher job id
     * ({@code SLURM_JOB_ID} with {@code SLURM_STEP_ID}, else {@code PMIX_NAMESPACE}); each node's
     * settings checked as {@code check --env} checks a file.
     */
    LAUNCHER,
    /**
     * NCCL, UCX, ModelExpress or NVSHMEM settings without a launcher job id: the ranks sharing the same
     * settings; checked as {@link #LAUNCHER}.
     */
    SETTINGS;

    /** @return the JSON value, e.g. {@code "mlx-ring"} */
    public String externalName() {
        return EnumNames.of(this);
    }
}
