package io.railmap.matrix.job;

import io.railmap.matrix.model.LocalRank;
import io.railmap.matrix.model.Names;
import java.util.Objects;
import java.util.Optional;

/**
 * One rank of a job: the node it runs on and its process.
 *
 * @param rank    its rank number as its settings say ({@code JACCL_RANK}, {@code MLX_RANK},
 *                {@code SLURM_PROCID}, {@code PMIX_RANK}, {@code OMPI_COMM_WORLD_RANK}); empty when
 *                none is set or the value is no number from 0 to {@link Jobs#MAX_RANKS_PER_JOB} − 1 (an mlx-ring
 *                rank's {@code MLX_RANK} read as the ring backend reads it, C's {@code atoi})
 * @param node    the node whose daemon found it
 * @param process the process and its collective settings
 */
public record JobRank(Optional<Integer> rank, String node, LocalRank process) {
    /** @throws NullPointerException when a component is null */
    public JobRank {
        Objects.requireNonNull(rank, "rank");
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(process, "process");
    }

    /** @return the process id */
    public long pid() {
        return process.pid();
    }

    /** @return {@code rank 1 (b, pid 4242)}, or {@code a rank (b, pid 4242)} without a number: for sentences */
    public String describe() {
        return rank.map(r -> "rank " + r).orElse("a rank") + " (" + Names.escape(node) + ", pid " + pid() + ")";
    }
}
