package io.railmap.matrix.plan;

import io.railmap.matrix.address.Addresses;
import io.railmap.matrix.address.CableRoutes;
import io.railmap.matrix.check.MlxRingCheck;
import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.finding.Severity;
import io.railmap.matrix.model.IpAddresses;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.model.PortState;
import io.railmap.matrix.provenance.Provenance;
import io.railmap.matrix.rail.RailAligner;
import io.railmap.matrix.ring.BottleneckHeldKarp;
import io.railmap.matrix.ring.RingSearch;
import io.railmap.matrix.topology.Cable;
import io.railmap.matrix.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jgrapht.Graph;
import org.jgrapht.graph.DefaultWeightedEdge;
import org.jgrapht.graph.SimpleWeightedGraph;

/**
 * The ring MLX's TCP {@code ring} backend builds over the cables of a topology: the rank order, and
 * the addresses each rank listens on. Read from ml-explore/mlx (main of August 2026):
 * <ul>
 * <li>{@code mlx/distributed/ring/ring.cpp}, {@code load_nodes}: {@code MLX_HOSTFILE} is a JSON array
 *     with one entry per rank, in rank order, each an array of {@code "ip:port"} strings.
 *     {@code RingGroup::RingGroup}: rank r listens on (accepts one connection at) every address of
 *     entry r ({@code accept_connections}) and connects to every address of entry (r+1) mod N
 *     ({@code make_connections}); it throws when it has no socket on a side, or not as many to the
 *     left as to the right, so every entry must have the same number of addresses. Rank r's
 *     addresses are therefore its own ends of cables to rank r-1, which connects to them: ring
 *     neighbours must be joined by a cable, and the order is a cycle of the cable graph.</li>
 * <li>{@code mlx/distributed/utils.cpp}, {@code parse_address}: the text before the first {@code :} is
 *     the host, the rest the port, and the socket is {@code AF_INET}: IPv4 only.</li>
 * <li>{@code python/mlx/_distributed_utils/config.py}, {@code configure_ring}: host i's {@code ips}
 *     are its addresses on the cables to host i-1 ({@code ips[node, peer]}), as many on every host as
 *     the thinnest ring edge has cables ({@code extract_rings}, {@code cnt = min(...)}).</li>
 * <li>{@code python/mlx/_distributed_utils/launch.py}, {@code launch_ring}: the port starts at
 *     {@value Addresses#STARTING_PORT} ({@code --starting-port}) and grows by one per address, host after host,
 *     so rank r's i-th address has port {@value Addresses#STARTING_PORT} + r·W + i for W addresses per host.</li>
 * </ul>
 * <p>A cable is usable when both its ports are active and have an IPv4 address. The order is the
 * cycle of usable cables whose thinnest edge is widest, starting at the first node given: the same
 * search as {@code railmap matrix --order ring} ({@link BottleneckHeldKarp}, so at most
 * {@value BottleneckHeldKarp#MAX_VERTICES} nodes). Each edge uses its first W usable cables in cable
 * order.
 *
 * <p>Rank r listens on the first address of its end (in the records' order) whose connection from
 * rank r-1 travels that cable and no other ({@link CableRoutes}: each cable needs a subnet of its own,
 * {@code railmap addresses}). Where none does, it listens on its first IPv4 address, with a
 * {@code shared-subnet} error (the wire may travel another cable: no error at run time, a share of
 * the bandwidth lost) or a {@code subnet-mismatch} error (the cable's ends share no subnet: the
 * connection fails or goes elsewhere).
 *
 * @param ranks       node names in rank order; empty when there is no ring
 * @param addresses   per rank, its listen addresses as {@code "ip:port"}; empty when there is no ring
 * @param provenance  the records the ring was computed from
 * @param findings    no ring (error), one node (error), cables between ring neighbours left out
 *                    (a warning when unusable, an info when beyond W), wires whose connection may
 *                    travel another cable or no cable (errors), and one info when the records do
 *                    not say enough to tell
 * @param unplaceable when there is no ring, the nodes that cannot be placed on one; else empty
 */
