package io.railmap.matrix.check;

import io.railmap.matrix.model.Names;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.topology.Topology;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which nodes findings about cables and ports are gathered for, and which rank indices they name:
 * either a rank list (a plan's, rank i is the i-th node; a finding names the ranks it touches) or
 * every node of the topology with no rank index ({@link #EVERY_NODE}: the rank-free findings of
 * {@link CableFindings}, which do not depend on a host order). Lookups cost O(1).
 */
public final class RankScope {
    /** Every node of the topology; findings name no rank. */
    public static final RankScope EVERY_NODE = new RankScope(Optional.empty());

    private final Optional<Map<String, Integer>> rankOf;
    private final List<String> ranks;

    private RankScope(Optional<List<String>> ranks) {
        this.ranks = ranks.map(List::copyOf).orElse(List.of());
        this.rankOf = ranks.map(list -> {
            Map<String, Integer> index = new HashMap<>();
            for (int r = 0; r < list.size(); r++) {
                Integer earlier = index.putIfAbsent(list.get(r), r);
                if (earlier != null) {
                    throw new IllegalArgumentException("node " + Names.escape(list.get(r)) + " is both rank " + earlier + " and rank " + r
                            + " of the rank list: give each node once");
                }
            }
            return index;
        });
    }

    /**
     * @param ranks node names in rank order, each once
     * @return the scope of those ranks
     * @throws IllegalArgumentException when a node is in {@code ranks} twice, naming it and both ranks
     */
    public static RankScope of(List<String> ranks) {
        return new RankScope(Optional.of(ranks));
    }

    /** @return true when findings about {@code node} belong in this scope */
    public boolean covers(String node) {
        return rankOf.map(index -> index.containsKey(node)).orElse(true);
    }

    /** @return the nodes in scope: the ranks in rank order, or every node of {@code topology} in name order */
    List<String> nodes(Topology topology) {
        return rankOf.isPresent() ? ranks : topology.nodes();
    }

    /**
     * @param ends the ports a finding touches
     * @return the ranks of the ends' nodes that are in scope, one per end in the ends' order (a node
     *         has one rank, as {@link #of} refuses a node given twice); empty for {@link #EVERY_NODE};
     *         empty (no list at all) when no end is in scope, so the finding does not belong here
     */
    public Optional<List<Integer>> on(PortRef... ends) {
        return onNodes(Arrays.stream(ends).map(PortRef::node).toArray(String[]::new));
    }

    /**
     * {@link #on(PortRef...)} for findings about whole nodes.
     *
     * @param nodes the nodes a finding touches
     * @return the rank of each node in scope, in the nodes' order (a node has one rank, as {@link #of}
     *         refuses a node given twice); empty for {@link #EVERY_NODE}; empty (no list at all) when
     *         no node is in scope
     */
    public Optional<List<Integer>> onNodes(String... nodes) {
        List<Integer> on = new ArrayList<>();
        boolean any = false;
        for (String node : nodes) {
            if (covers(node)) {
                any = true;
                rankOf.ifPresent(index -> on.add(index.get(node)));
            }
        }
        return any ? Optional.of(on) : Optional.empty();
    }

    /** @return the rank of {@code node}; empty when it has none here (not a rank, or {@link #EVERY_NODE}) */
    Optional<Integer> rank(String node) {
        return rankOf.map(index -> index.get(node));
    }
}
