package io.railmap.matrix.library;

import io.railmap.matrix.fabric.Rail;
import io.railmap.matrix.fabric.RailTable;
import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.finding.Severity;
import io.railmap.matrix.model.NaturalOrder;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.rail.RailAligner;
import io.railmap.matrix.rail.RailOptions;
import io.railmap.matrix.rail.UnknownNodesException;
import io.railmap.matrix.topology.Cable;
import io.railmap.matrix.topology.Topology;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A node's compute NICs and the rail of each, one definition for every library's settings.
 *
 * <p>A compute NIC is an active port with an RDMA device, not carrying the node's management address
 * ({@link RailTable#computeNic}), at or above the minimum rate: {@code --min-rate-gbps}, else the
 * fastest rate among them (a 25 Gb/s side NIC next to 400 Gb/s ones stays out; a NIC of unknown
 * rate stays out when some rate is known).
 *
 * <p>Its rail: its switched rail (ids 0 to S-1, S the number of rails in the {@link RailTable}), else
 * S + k for the k-th of its direct cables to that peer in their rail-aligned list
 * ({@link RailAligner}: both ends of a cable get the same id), else none. The offset S keeps a direct
 * cable off every switched rail's id: with {@code NCCL_CROSS_NIC=0} NCCL lets a channel leave a node
 * by any NIC of the rail id it entered by ({@code ncclTopoSearchCheckNet}, NVIDIA/nccl
 * {@code src/graph/search.cc}), so a leaf's NIC and a direct cable's NIC under one id would be joined.
 */
public final class ComputeNics {
    private ComputeNics() {
    }

    /**
     * @param topology every record
     * @param rails    its rail table ({@link RailTable#of})
     * @param node     the node
     * @param options  the user's choices
     * @return the node's compute NICs, with findings about those left out
     * @throws UnknownNodesException when the node has no record
     */
    public static NodeNics of(Topology topology, RailTable rails, String node, SettingsOptions options) {
        NodeRecord record = topology.record(node).orElseThrow(() -> new UnknownNodesException(List.of(node), topology.nodes()));
        List<Port> candidates = record.ports().stream().filter(p -> RailTable.computeNic(topology, p)).toList();
        Optional<Double> fastest = candidates.stream().flatMap(p -> p.rateGbps().stream()).max(Comparator.naturalOrder());
        Optional<Double> floor = options.minRateGbps().or(() -> fastest);
        List<ComputeNic> nics = new ArrayList<>();
        List<Finding> findings = new ArrayList<>();
        for (Port p : candidates) {
            if (floor.isPresent() && p.rateGbps().map(r -> r < floor.get()).orElse(true)) {
                findings.add(new Finding(Code.CABLE_LEFT_OUT, Severity.INFO, List.of(), Optional.empty(), List.of(p.ref()),
                        p.ref() + " (" + p.rdma().orElseThrow() + ") is no compute NIC: "
                                + p.rateGbps().map(RailAligner::gbps).orElse("its rate is unknown") + ", below "
                                + RailAligner.gbps(floor.get()) + (options.minRateGbps().isPresent() ? " (--min-rate-gbps)" : ", the fastest on " + node)));
                continue;
            }
            nics.add(new ComputeNic(p, rail(topology, rails, p)));
        }
        nics.sort(Comparator.comparing(ComputeNic::hca, NaturalOrder.INSTANCE).thenComparingInt(n -> n.port().rdmaPort()));
        if (nics.isEmpty()) {
            findings.add(new Finding(Code.NO_RDMA_DEVICE, Severity.ERROR, List.of(), Optional.empty(),
                    node + " has no compute NIC: no active port with an RDMA device" + (floor.isPresent() ? " at " + RailAligner.gbps(floor.get())
                            + " or faster" : "") + " other than its management interface"));
        }
        Optional<Port> management = record.management()
                .flatMap(m -> record.ports().stream().filter(p -> p.addresses().contains(m)).findFirst());
        return new NodeNics(topology, rails, node, nics, management, options, findings);
    }

    /**
     * @param nics compute NICs
     * @return the RoCE v2 IPv4-mapped GID index they all share ({@link ComputeNic#gidIndex()}), for a
     *         library that takes one index for every NIC (NCCL_IB_GID_INDEX, UCX_IB_GID_INDEX); empty
     *         when there is no NIC, one is not RoCE, one's index is unknown, or they differ
     */
    public static Optional<Integer> sharedGidIndex(List<ComputeNic> nics) {
        if (nics.isEmpty() || !nics.stream().allMatch(n -> n.port().kind() == PortKind.ROCE && n.gidIndex().isPresent())) {
            return Optional.empty();
        }
        Set<Integer> indices = nics.stream().map(n -> n.gidIndex().orElseThrow()).collect(Collectors.toSet());
        return indices.size() == 1 ? Optional.of(indices.iterator().next()) : Optional.empty();
    }

    private static Optional<Integer> rail(Topology topology, RailTable rails, Port port) {
        Optional<Integer> switched = rails.railOf(port.ref()).map(Rail::id);
        if (switched.isPresent()) {
            return switched;
        }
        Optional<Cable> cable = topology.cableAt(port.ref());
        if (cable.isEmpty()) {
            return Optional.empty();
        }
        String peer = cable.get().farEnd(port.ref()).node();
        // jaccl's ring trimming (at most 4 wires per edge) is jaccl's rule, not NCCL's or UCX's: every cable is a rail here
        List<Cable> aligned = RailAligner.align(topology, List.of(port.node(), peer), RailOptions.DEFAULTS.withEqualRingWires(false)).rails(0, 1);
        int k = aligned.indexOf(cable.get());
        return k < 0 ? Optional.empty() : Optional.of(rails.rails().size() + k);
    }
}
