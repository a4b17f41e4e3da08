package io.railmap.matrix.fabric;

import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.finding.Severity;
import io.railmap.matrix.model.Infiniband;
import io.railmap.matrix.model.NaturalOrder;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.rail.RailAligner;
import io.railmap.matrix.topology.Topology;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * What is wrong with a switched fabric's cabling, from its {@link RailTable}. Findings concern
 * nodes, not ranks (their {@code ranks} are empty); {@code rail} is the rail id when there is one.
 * <ul>
 *   <li>{@code cross-rail} (error, by port): a NIC reaches another rail than where the same-named NIC of most
 *       nodes goes (its HCA's home: the rail with the most nodes whose NIC of that name is on it,
 *       ties the lowest id, and only when at least two nodes agree), or a switch no other node
 *       reaches. Names the node, NIC, the switch it reaches and the one expected.</li>
 *   <li>{@code rail-missing} (error): a node with NICs on the fabric has no active NIC on a rail that
 *       more than half of those nodes reach.</li>
 *   <li>{@code two-nics-one-rail} (warning): a node has several NICs on one rail.</li>
 *   <li>{@code mixed-rates-on-rail} (warning): a rail's NICs run at different rates; names the NICs
 *       not at the rate most of them run at.</li>
 *   <li>{@code unknown-far-end} (warning): a compute NIC with no far end at all (no switch port, no
 *       InfiniBand HCA neighbour, no probe neighbour, no cable), or one placed on a switch's rail by the probe only; says which
 *       source to enable.</li>
 * </ul>
 */
final class RailFindings {
    /** What a {@link Code#RAIL_MISSING} sentence says right after the node's name. */
    private static final String HAS_NO_ACTIVE_NIC = " has no active NIC on ";

    /**
     * @return the node a {@link Code#RAIL_MISSING} finding is about, among {@code nodes}: its NIC's node when it names
     *         one, else the node its sentence opens with; empty for another code
     */
    static Optional<String> missingNode(Finding finding, Collection<String> nodes) {
        if (finding.code() != Code.RAIL_MISSING) {
            return Optional.empty();
        }
        if (!finding.ports().isEmpty()) {
            return Optional.of(finding.ports().get(0).node());
        }
        return nodes.stream().filter(n -> finding.message().startsWith(n + HAS_NO_ACTIVE_NIC)).findFirst();
    }
    private RailFindings() {
    }

    static List<Finding> of(Topology topology, List<Rail> rails, Map<RailNic, String> strays, List<Port> unplaced) {
        Map<String, Rail> homes = homes(rails);
        Map<PortRef, Finding> crossRail = new TreeMap<>();
        for (Rail rail : rails) {
            for (RailNic nic : rail.nics()) {
                Rail home = homes.get(nic.hca());
                if (home != null && home.id() != rail.id()) {
                    crossRail.put(nic.port(), crossRail(nic, describe(rail), home));
                }
            }
        }
        strays.forEach((nic, reached) -> {
            Rail home = homes.get(nic.hca());
            if (home != null) {
                crossRail.put(nic.port(), crossRail(nic, reached + " (no other node reaches it)", home));
            }
        });
        List<Finding> findings = new ArrayList<>(crossRail.values());
        findings.addAll(railMissing(topology, rails, strays));
        for (Rail rail : rails) {
            Map<String, List<RailNic>> byNode = rail.nics().stream()
                    .collect(Collectors.groupingBy(RailNic::node, () -> new TreeMap<>(NaturalOrder.INSTANCE), Collectors.toList()));
            byNode.forEach((node, nics) -> {
                if (nics.size() > 1) {
                    findings.add(new Finding(Code.TWO_NICS_ONE_RAIL, Severity.WARNING, List.of(), Optional.of(rail.id()),
                            nics.stream().map(RailNic::port).toList(), node + " has " + nics.size() + " NICs on " + describe(rail) + ": "
                                    + nics.stream().map(n -> n.hca() + " (" + n.port() + ")").collect(Collectors.joining(", "))
                                    + "; a rail-optimised fabric cables each NIC of a node to another rail"));
                }
            });
            mixedRates(rail).ifPresent(findings::add);
            for (RailNic nic : rail.nics()) {
                if (nic.placedBy().equals("probe") && rail.kind() == Rail.Kind.SWITCH) {
                    findings.add(new Finding(Code.UNKNOWN_FAR_END, Severity.WARNING, List.of(), Optional.of(rail.id()), List.of(nic.port()),
                            nic.port() + " (" + nic.hca() + ") names no switch at its far end, though the probe hears it with NICs that reach "
                                    + rail.name() + ": placed on rail " + rail.id() + " by the probe only; "
                                    + enable(topology.port(nic.port()).map(Port::kind).orElse(PortKind.ETHERNET), nic.port())));
                }
            }
        }
        for (Port p : unplaced) {
            // unplaced: no switch reached and on no segment; with no cable, nothing heard and no LLDP neighbour either, nothing is known
            if (topology.cableAt(p.ref()).isEmpty() && p.neighbours().isEmpty() && p.switchPort().isEmpty()
                    && p.infiniband().flatMap(Infiniband::peerNodeGuid).isEmpty()) {
                findings.add(new Finding(Code.UNKNOWN_FAR_END, Severity.WARNING, List.of(), Optional.empty(), List.of(p.ref()),
                        p.ref() + " (" + RailNic.hcaOf(p) + ") is active but railmap knows nothing at its far end: no switch port, no HCA "
                                + "neighbour, no probe neighbour, no cable; " + enable(p.kind(), p.ref())));
            }
        }
        return findings;
    }

