package io.railmap.matrix.library;

import io.railmap.matrix.fabric.RailTable;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.PortState;
import io.railmap.matrix.model.Snapshot;
import io.railmap.matrix.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One node for library tests: RoCE NICs {@code ethK} (address {@code 10.K.0.1}) with the RDMA
 * device and rate given, and optionally a management NIC carrying the node's management address.
 */
public final class StripeNode {
    public static final String MANAGEMENT = "192.168.0.1";
    private final String node;
    private final List<Port> ports = new ArrayList<>();
    private Optional<String> management = Optional.empty();

    private StripeNode(String node) {
        this.node = node;
    }

    public static StripeNode named(String node) {
        return new StripeNode(node);
    }

    /** An active NIC at {@code rateGbps}. */
    public StripeNode nic(String hca, int rdmaPort, double rateGbps) {
        return nic(hca, rdmaPort, Optional.of(rateGbps), PortState.ACTIVE);
    }

    public StripeNode nic(String hca, int rdmaPort, Optional<Double> rateGbps, PortState state) {
        return nic(hca, rdmaPort, rateGbps, state, Optional.empty());
    }

    /** An active NIC at {@code rateGbps} whose RoCE v2 IPv4-mapped GID is at {@code gidIndex}. */
    public StripeNode nic(String hca, int rdmaPort, double rateGbps, int gidIndex) {
        return nic(hca, rdmaPort, Optional.of(rateGbps), PortState.ACTIVE, Optional.of(gidIndex));
    }

    private StripeNode nic(String hca, int rdmaPort, Optional<Double> rateGbps, PortState state, Optional<Integer> gidIndex) {
        int k = ports.size();
        ports.add(new Port(node, "eth" + k, Optional.of(hca), rdmaPort, PortKind.ROCE, rateGbps, state, Optional.empty(),
                List.of("10." + k + ".0.1"), true, Optional.empty(), Optional.empty(), gidIndex, List.of()));
        return this;
    }

    /** A NIC carrying the node's management address {@value #MANAGEMENT}. */
    public StripeNode management(String hca, double rateGbps) {
        management = Optional.of(MANAGEMENT);
        ports.add(new Port(node, "mgmt0", Optional.of(hca), 1, PortKind.ROCE, Optional.of(rateGbps), PortState.ACTIVE, Optional.empty(),
                List.of(MANAGEMENT), true, Optional.empty(), List.of()));
        return this;
    }

    public NodeNics nics(SettingsOptions options) {
        Topology topology = Topology.of(new Snapshot(List.of(new NodeRecord(node, 1, ports, management, Optional.empty()))));
        return ComputeNics.of(topology, RailTable.of(topology), node, options);
    }

    public NodeNics nics() {
        return nics(SettingsOptions.DEFAULTS);
    }
}
