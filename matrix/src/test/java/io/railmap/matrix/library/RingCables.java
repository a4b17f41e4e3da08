package io.railmap.matrix.library;

import io.railmap.matrix.fabric.RailTable;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.model.PortState;
import io.railmap.matrix.model.Snapshot;
import io.railmap.matrix.topology.Topology;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Builds Mac-like topologies for the ring tests: Thunderbolt cables between nodes, each end with an address or
 * none; an address is a /24 (the tests give each cable a /24 of its own, so each connection travels its cable).
 */
final class RingCables {
    private final Map<String, List<Port>> ports = new LinkedHashMap<>();

    /** @param nodes every node, each getting a record even without cables */
    RingCables(String... nodes) {
        for (String n : nodes) {
            ports.put(n, new ArrayList<>());
        }
    }

    /**
     * Adds a cable from a fresh port on {@code a} to a fresh port on {@code b}.
     *
     * @param ipA the address of a's end, or null for none
     * @param ipB the address of b's end, or null for none
     * @param state both ends' state
     */
    RingCables cable(String a, String ipA, String b, String ipB, PortState state) {
        String pa = "en" + (ports.get(a).size() + 2);
        String pb = "en" + (ports.get(b).size() + 2);
        ports.get(a).add(port(a, pa, ipA, state, new PortRef(b, pb)));
        ports.get(b).add(port(b, pb, ipB, state, new PortRef(a, pa)));
        return this;
    }

    RingCables cable(String a, String ipA, String b, String ipB) {
        return cable(a, ipA, b, ipB, PortState.ACTIVE);
    }

    /** Gives every port of {@code node} so far these RDMA device limits. */
    RingCables limits(String node, Optional<io.railmap.matrix.model.RdmaLimits> limits) {
        ports.get(node).replaceAll(p -> p.withRdmaLimits(limits));
        return this;
    }

    private static Port port(String node, String netdev, String ip, PortState state, PortRef far) {
        return new Port(node, netdev, Optional.of("rdma_" + netdev), 1, PortKind.THUNDERBOLT, Optional.of(80.0), state, Optional.empty(),
                ip == null ? List.of() : List.of(ip), ip == null ? Map.of() : Map.of(ip, 24), true, Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), List.of(far));
    }

    Topology topology() {
        List<NodeRecord> records = new ArrayList<>();
        int i = 0;
        for (Map.Entry<String, List<Port>> e : ports.entrySet()) {
            records.add(new NodeRecord(e.getKey(), 1, e.getValue(), Optional.of("10.0.0." + (++i)), Optional.of(true)));
        }
        return Topology.of(new Snapshot(records));
    }

    /** @return the library's settings for the node of this topology */
    NodeSettings settings(Library library, String node) {
        Topology t = topology();
        return library.settings(ComputeNics.of(t, RailTable.of(t), node, SettingsOptions.DEFAULTS));
    }
}
