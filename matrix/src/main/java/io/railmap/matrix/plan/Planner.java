package io.railmap.matrix.plan;

import io.railmap.matrix.check.CableFindings;
import io.railmap.matrix.check.Checker;
import io.railmap.matrix.check.ConsumerScope;
import io.railmap.matrix.check.Mode;
import io.railmap.matrix.check.RankScope;
import io.railmap.matrix.check.Readiness;
import io.railmap.matrix.fabric.RailTable;
import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.finding.Consumer;
import io.railmap.matrix.finding.Severity;
import io.railmap.matrix.jaccl.JacclInit;
import io.railmap.matrix.jaccl.JacclMode;
import io.railmap.matrix.jaccl.JacclRules;
import io.railmap.matrix.jaccl.MlxVersion;
import io.railmap.matrix.provenance.Provenance;
import io.railmap.matrix.rail.DeviceMatrix;
import io.railmap.matrix.rail.LeftOut;
import io.railmap.matrix.rail.RailAligner;
import io.railmap.matrix.rail.RailOptions;
import io.railmap.matrix.ring.BottleneckHeldKarp;
import io.railmap.matrix.ring.RingOrder;
import io.railmap.matrix.ring.RingSearch;
import io.railmap.matrix.topology.Topology;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.jgrapht.Graph;
import org.jgrapht.graph.DefaultWeightedEdge;
import org.jgrapht.graph.SimpleWeightedGraph;

