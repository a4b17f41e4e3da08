package io.railmap.matrix.topology;

import io.railmap.matrix.model.Infiniband;
import io.railmap.matrix.model.NaturalOrder;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.model.Snapshot;
import io.railmap.matrix.model.Thunderbolt;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jgrapht.Graph;
import org.jgrapht.Graphs;
import org.jgrapht.graph.AsUnmodifiableGraph;
import org.jgrapht.graph.builder.GraphTypeBuilder;

/**
 * Every cable between every pair of nodes of a snapshot: an undirected JGraphT multigraph with node
 * names as vertices and one {@link Cable} edge per confirmed cable, plus what could not be confirmed.
 *
 * <p>What a port observed comes from its probe {@code neighbours} and, for Thunderbolt, the port
 * whose bus {@code domainUuid} equals this port's {@code peerDomainUuid} (when several ports carry
 * that domain, as the ports of one Linux host router do, the one among them whose own
 * {@code peerDomainUuid} names this port's domain; when that leaves several, the UUIDs name no far
 * end and the port is {@link Unconfirmed} unless the probe heard one); for InfiniBand, the port
 * whose HCA node GUID and RDMA port number are the HCA port its NodeInfo neighbour names
 * ({@code infiniband.peerNodeGuid}, {@code peerPort}). When both sources speak and
 * name different far ends, the port is a {@link SourceConflict}: it observed nothing, so none of its
 * cables is confirmed (and its far ends' observations of it stay unconfirmed). Then, for each port P:
 * <ul>
 *   <li>P observed several far ends: a {@link SharedSegment}; none of them becomes a cable.</li>
 *   <li>P observed exactly Q, and Q observed exactly P: a confirmed cable P–Q.</li>
 *   <li>Otherwise (Q has no record, Q observed nothing or someone else): an {@link Unconfirmed}
 *       observation.</li>
 * </ul>
 * Every node of the snapshot is a vertex, cabled or not. Building is O(ports + observations).
 */
public final class Topology {
    private final Graph<String, Cable> graph;
    private final Map<String, NodeRecord> records;
    private final Map<PortRef, Port> ports;
    private final Map<String, List<Port>> portsByNode;
    private final Map<PortRef, Cable> cableAt;
    private final List<Unconfirmed> unconfirmed;
    private final List<SharedSegment> sharedSegments;
    private final List<SourceConflict> sourceConflicts;

    private Topology(Graph<String, Cable> graph, Map<String, NodeRecord> records, Map<PortRef, Port> ports, Map<PortRef, Cable> cableAt,
                     List<Unconfirmed> unconfirmed, List<SharedSegment> sharedSegments, List<SourceConflict> sourceConflicts) {
        this.graph = graph;
        this.records = records;
        this.ports = ports;
        Map<String, List<Port>> byNode = new HashMap<>();
        new TreeMap<>(ports).values().forEach(p -> byNode.computeIfAbsent(p.node(), n -> new ArrayList<>()).add(p));
        byNode.replaceAll((n, list) -> List.copyOf(list));
        this.portsByNode = byNode;
        this.cableAt = cableAt;
        this.unconfirmed = unconfirmed;
        this.sharedSegments = sharedSegments;
        this.sourceConflicts = sourceConflicts;
    }

