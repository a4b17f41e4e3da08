package io.railmap.discovery.jobs;

import io.railmap.matrix.model.LocalRank;
import java.util.List;

/**
 * What one scan of a node's processes found.
 *
 * @param ranks      the ranks of collective jobs running on the node, sorted by process id; at most
 *                   {@link io.railmap.matrix.model.JobVariables#MAX_RANKS_PER_NODE}
 * @param scanned    processes whose environment this scan read
 * @param unreadable processes this scan could not read (another user's, without {@code CAP_SYS_PTRACE})
 * @param leftOut    ranks found but not kept: past the bound, or over a rank's size
 *                   ({@link io.railmap.matrix.model.JobVariables#MAX_RANK_CHARS})
 * @param problems   what went wrong with a rank's settings or files, one line each, naming the process
 *                   and only allow-listed variables (never a value of another variable); at most
 *                   {@value #MAX_PROBLEMS}
 */
public record JobScan(List<LocalRank> ranks, int scanned, int unreadable, int leftOut, List<String> problems) {
    /** The most problem lines one scan reports. */
    public static final int MAX_PROBLEMS = 16;

    public JobScan {
        ranks = List.copyOf(ranks);
        problems = List.copyOf(problems.subList(0, Math.min(problems.size(), MAX_PROBLEMS)));
    }
}
