package io.railmap.matrix.check;

import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.finding.Severity;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.model.Thunderbolt;
import io.railmap.matrix.rail.DeviceMatrix;
import io.railmap.matrix.rail.RailAligner;
import io.railmap.matrix.rail.RailOptions;
import io.railmap.matrix.topology.Cable;
import io.railmap.matrix.topology.Topology;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Launch readiness: what the records say about the ranked nodes that would make jaccl fail at
 * launch although the cables are right, each finding saying what to run to fix it. It reads only the
 * records (their {@code rdmaEnabled}, and each port's {@code bridge}, {@code addresses} and
 * Thunderbolt facts); a fact a record does not carry (an older daemon's, a Linux node's
 * {@code rdmaEnabled}) gives no finding, never a false one.
 *
 * <table>
 *   <caption>Findings</caption>
 *   <tr><th>code</th><th>severity</th><th>when</th></tr>
 *   <tr><td>{@code rdma-disabled}</td><td>error, per node</td><td>the node's record says RDMA is
 *       disabled and one of its Thunderbolt ports ends a cable to another rank (with RDMA off no
 *       Thunderbolt port has an RDMA device, so such a cable is what would be a rail)</td></tr>
 *   <tr><td>{@code bridged-port}</td><td>error for a rail end, warning for another cable end between
 *       ranks</td><td>the port is a member of a bridge</td></tr>
 *   <tr><td>{@code no-ipv4}</td><td>error, per rail end</td><td>the record lists the port's addresses
 *       ({@link Port#addressesKnown()}) and none is IPv4</td></tr>
 *   <tr><td>{@code slow-thunderbolt}</td><td>warning, per cable between ranks</td><td>an end's
 *       Thunderbolt link speed is known and below {@value Thunderbolt#RDMA_MIN_LINK_GBPS} Gb/s</td></tr>
 *   <tr><td>{@code behind-hub}</td><td>warning, per cable between ranks</td><td>an end's Thunderbolt
 *       peer sits behind a hub or dock</td></tr>
 * </table>
 * The last two cables are never rails ({@link RailAligner} leaves them out, {@code cable-left-out});
 * these findings add the fix. Pure: no I/O; O(ranks + cables of the ranked nodes).
 */
public final class Readiness {
    private Readiness() {
    }

    /**
     * @param topology the cable graph, with the records of the ranked nodes
     * @param matrix   the matrix computed for the ranks (its rails say which cable ends are rail ends)
     * @return the findings, errors first, then node by node in rank order and cable by cable in
     *         cable order; empty when every ranked node is ready as far as its record tells
     */
    public static List<Finding> of(Topology topology, DeviceMatrix matrix) {
        RankScope scope = RankScope.of(matrix.ranks());
        return of(topology, scope, cable -> matrix.rails(scope.rank(cable.a().node()).orElseThrow(), scope.rank(cable.b().node()).orElseThrow()));
    }

    /**
     * The rank-free readiness findings ({@link CableFindings}): over every node and every cable, naming
     * no rank; a cable's rail is its place in its pair's rail order ({@link RailAligner#usable} with
     * {@link RailOptions#DEFAULTS}), before any trimming of a ring. O(nodes + cables).
     *
     * @param topology the records
     * @return the findings, errors first, then node by node in name order and cable by cable
     */
    public static List<Finding> of(Topology topology) {
        return of(topology, RankScope.EVERY_NODE,
                cable -> RailAligner.usable(topology, cable.a().node(), cable.b().node(), RailOptions.DEFAULTS, new ArrayList<>()));
    }

    /**
     * @param railsOf the rails of a cable's pair of nodes, in rail order (rail k is the k-th), asked only
     *                for a cable with a bridged end or an end without IPv4; a cable not among them is on no rail
     */
    private static List<Finding> of(Topology topology, RankScope scope, Function<Cable, List<Cable>> railsOf) {
        List<String> nodes = scope.nodes(topology);
        // The cables between nodes in scope, found from each node's own cables: O(nodes + their cables), never a walk over all pairs.
        List<Cable> between = new ArrayList<>();
        Map<String, List<Cable>> byNode = new HashMap<>();
        for (String node : nodes) {
            for (Cable cable : topology.graph().edgesOf(node)) {
                String far = cable.farEnd(cable.end(node)).node();
                if (!far.equals(node) && scope.covers(far)) {
                    byNode.computeIfAbsent(node, n -> new ArrayList<>()).add(cable);
                    if (cable.a().node().equals(node)) {
                        between.add(cable);
                    }
                }
            }
        }
        between.sort(Comparator.naturalOrder());
        List<Finding> out = new ArrayList<>();
        for (String node : nodes) {
            rdmaDisabled(topology, node, scope.onNodes(node).orElseThrow(), byNode.getOrDefault(node, List.of())).ifPresent(out::add);
        }
        for (Cable cable : between) {
            List<Integer> on = scope.on(cable.a(), cable.b()).orElseThrow();
            List<Port> ends = List.of(topology.port(cable.a()).orElseThrow(), topology.port(cable.b()).orElseThrow());
            boolean railMatters = ends.stream().anyMatch(end -> end.bridge().isPresent() || end.addressesKnown() && end.ipv4().isEmpty());
            int k = railMatters ? railsOf.apply(cable).indexOf(cable) : -1;
            Optional<Integer> rail = k < 0 ? Optional.empty() : Optional.of(k);
            for (Port end : ends) {
                end.bridge().ifPresent(bridge -> out.add(bridged(end, bridge, cable, rail, on)));
                if (rail.isPresent() && end.addressesKnown() && end.ipv4().isEmpty()) {
                    out.add(noIpv4(end, cable, rail, on));
                }
            }
            List<Thunderbolt> links = ends.stream().flatMap(p -> p.thunderbolt().stream()).toList();
            if (links.stream().anyMatch(Thunderbolt::behindHub)) {
                out.add(new Finding(Code.BEHIND_HUB, Severity.WARNING, on, rail, List.of(cable.a(), cable.b()), "Thunderbolt cable " + cable
                        + " reaches its peer through a hub or dock, which carries no RDMA: cable the two hosts to each other"
                        + " directly (between Macs, Thunderbolt 5 port to Thunderbolt 5 port)"));
            }
            // Thunderbolt 5 is Apple's rule (a Mac's end reads the cable's speed too); a Linux end's usb4_rdma runs at 40 Gb/s
            Optional<Double> slowest = links.stream().filter(t -> t.xdomain().isEmpty()).flatMap(t -> t.linkSpeedGbps().stream())
                    .min(Double::compare);
            if (slowest.isPresent() && slowest.get() < Thunderbolt.RDMA_MIN_LINK_GBPS) {
                out.add(new Finding(Code.SLOW_THUNDERBOLT, Severity.WARNING, on, rail, List.of(cable.a(), cable.b()), "Thunderbolt cable " + cable
                        + " links at " + RailAligner.gbps(slowest.get()) + ", Thunderbolt 4 or a Thunderbolt 4 cable; RDMA needs"
                        + " Thunderbolt 5 (" + RailAligner.gbps(Thunderbolt.RDMA_MIN_LINK_GBPS) + "): join Thunderbolt 5 ports of"
                        + " both Macs with a Thunderbolt 5 cable"));
            }
        }
        out.sort(Comparator.comparing(Finding::severity));
        return out;
    }

    /**
     * One finding for a node in scope whose RDMA is off and whose Thunderbolt ports are cabled to other
     * nodes in scope ({@code cables}: the node's cables to them; {@code rank}: the rank it names, if any).
     */
    private static Optional<Finding> rdmaDisabled(Topology topology, String node, List<Integer> rank, List<Cable> cables) {
        if (!topology.record(node).flatMap(NodeRecord::rdmaEnabled).map(on -> !on).orElse(false)) {
            return Optional.empty();
        }
        List<PortRef> ports = cables.stream()
                .map(c -> topology.port(c.end(node)).orElseThrow())
                .filter(p -> p.kind() == PortKind.THUNDERBOLT)
                .map(Port::ref).distinct().sorted().toList();
        if (ports.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Finding(Code.RDMA_DISABLED, Severity.ERROR, rank, Optional.empty(), ports, "node " + node
                + " has RDMA over Thunderbolt turned off (rdma_ctl status: disabled), so its Thunderbolt "
                + (ports.size() == 1 ? "port " : "ports ") + ports.stream().map(PortRef::toString).collect(Collectors.joining(", ")) + " cabled to other ranks "
                + (ports.size() == 1 ? "has" : "have") + " no RDMA device jaccl can open: on " + node
                + ", start macOS Recovery, run `rdma_ctl enable` in its Terminal, and restart"));
    }

    private static Finding bridged(Port end, String bridge, Cable cable, Optional<Integer> rail, List<Integer> on) {
        String what = end.ref() + (rail.isPresent() ? ", an end of rail " + rail.get() + " (cable " + cable + ")," : " (cable " + cable + ")")
                + " is a member of " + bridge;
        String fix;
        if (end.appleThunderbolt()) {
            fix = what + (bridge.equals("bridge0") ? ", the Thunderbolt Bridge" : "") + "; while a bridge holds it, jaccl's queue"
                    + " pairs fail to reach RTR (errno 22): run `sudo ifconfig " + bridge + " deletem " + end.netdev() + "` on "
                    + end.node() + ", or remove the Thunderbolt Bridge service (System Settings, Network) so it stays out";
        } else {
            fix = what + "; a bridge member is the bridge's, not a point-to-point rail: run `sudo ip link set " + end.netdev()
                    + " nomaster` on " + end.node();
        }
        return new Finding(Code.BRIDGED_PORT, rail.isPresent() ? Severity.ERROR : Severity.WARNING, on, rail,
                List.of(end.ref(), cable.a(), cable.b()), fix);
    }

    private static Finding noIpv4(Port end, Cable cable, Optional<Integer> rail, List<Integer> on) {
        String have = end.addresses().isEmpty() ? "no address at all"
                : "only " + end.addresses().stream().collect(Collectors.joining(", "));
        String run = end.appleThunderbolt()
                ? "`sudo ifconfig " + end.netdev() + " inet 169.254.N.M netmask 255.255.0.0 alias`"
                : "`sudo ip addr add 169.254.N.M/16 dev " + end.netdev() + "`";
        return new Finding(Code.NO_IPV4, Severity.ERROR, on, rail, List.of(end.ref(), cable.a(), cable.b()), end.ref() + ", an end of rail " + rail.orElseThrow()
                + " (cable " + cable + "), has no IPv4 address (" + have + "), so its RDMA device publishes no IPv4-mapped GID,"
                + " which jaccl needs to connect a queue pair (MLX jaccl/rdma.cpp, Connection::info): give it a link-local one with "
                + run + " on " + end.node() + ", N.M unique on the cable");
    }
}