/**
 * Answers a request: orders the ranks, aligns the rails, shapes the matrix for the MLX release and
 * chooses the group jaccl will run, and gathers the findings.
 *
 * <p>The choice follows jaccl's {@code init} ({@link JacclRules#init}): the ring (with
 * {@code MLX_JACCL_RING} set) when it runs and its edges carry more than one wire, or when the mesh
 * would not run (a mesh of more than 8 ranks throws, so 9 fully cabled ranks run the ring); else the
 * mesh when it runs; else nothing, which is a {@code jaccl-cannot-run} error. For an older MLX the
 * matrix is shaped first: before 0.31.2 a mesh gets one name per cell and a ring gets null
 * non-neighbour cells; before 0.32.0 a ring gets one wire per edge (its send/recv over several wires
 * can hang). Rails dropped by shaping are
 * reported as cables left out, naming the release.
 */
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
     * @param version  the MLX release whose jaccl will read the matrix
     * @return the plan
     * @throws io.railmap.matrix.rail.UnknownNodesException when a node has no record
     * @throws IllegalArgumentException when {@code nodes} is empty or names a node twice
     * @throws NoRingException          with {@link Order#RING}, when no cycle of usable cables passes
     *                                  through every node (the exception names the nodes that cannot be
     *                                  placed), or the exact search declines (more than
     *                                  {@value BottleneckHeldKarp#MAX_VERTICES} nodes)
     */
    public static Plan plan(Topology topology, List<String> nodes, Order order, RailOptions options, MlxVersion version) {
        RailAligner.validateRanks(topology, nodes);
        List<String> ranks = order == Order.RING ? ringOrder(topology, nodes, options) : List.copyOf(nodes);
        DeviceMatrix full = RailAligner.align(topology, ranks, options);
        DeviceMatrix ring = ringShape(full, version);
        DeviceMatrix mesh = meshShape(full, version);
        JacclInit ringInit = JacclRules.init(ring.devices(), true, version);
        JacclInit meshInit = JacclRules.init(mesh.devices(), false, version);
        boolean ringRuns = ringInit.runs(JacclMode.RING);
        boolean meshRuns = meshInit.runs(JacclMode.MESH);
        Optional<JacclMode> mode = ringRuns && (ring.wires(0, 1) > 1 || !meshRuns) ? Optional.of(JacclMode.RING)
                : meshRuns ? Optional.of(JacclMode.MESH) : Optional.empty();
        DeviceMatrix matrix = mode.isEmpty() ? full : mode.get() == JacclMode.RING ? ring : mesh;
        // the findings about cables and ports (one definition with the rank-free ones of events and the picture), with ranks
        RankScope scope = RankScope.of(ranks);
        List<Finding> findings = new ArrayList<>(CableFindings.observed(topology, scope));
        for (LeftOut left : matrix.leftOut()) {
            if (!left.notRdma()) { // a cable without an RDMA device is CableFindings' no-rdma-device
                findings.add(new Finding(Code.CABLE_LEFT_OUT, Severity.INFO, scope.on(left.cable().a(), left.cable().b()).orElseThrow(),
                        Optional.empty(), List.of(left.cable().a(), left.cable().b()), "cable " + left.cable() + " is not a rail: " + left.reason()));
            }
        }
        if (mode.isEmpty()) {
            String why = meshInit.failure().orElseGet(() -> ringInit.failure().orElse(""));
            findings.add(new Finding(Code.JACCL_CANNOT_RUN, Severity.ERROR, List.of(), Optional.empty(),
                    "jaccl (MLX " + version + ") cannot run this matrix: " + why
                            + (ranks.size() > 2 && order == Order.GIVEN ? "; --order ring may find a rank order that is a ring" : "")));
        }
        // The plan is checked as the group it runs (MLX_JACCL_RING set exactly for the ring); with none, as jaccl would choose.
        Mode checked = mode.map(m -> m == JacclMode.RING ? Mode.RING : Mode.MESH).orElse(Mode.AUTO);
        findings.addAll(Checker.check(topology, ranks, matrix.devices(), checked, version));
        findings.addAll(Readiness.of(topology, matrix));
        findings.sort(Comparator.comparing(Finding::severity));
        Provenance provenance = Provenance.of(ranks.stream().map(n -> topology.record(n).orElseThrow()).toList());
        RailTable rails = RailTable.of(topology);
        return new Plan(matrix, ConsumerScope.shown(findings, topology, rails, Consumer.JACCL_ONLY), version, mode, provenance, rails);
    }

    /** The matrix a ring of this release runs: before 0.31.2 null non-neighbour cells, before 0.32.0 one wire per edge. */
    private static DeviceMatrix ringShape(DeviceMatrix full, MlxVersion version) {
        int n = full.size();
        DeviceMatrix out = full;
        if (version.atLeast(MlxVersion.RING) && version.before(MlxVersion.MULTI_NAME)) {
            out = out.keep((i, j) -> j == JacclRules.right(i, n) || i == JacclRules.right(j, n) ? Integer.MAX_VALUE : 0,
                    "MLX " + version + "'s ring needs null cells between ranks that are not ring neighbours");
        }
        if (version.atLeast(MlxVersion.RING) && version.before(MlxVersion.MULTI_WIRE_RING)) {
            out = out.keep((i, j) -> 1, "MLX " + version + "'s ring of several wires can hang in send/recv (fixed in "
                    + MlxVersion.MULTI_WIRE_RING + "), so a ring gets one wire per edge");
        }
        return out;
    }

    /** The matrix a mesh of this release runs: before 0.31.2 one name per cell. */
    private static DeviceMatrix meshShape(DeviceMatrix full, MlxVersion version) {
        return version.before(MlxVersion.MULTI_NAME)
                ? full.keep((i, j) -> 1, "MLX " + version + "'s mesh takes one name per cell (several need "
                        + MlxVersion.MULTI_NAME + "), and a mesh uses only wire 0")
                : full;
    }

    /**
     * A ring order through {@code nodes}: a cycle of the graph whose edge weight is the number of
     * usable wires between two nodes (capped by {@code maxWires} and jaccl's
     * {@value JacclRules#RING_MAX_CONNS}), maximising the smallest weight on the cycle.
     *
     * @throws NoRingException when none exists or the search declines
     */
    public static List<String> ringOrder(Topology topology, List<String> nodes, RailOptions options) {
        Graph<String, DefaultWeightedEdge> graph = new SimpleWeightedGraph<>(DefaultWeightedEdge.class);
        nodes.forEach(graph::addVertex);
        int cap = Math.min(options.maxWires(), JacclRules.RING_MAX_CONNS);
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
}