    /**
     * Builds the topology of a snapshot. The result does not depend on the order of records, ports
     * or neighbours.
     *
     * @param snapshot every node record
     * @return the topology
     */
    public static Topology of(Snapshot snapshot) {
        Map<PortRef, Port> ports = new HashMap<>();
        Map<String, NodeRecord> records = new HashMap<>();
        for (NodeRecord record : snapshot.records()) {
            records.put(record.node(), record);
            for (Port port : record.ports()) {
                ports.put(port.ref(), port);
            }
        }
        Map<String, List<Port>> byDomain = new HashMap<>();
        Map<String, PortRef> byHcaPort = new HashMap<>();
        for (Port port : new TreeMap<>(ports).values()) {
            port.thunderbolt().flatMap(Thunderbolt::domainUuid).ifPresent(d -> byDomain.computeIfAbsent(d, k -> new ArrayList<>()).add(port));
            port.infiniband().flatMap(ib -> ib.keyOf(port.rdmaPort())).ifPresent(k -> byHcaPort.putIfAbsent(k, port.ref()));
        }

        List<Unconfirmed> unconfirmed = new ArrayList<>();
        List<SourceConflict> conflicts = new ArrayList<>();
        Map<PortRef, Set<PortRef>> observed = new TreeMap<>();
        Map<PortRef, SourceConflict> conflictAt = new HashMap<>();
        for (Port port : new TreeMap<>(ports).values()) {
            Set<PortRef> far = new TreeSet<>(port.neighbours());
            Optional<String> peerDomain = port.thunderbolt().flatMap(Thunderbolt::peerDomainUuid);
            Optional<String> peerHcaPort = port.infiniband().flatMap(Infiniband::peerKey);
            SourceConflict.Pairing pairing = peerDomain.isPresent() ? SourceConflict.Pairing.THUNDERBOLT : SourceConflict.Pairing.INFINIBAND;
            Optional<String> peerKey = peerDomain.isPresent() ? peerDomain : peerHcaPort;
            if (peerKey.isPresent()) {
                List<Port> sharing = pairing == SourceConflict.Pairing.THUNDERBOLT ? thunderboltPeers(port, byDomain) : List.of();
                if (sharing.size() > 1) {
                    if (far.isEmpty()) {
                        unconfirmed.add(new Unconfirmed(port.ref(), Optional.empty(), "its Thunderbolt peer (domain " + peerKey.get()
                                + ") is carried by " + sharing.size() + " ports, which the domain UUIDs do not tell apart (only the probe can)",
                                sharing.stream().map(Port::ref).toList()));
                    }
                    observed.put(port.ref(), far);
                    continue;
                }
                PortRef peer = pairing == SourceConflict.Pairing.THUNDERBOLT
                        ? sharing.stream().findFirst().map(Port::ref).orElse(null) : byHcaPort.get(peerKey.get());
                if (peer != null && !peer.node().equals(port.node())) {
                    if (!far.isEmpty() && !far.equals(Set.of(peer))) {
                        SourceConflict conflict = new SourceConflict(port.ref(), pairing, peer, new ArrayList<>(far));
                        conflicts.add(conflict);
                        conflictAt.put(port.ref(), conflict);
                        far.clear();
                    } else {
                        far.add(peer);
                    }
                } else if (far.isEmpty()) {
                    String named = pairing == SourceConflict.Pairing.THUNDERBOLT
                            ? "its Thunderbolt peer (domain " + peerKey.get() + ")"
                            : "its InfiniBand neighbour (HCA " + port.infiniband().flatMap(Infiniband::peerNodeGuid).orElseThrow()
                                    + " port " + port.infiniband().flatMap(Infiniband::peerPort).orElseThrow() + ")";
                    unconfirmed.add(new Unconfirmed(port.ref(), Optional.empty(), named
                            + (peer == null ? " is on no node of the snapshot" : " is " + peer + ", on its own node"),
                            peer == null ? List.of() : List.of(peer)));
                }
            }
            observed.put(port.ref(), far);
        }

        Graph<String, Cable> graph = GraphTypeBuilder.<String, Cable>undirected()
                .allowingMultipleEdges(true).allowingSelfLoops(false).weighted(false).buildGraph();
        snapshot.nodes().forEach(graph::addVertex);
        Map<PortRef, Cable> cableAt = new HashMap<>();
        List<SharedSegment> segments = new ArrayList<>();
        for (Map.Entry<PortRef, Set<PortRef>> entry : observed.entrySet()) {
            PortRef p = entry.getKey();
            Set<PortRef> far = entry.getValue();
            if (far.size() > 1) {
                segments.add(new SharedSegment(p, new ArrayList<>(far)));
                continue;
            }
            if (far.isEmpty()) {
                continue;
            }
            PortRef q = far.iterator().next();
            Set<PortRef> back = observed.get(q);
            String reason = null;
            List<PortRef> named = List.of(q);
            if (q.node().equals(p.node())) {
                reason = "it loops back to its own node";
                named = List.of();
            } else if (conflictAt.containsKey(q)) {
                reason = "the " + conflictAt.get(q).pairing().phrase() + " and the probe of " + q + " disagree";
            } else if (!graph.containsVertex(q.node())) {
                reason = "node " + q.node() + " has no record";
                named = List.of();
            } else if (back == null) {
                reason = "node " + q.node() + " reports no port " + q.netdev();
                named = List.of();
            } else if (back.size() > 1) {
                reason = q + " is on a shared segment";
            } else if (!back.contains(p)) {
                reason = back.isEmpty() ? q + " observed no far end" : q + " observed " + back.iterator().next() + " instead";
                named = back.isEmpty() ? List.of(q) : List.of(q, back.iterator().next());
            }
            if (reason != null) {
                unconfirmed.add(new Unconfirmed(p, Optional.of(q), reason, named));
            } else if (p.compareTo(q) < 0) {
                Cable cable = new Cable(p, q);
                graph.addEdge(p.node(), q.node(), cable);
                cableAt.put(p, cable);
                cableAt.put(q, cable);
            }
        }
        unconfirmed.sort(Comparator.comparing(Unconfirmed::from));
        return new Topology(new AsUnmodifiableGraph<>(graph), Collections.unmodifiableMap(records), Collections.unmodifiableMap(ports),
                Collections.unmodifiableMap(cableAt), List.copyOf(unconfirmed), List.copyOf(segments), List.copyOf(conflicts));
    }