    /** @return each HCA name's home rail: the rail most nodes' NIC of that name is on, when at least two nodes agree */
    static Map<String, Rail> homes(List<Rail> rails) {
        Map<String, Map<Integer, Set<String>>> nodes = new HashMap<>();
        for (Rail rail : rails) {
            for (RailNic nic : rail.nics()) {
                nodes.computeIfAbsent(nic.hca(), h -> new TreeMap<>()).computeIfAbsent(rail.id(), r -> new HashSet<>()).add(nic.node());
            }
        }
        Map<String, Rail> homes = new HashMap<>();
        nodes.forEach((hca, byRail) -> byRail.entrySet().stream()
                .max(Comparator.<Map.Entry<Integer, Set<String>>>comparingInt(e -> e.getValue().size())
                        .thenComparing(Map.Entry.<Integer, Set<String>>comparingByKey().reversed()))
                .filter(e -> e.getValue().size() >= 2)
                .ifPresent(e -> homes.put(hca, rails.get(e.getKey()))));
        return homes;
    }

    private static Finding crossRail(RailNic nic, String reached, Rail home) {
        long agree = home.nics().stream().filter(n -> n.hca().equals(nic.hca())).map(RailNic::node).distinct().count();
        String at = nic.switchPort().map(p -> " port " + p).orElse("");
        return new Finding(Code.CROSS_RAIL, Severity.ERROR, List.of(), Optional.of(home.id()), List.of(nic.port()),
                nic.port() + " (" + nic.hca() + ") reaches " + reached + at + ", but " + nic.hca() + " of " + agree + " other node"
                        + (agree == 1 ? "" : "s") + " reaches " + describe(home) + ": move " + nic.node() + "'s " + nic.hca()
                        + " cable to " + home.name() + " (or the cable of the NIC that belongs there)");
    }

    private static List<Finding> railMissing(Topology topology, List<Rail> rails, Map<RailNic, String> strays) {
        Set<String> onFabric = new TreeSet<>(NaturalOrder.INSTANCE);
        rails.forEach(r -> onFabric.addAll(r.nodes()));
        strays.keySet().forEach(n -> onFabric.add(n.node()));
        List<Finding> findings = new ArrayList<>();
        for (Rail rail : rails) {
            Set<String> on = new HashSet<>(rail.nodes());
            if (on.size() * 2 <= onFabric.size()) {
                continue;
            }
            for (String node : onFabric) {
                if (on.contains(node)) {
                    continue;
                }
                Optional<Port> same = topology.ports(node).stream()
                        .filter(p -> p.rdma().isPresent() && RailNic.hcaOf(p).equals(rail.hca()))
                        .findFirst();
                String why = same
                        .map(p -> "; its " + rail.hca() + " (" + p.ref() + ") " + (p.active() ? whereIs(p, rails, strays) : "is " + p.state().externalName()))
                        .orElse("");
                findings.add(new Finding(Code.RAIL_MISSING, Severity.ERROR, List.of(), Optional.of(rail.id()), same.map(Port::ref).stream().toList(),
                        node + HAS_NO_ACTIVE_NIC + describe(rail) + ", which " + on.size() + " of " + onFabric.size()
                                + " nodes reach" + why));
            }
        }
        return findings;
    }

    private static String whereIs(Port p, List<Rail> rails, Map<RailNic, String> strays) {
        for (Rail r : rails) {
            if (r.nics().stream().anyMatch(n -> n.port().equals(p.ref()))) {
                return "reaches " + describe(r);
            }
        }
        return strays.entrySet().stream().filter(e -> e.getKey().port().equals(p.ref())).findFirst()
                .map(e -> "reaches " + e.getValue()).orElse("reaches no switch railmap knows");
    }

    private static Optional<Finding> mixedRates(Rail rail) {
        Map<Double, List<RailNic>> byRate = new TreeMap<>(Comparator.reverseOrder());
        rail.nics().forEach(n -> n.rateGbps().ifPresent(r -> byRate.computeIfAbsent(r, x -> new ArrayList<>()).add(n)));
        if (byRate.size() < 2) {
            return Optional.empty();
        }
        double usual = byRate.entrySet().stream().max(Comparator.comparingInt(e -> e.getValue().size())).orElseThrow().getKey();
        List<Map.Entry<Double, List<RailNic>>> others = byRate.entrySet().stream().filter(e -> e.getKey() != usual).toList();
        String odd = others.stream()
                .flatMap(e -> e.getValue().stream().map(n -> n.port() + " at " + RailAligner.gbps(e.getKey())))
                .collect(Collectors.joining(", "));
        return Optional.of(new Finding(Code.MIXED_RATES_ON_RAIL, Severity.WARNING, List.of(), Optional.of(rail.id()),
                others.stream().flatMap(e -> e.getValue().stream().map(RailNic::port)).toList(),
                describe(rail) + " mixes rates: most NICs run at " + RailAligner.gbps(usual) + ", but " + odd
                        + "; a collective over the rail runs at its slowest NIC"));
    }

    private static String enable(PortKind kind, PortRef port) {
        if (kind == PortKind.INFINIBAND) {
            return "install infiniband-diags on " + port.node() + " (and load ib_umad) so railmapd reads the InfiniBand neighbour of "
                    + port.netdev();
        }
        return "run lldpd on " + port.node() + " with LLDP on " + port.netdev()
                + " (railmapd --lldpd-socket names its socket), and make the switch send LLDP";
    }

    /** @return {@code rail 1 (leaf1)} */
    static String describe(Rail rail) {
        return "rail " + rail.id() + " (" + rail.name() + ")";
    }
}
