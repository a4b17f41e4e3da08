package io.railmap.matrix.job;

import io.railmap.matrix.model.NaturalOrder;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;

/**
 * One collective job running across nodes, as assembled from the nodes' local ranks ({@link Jobs}).
 *
 * @param id    the job's name, stable for as long as it runs: its kind and what defines it
 *              ({@code jaccl 10.0.0.1:32323}, {@code mlx-ring 3f2a…}, {@code slurm 812.0},
 *              {@code pmix prterun-a-1234@1}, {@code settings 9c0e…}); a value from a process's settings
 *              is escaped and cut after {@link Jobs#MAX_ID_CHARS} characters in all ({@code Names.escape},
 *              which then says how many it left out)
 * @param kind  what makes these ranks one job
 * @param size  how many ranks the job has, when its settings say (a jaccl rank's devices row has one cell
 *              per rank, an mlx-ring rank's hostfile one entry); empty otherwise
 * @param ranks the ranks found, by rank number (those without one last), then node and pid
 */
public record Job(String id, JobKind kind, Optional<Integer> size, List<JobRank> ranks) {
    /** Rank number (none last), node, pid. */
    static final Comparator<JobRank> ORDER = Comparator.<JobRank, Integer>comparing(r -> r.rank().orElse(Integer.MAX_VALUE))
            .thenComparing(JobRank::node, NaturalOrder.INSTANCE)
            .thenComparingLong(JobRank::pid);

    /** Sorts and copies the ranks. @throws NullPointerException when a component is null */
    public Job {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(size, "size");
        ranks = ranks.stream().sorted(ORDER).toList();
    }

    /** @return the nodes the ranks run on, each once, in natural order */
    public List<String> nodes() {
        TreeSet<String> nodes = new TreeSet<>(NaturalOrder.INSTANCE);
        ranks.forEach(r -> nodes.add(r.node()));
        return List.copyOf(nodes);
    }

    /** @return the ranks' process ids, in the order of {@link #ranks()} */
    public List<Long> pids() {
        return ranks.stream().map(JobRank::pid).toList();
    }
}