public record MlxRing(List<String> ranks, List<List<String>> addresses, Provenance provenance, List<Finding> findings,
                      List<String> unplaceable) {
    /** Copies the lists. */
    public MlxRing {
        ranks = List.copyOf(ranks);
        addresses = addresses.stream().map(List::copyOf).toList();
        findings = List.copyOf(findings);
        unplaceable = List.copyOf(unplaceable);
    }

    /**
     * @param topology every record and cable
     * @return the ring through every node of the topology, or the findings saying why there is none
     */
    public static MlxRing of(Topology topology) {
        return of(topology, topology.nodes());
    }

    /**
     * @param topology every record and cable
     * @param nodes    the nodes to place on the ring, distinct, each with a record; the first is rank 0,
     *                 and ties between equally wide rings go to the one that follows this order first
     * @return the ring through the nodes, or the findings saying why there is none
     * @throws io.railmap.matrix.rail.UnknownNodesException when a node has no record
     * @throws IllegalArgumentException when {@code nodes} is empty or names a node twice
     */
    public static MlxRing of(Topology topology, List<String> nodes) {
        RailAligner.validateRanks(topology, nodes);
        Provenance provenance = Provenance.of(nodes.stream().map(n -> topology.record(n).orElseThrow()).toList());
        if (nodes.size() < 2) {
            return none(provenance, nodes, new Finding(Code.ONE_RANK, Severity.ERROR, List.of(), Optional.empty(),
                    "the ring backend needs at least two nodes, and " + nodes.size() + " was given"));
        }
        if (nodes.size() > BottleneckHeldKarp.MAX_VERTICES) {
            // decided before looking at the N² pairs of nodes: the search would decline anyway
            return none(provenance, nodes, new Finding(Code.RING_NOT_A_CYCLE, Severity.ERROR, List.of(), Optional.empty(),
                    "no TCP ring found: the exact ring search covers at most " + BottleneckHeldKarp.MAX_VERTICES + " nodes and "
                            + nodes.size() + " were given"));
        }
        Graph<String, DefaultWeightedEdge> graph = new SimpleWeightedGraph<>(DefaultWeightedEdge.class);
        nodes.forEach(graph::addVertex);
        for (int i = 0; i < nodes.size(); i++) {
            for (int j = i + 1; j < nodes.size(); j++) {
                int usable = (int) topology.cablesBetween(nodes.get(i), nodes.get(j)).stream().filter(c -> why(topology, c).isEmpty()).count();
                if (usable > 0) {
                    graph.setEdgeWeight(graph.addEdge(nodes.get(i), nodes.get(j)), usable);
                }
            }
        }
        RingSearch<String> search = new BottleneckHeldKarp().find(graph, nodes);
        if (search instanceof RingSearch.Absent<String> absent) {
            return none(provenance, absent.unplaceable(), new Finding(Code.RING_NOT_A_CYCLE, Severity.ERROR, List.of(), Optional.empty(),
                    "no TCP ring through every node over cables whose two ends are active with an IPv4 address: " + absent.reason()));
        }
        if (search instanceof RingSearch.GaveUp<String> gaveUp) {
            return none(provenance, nodes, new Finding(Code.RING_NOT_A_CYCLE, Severity.ERROR, List.of(), Optional.empty(),
                    "no TCP ring found: " + gaveUp.limit()));
        }
        RingSearch.Found<String> found = (RingSearch.Found<String>) search;
        List<String> ranks = found.order();
        int n = ranks.size();
        int wires = found.bottleneck();
        List<List<String>> addresses = new ArrayList<>();
        List<Finding> findings = new ArrayList<>();
        List<String> unknown = new ArrayList<>();
        for (int r = 0; r < n; r++) {
            String node = ranks.get(r);
            String left = ranks.get((r + n - 1) % n);
            List<String> listen = new ArrayList<>();
            // with two ranks both edges are the same cables: say so once, for rank 1
            List<Finding> report = n == 2 && r == 0 ? new ArrayList<>() : findings;
            for (Cable cable : topology.cablesBetween(node, left)) {
                Optional<String> unusable = why(topology, cable);
                List<Integer> on = List.of(Math.min(r, (r + n - 1) % n), Math.max(r, (r + n - 1) % n));
                if (unusable.isPresent()) {
                    report.add(new Finding(Code.CABLE_LEFT_OUT, Severity.WARNING, on, Optional.empty(), List.of(cable.a(), cable.b()),
                            "cable " + cable + " joins ring neighbours but carries no ring connection: " + unusable.get()));
                } else if (listen.size() == wires) {
                    report.add(new Finding(Code.CABLE_LEFT_OUT, Severity.INFO, on, Optional.empty(), List.of(cable.a(), cable.b()), "cable " + cable
                            + " carries no ring connection: every ring edge gets " + wires + ", as many as its thinnest edge has"));
                } else {
                    String address = routed(topology, cable, cable.end(node), on, listen.size(), findings, unknown);
                    listen.add(address + ":" + (Addresses.STARTING_PORT + r * wires + listen.size()));
                }
            }
            addresses.add(listen);
        }
        MlxRingCheck.unchecked(unknown).ifPresent(findings::add);
        return new MlxRing(ranks, addresses, provenance, findings, List.of());
    }

    /**
     * The address rank r listens on for wire {@code wire} over {@code cable}: the first address of its end
     * whose connection from rank r-1 travels the cable ({@link CableRoutes#best}), else its first IPv4
     * address, with a {@code shared-subnet} or {@code subnet-mismatch} error saying where the wire goes
     * instead, or, when the records do not say prefix lengths, a reason added to {@code unknown}.
     */
    private static String routed(Topology topology, Cable cable, PortRef end, List<Integer> on, int wire, List<Finding> findings,
                                 List<String> unknown) {
        CableRoutes.Verdict verdict = CableRoutes.best(topology, cable, end);
        if (verdict instanceof CableRoutes.Pinned pinned) {
            return pinned.address();
        }
        if (verdict instanceof CableRoutes.Strays strays) {
            findings.add(new Finding(strays.mismatch() ? Code.SUBNET_MISMATCH : Code.SHARED_SUBNET, Severity.ERROR, on, Optional.of(wire),
                    strays.ports(), "ring wire " + wire + ": " + strays.reason()));
        } else {
            unknown.add(((CableRoutes.Unknown) verdict).reason());
        }
        return ipv4(topology, end).orElseThrow();
    }

    private static MlxRing none(Provenance provenance, List<String> unplaceable, Finding finding) {
        return new MlxRing(List.of(), List.of(), provenance, List.of(finding), unplaceable);
    }

    /**
     * @return this ring
     * @throws NoRingException naming the nodes that cannot be placed when there is no ring
     */
    public MlxRing requireRing() {
        if (ranks.isEmpty()) {
            throw new NoRingException(unplaceable, findings.get(0).message());
        }
        return this;
    }

    /** @return why a cable cannot carry a ring connection, or empty when it can */
    private static Optional<String> why(Topology topology, Cable cable) {
        for (PortRef end : List.of(cable.a(), cable.b())) {
            Optional<Port> port = topology.port(end);
            if (port.isEmpty() || port.get().state() != PortState.ACTIVE) {
                return Optional.of(end + " is not active");
            }
            if (ipv4(topology, end).isEmpty()) {
                return Optional.of(end + (port.get().addressesKnown() ? " has no IPv4 address" : "'s record does not say its addresses"
                        + " (a record before format version 2)"));
            }
        }
        return Optional.empty();
    }

    private static Optional<String> ipv4(Topology topology, PortRef end) {
        return topology.port(end).flatMap(p -> p.addresses().stream().filter(IpAddresses::isIpv4).findFirst());
    }
}
