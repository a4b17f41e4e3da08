package io.railmap.matrix.plan;

import io.railmap.matrix.check.Checker;
import io.railmap.matrix.check.Code;
import io.railmap.matrix.check.Finding;
import io.railmap.matrix.check.Mode;
import io.railmap.matrix.check.Severity;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.rail.DeviceMatrix;
import io.railmap.matrix.rail.JacclRules;
import io.railmap.matrix.rail.LeftOut;
import io.railmap.matrix.rail.RailAligner;
import io.railmap.matrix.rail.RailOptions;
import io.railmap.matrix.ring.BottleneckHeldKarp;
import io.railmap.matrix.ring.RingOrder;
import io.railmap.matrix.ring.RingSearch;
import io.railmap.matrix.topology.SharedSegment;
import io.railmap.matrix.topology.SourceConflict;
import io.railmap.matrix.topology.Topology;
import io.railmap.matrix.topology.Unconfirmed;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.jgrapht.Graph;
import org.jgrapht.graph.DefaultWeightedEdge;
import org.jgrapht.graph.SimpleWeightedGraph;

/** Answers a request: orders the ranks, aligns the rails and gathers the findings. */
public final class Planner {
    private static final RingOrder RING_ORDER = new BottleneckHeldKarp();

    private Planner() {
    }

    /**
     * @param topology the cable graph
     * @param nodes    the nodes to rank; with {@link Order#GIVEN} rank i is {@code nodes.get(i)}; with
     *                 {@link Order#RING} the first node is rank 0 and ties between equally good rings
     *                 go to the one that follows this order first
     * @param order    how to order the ranks
     * @param options  which cables become rails
     * @return the plan
     * @throws io.railmap.matrix.rail.UnknownNodesException when a node has no record
     * @throws IllegalArgumentException when {@code nodes} is empty or names a node twice
     * @throws NoRingException          with {@link Order#RING}, when no cycle of usable cables passes
     *                                  through every node (the exception names the nodes that cannot be
     *                                  placed), or the exact search declines (more than
     *                                  {@value BottleneckHeldKarp#MAX_VERTICES} nodes)
     */
    public static Plan plan(Topology topology, List<String> nodes, Order order, RailOptions options) {
        RailAligner.validateRanks(topology, nodes);
        List<String> ranks = order == Order.RING ? ringOrder(topology, nodes, options) : List.copyOf(nodes);
        DeviceMatrix matrix = RailAligner.align(topology, ranks, options);
        List<Finding> findings = new ArrayList<>(observations(topology, ranks));
        for (LeftOut left : matrix.leftOut()) {
            findings.add(new Finding(Code.CABLE_LEFT_OUT, Severity.INFO, ranksOf(ranks, left.cable().a(), left.cable().b()),
                    Optional.empty(), "cable " + left.cable() + " is not a rail: " + left.reason()));
        }
        // A plan that runs the ring (MLX_JACCL_RING set) is checked as a ring; otherwise as jaccl would choose.
        Mode mode = matrix.runRing() ? Mode.RING : Mode.AUTO;
        findings.addAll(Checker.check(topology, ranks, matrix.devices(), mode));
        findings.sort(java.util.Comparator.comparing(Finding::severity));
        return new Plan(matrix, findings);
    }

    /**
     * A ring order through {@code nodes}: a cycle of the graph whose edge weight is the number of
     * usable wires between two nodes (capped by {@code maxWires} and jaccl's
     * {@value JacclRules#RING_MAX_WIRES}), maximising the smallest weight on the cycle.
     *
     * @throws NoRingException when none exists or the search declines
     */
    public static List<String> ringOrder(Topology topology, List<String> nodes, RailOptions options) {
        Graph<String, DefaultWeightedEdge> graph = new SimpleWeightedGraph<>(DefaultWeightedEdge.class);
        nodes.forEach(graph::addVertex);
        int cap = Math.min(options.maxWires(), JacclRules.RING_MAX_WIRES);
        for (int i = 0; i < nodes.size(); i++) {
            for (int j = i + 1; j < nodes.size(); j++) {
                int wires = Math.min(cap, RailAligner.usable(topology, nodes.get(i), nodes.get(j), options, new ArrayList<>()).size());
                if (wires > 0) {
                    graph.setEdgeWeight(graph.addEdge(nodes.get(i), nodes.get(j)), wires);
                }
            }
        }
        RingSearch<String> search = RING_ORDER.find(graph, nodes);
        if (search instanceof RingSearch.Found<String> found) {
            return found.order();
        }
        if (search instanceof RingSearch.Absent<String> absent) {
            throw new NoRingException(absent.unplaceable(), absent.reason());
        }
        throw new NoRingException(nodes, ((RingSearch.GaveUp<String>) search).limit());
    }

    /** One-sided observations, shared segments and disagreeing sources that touch a ranked node. */
    private static List<Finding> observations(Topology topology, List<String> ranks) {
        List<Finding> out = new ArrayList<>();
        for (Unconfirmed u : topology.unconfirmed()) {
            List<Integer> on = ranksOf(ranks, u.from(), u.farEnd().orElse(u.from()));
            if (!on.isEmpty()) {
                out.add(new Finding(Code.UNCONFIRMED_CABLE, Severity.WARNING, on, Optional.empty(),
                        u.from() + " observed " + u.farEnd().map(PortRef::toString).orElse("a far end")
                                + ", but " + u.reason() + "; the cable stays out of every matrix until both ends see each other"));
            }
        }
        for (SharedSegment s : topology.sharedSegments()) {
            List<Integer> on = ranksOf(ranks, s.port(), s.port());
            if (!on.isEmpty()) {
                out.add(new Finding(Code.SHARED_SEGMENT, Severity.WARNING, on, Optional.empty(),
                        s.port() + " heard " + s.farEnds().stream().map(PortRef::toString).collect(Collectors.joining(", "))
                                + ": it is on a shared segment (a switch), not a point-to-point cable, so it is no rail"));
            }
        }
        for (SourceConflict c : topology.sourceConflicts()) {
            List<Integer> on = ranksOf(ranks, c.port(), c.thunderboltPeer());
            if (!on.isEmpty()) {
                out.add(new Finding(Code.SOURCES_DISAGREE, Severity.WARNING, on, Optional.empty(),
                        c.port() + ": its Thunderbolt pairing names " + c.thunderboltPeer() + " but its probe heard "
                                + c.probed().stream().map(PortRef::toString).collect(Collectors.joining(", "))
                                + "; one source is wrong (a forged or replayed probe, or a cable moved), so the port's cables"
                                + " stay out of every matrix until both agree"));
            }
        }
        return out;
    }

    private static List<Integer> ranksOf(List<String> ranks, PortRef x, PortRef y) {
        List<Integer> on = new ArrayList<>();
        for (PortRef ref : List.of(x, y)) {
            int r = ranks.indexOf(ref.node());
            if (r >= 0 && !on.contains(r)) {
                on.add(r);
            }
        }
        return on;
    }
}
