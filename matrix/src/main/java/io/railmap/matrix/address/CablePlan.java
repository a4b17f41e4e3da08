package io.railmap.matrix.address;

import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.rail.RailAligner;
import io.railmap.matrix.topology.Cable;
import io.railmap.matrix.topology.Topology;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The address plan for the direct cables of a cluster ({@code railmap addresses}): every confirmed
 * cable between two of the given nodes, in cable order ({@link Cable#compareTo}), gets its /30
 * ({@link AddressPlan}). A switched rail is left alone: its subnet is the fabric's to number, one per
 * rail. The addresses of every port not on a planned cable and the nodes' management addresses are
 * in use: no subnet of the plan holds one. A planned port's own addresses are not: the plan replaces
 * them, so that a plan applied and asked for again is the same plan.
 */
public final class CablePlan {
    private CablePlan() {
    }

    /**
     * @param topology every record and cable
     * @param nodes    the nodes whose cables to number, distinct, each with a record
     * @param pool     where the subnets come from
     * @return the plan, one cable link per confirmed cable between two of the nodes, in cable order
     * @throws io.railmap.matrix.rail.UnknownNodesException when a node has no record
     * @throws IllegalArgumentException when a node is named twice or the pool has no room ({@link AddressPlan#of})
     */
    public static AddressPlan of(Topology topology, List<String> nodes, Ipv4Subnet pool) {
        RailAligner.validateRanks(topology, nodes);
        Set<String> chosen = Set.copyOf(nodes);
        TreeSet<Cable> cables = new TreeSet<>();
        for (Cable cable : topology.cables()) {
            if (chosen.contains(cable.a().node()) && chosen.contains(cable.b().node())) {
                cables.add(cable);
            }
        }
        Set<PortRef> planned = new HashSet<>();
        List<AddressPlan.Link> links = new ArrayList<>();
        for (Cable cable : cables) {
            links.add(new AddressPlan.Link(List.of(cable.a(), cable.b()), false));
            planned.add(cable.a());
            planned.add(cable.b());
        }
        List<String> taken = new ArrayList<>();
        for (String node : topology.nodes()) {
            NodeRecord record = topology.record(node).orElseThrow();
            record.management().filter(Ipv4Subnet::isIpv4).ifPresent(taken::add);
            for (Port port : record.ports()) {
                if (!planned.contains(port.ref())) {
                    taken.addAll(port.ipv4());
                }
            }
        }
        return AddressPlan.of(links, pool, taken);
    }
}