    /**
     * The ports a Thunderbolt port's {@code peerDomainUuid} may name: those whose {@code domainUuid}
     * it is; when several (one Linux domain carries every cable of its host router), only those
     * whose own {@code peerDomainUuid} names this port's domain back. Several left means the pair of
     * UUIDs cannot tell the cables apart (two cables between the same two Linux domains).
     *
     * @return the candidates, in port order; empty when none
     */
    private static List<Port> thunderboltPeers(Port port, Map<String, List<Port>> byDomain) {
        List<Port> named = byDomain.getOrDefault(port.thunderbolt().flatMap(Thunderbolt::peerDomainUuid).orElseThrow(), List.of());
        if (named.size() < 2) {
            return named;
        }
        Optional<String> own = port.thunderbolt().flatMap(Thunderbolt::domainUuid);
        List<Port> namingBack = named.stream()
                .filter(q -> own.isPresent() && q.thunderbolt().flatMap(Thunderbolt::peerDomainUuid).equals(own)).toList();
        return namingBack.isEmpty() ? named : namingBack;
    }

    /** @return the cable multigraph (read-only): node names as vertices, one edge per confirmed cable */
    public Graph<String, Cable> graph() {
        return graph;
    }

    /** @return every node, sorted (digits compared as numbers) */
    public List<String> nodes() {
        return graph.vertexSet().stream().sorted(NaturalOrder.INSTANCE).toList();
    }

    /** @return true when the snapshot held a record for {@code node} */
    public boolean hasNode(String node) {
        return graph.containsVertex(node);
    }

    /** @return every confirmed cable, sorted */
    public List<Cable> cables() {
        return graph.edgeSet().stream().sorted().toList();
    }

    /**
     * @param x a node
     * @param y another node
     * @return the confirmed cables between them, sorted; empty when none or a node is unknown
     */
    public List<Cable> cablesBetween(String x, String y) {
        if (!graph.containsVertex(x) || !graph.containsVertex(y)) {
            return List.of();
        }
        return graph.getAllEdges(x, y).stream().sorted().toList();
    }

    /**
     * @param node a node name
     * @return that node's record (its management address, whether RDMA is on, its ports), if the
     *         snapshot held one
     */
    public Optional<NodeRecord> record(String node) {
        return Optional.ofNullable(records.get(node));
    }

    /** @return the port with that identity, if any record holds it */
    public Optional<Port> port(PortRef ref) {
        return Optional.ofNullable(ports.get(ref));
    }

    /** @return every port of every record, sorted by identity */
    public List<Port> ports() {
        return ports.values().stream().sorted(Comparator.comparing(Port::ref)).toList();
    }

    /** @return the ports of one node, sorted by netdev (digits compared as numbers); empty for an unknown node */
    public List<Port> ports(String node) {
        return portsByNode.getOrDefault(node, List.of());
    }

    /** @return the confirmed cable that ends at {@code ref}, if any */
    public Optional<Cable> cableAt(PortRef ref) {
        return Optional.ofNullable(cableAt.get(ref));
    }

    /** @return one-sided observations, sorted by observing port */
    public List<Unconfirmed> unconfirmed() {
        return unconfirmed;
    }

    /** @return ports that heard several far ends, sorted by port */
    public List<SharedSegment> sharedSegments() {
        return sharedSegments;
    }

    /** @return ports whose Thunderbolt or InfiniBand pairing and probe name different far ends, sorted by port */
    public List<SourceConflict> sourceConflicts() {
        return sourceConflicts;
    }

    /** @return the nodes joined to {@code node} by at least one confirmed cable */
    public Set<String> cabledTo(String node) {
        return new TreeSet<>(Graphs.neighborSetOf(graph, node));
    }
}
