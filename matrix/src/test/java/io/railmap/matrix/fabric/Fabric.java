package io.railmap.matrix.fabric;

import io.railmap.matrix.model.FarEndSource;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.model.PortState;
import io.railmap.matrix.model.Snapshot;
import io.railmap.matrix.model.SwitchPort;
import io.railmap.matrix.topology.Topology;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * A switched fabric for tests: nodes whose NICs {@code mlx5_k} (netdev {@code ethK}, 400 Gb/s,
 * RoCE) are cabled to leaf switches that announce themselves by LLDP ({@code leafN}, chassis
 * {@code 52:54:00:00:00:0N}, port {@code pM}). Public for the rail diagram's tests ({@code matrix/draw}).
 */
public final class Fabric {
    private final Map<String, Map<String, Port>> nodes = new LinkedHashMap<>();
    private final Map<String, Integer> nextSwitchPort = new LinkedHashMap<>();
    private final Map<String, String> management = new LinkedHashMap<>();

    /** Every node of {@code nodes} gets NIC mlx5_k on leaf k, for k below {@code rails}. */
    public static Fabric railOptimised(int nodes, int rails) {
        Fabric f = new Fabric();
        for (int n = 1; n <= nodes; n++) {
            for (int k = 0; k < rails; k++) {
                f.nic("g" + n, k, "leaf" + k);
            }
        }
        return f;
    }

    /**
     * {@link #railOptimised} without LLDP: no port names a switch, and each leaf is a segment the probe hears
     * (every port of a leaf hears the others on it).
     */
    static Fabric probedSegments(int nodes, int rails) {
        Fabric f = railOptimised(nodes, rails);
        for (int n = 1; n <= nodes; n++) {
            for (int k = 0; k < rails; k++) {
                List<PortRef> others = new ArrayList<>();
                for (int m = 1; m <= nodes; m++) {
                    if (m != n) {
                        others.add(new PortRef("g" + m, "eth" + k));
                    }
                }
                f.change("g" + n + ":eth" + k, p -> p.withSwitchPort(Optional.empty()).withNeighbours(others));
            }
        }
        return f;
    }

    /** Adds NIC mlx5_{@code k} of {@code node}, cabled to {@code leaf}. */
    public Fabric nic(String node, int k, String leaf) {
        int p = nextSwitchPort.merge(leaf, 1, Integer::sum);
        Port port = new Port(node, "eth" + k, Optional.of("mlx5_" + k), 1, PortKind.ROCE, Optional.of(400.0), PortState.ACTIVE,
                Optional.empty(), List.of("10." + k + "." + nodes.size() / 250 + "." + (nodes.size() % 250 + 1)), true, Optional.empty(),
                Optional.of(lldp(leaf, "p" + p)), List.of());
        nodes.computeIfAbsent(node, n -> new LinkedHashMap<>()).put(port.netdev(), port);
        return this;
    }

    static SwitchPort lldp(String leaf, String port) {
        String digits = leaf.replaceAll("\\D", "");
        return new SwitchPort(FarEndSource.LLDP, String.format("52:54:00:00:00:%02x", Integer.parseInt(digits.isEmpty() ? "0" : digits)),
                Optional.of(leaf), port);
    }

    /**
     * Adds NICs {@code a} and {@code b} ({@code node:ethK}, HCA mlx5_K) joined by a direct cable, each
     * node running lldpd as on a GPU node with a bridge or IP forwarding: it hears the other node as
     * an LLDP neighbour (chassis {@code 02:00:00:00:00:NN}, its node's number; the port ID the far
     * NIC's MAC).
     *
     * @param systemName maps a node name to the system name its lldpd announces
     * @param probed     whether the probe hears each end from the other (a confirmed cable)
     */
    public Fabric directCable(String a, String b, UnaryOperator<String> systemName, boolean probed) {
        PortRef x = PortRef.parse(a);
        PortRef y = PortRef.parse(b);
        nodes.computeIfAbsent(x.node(), n -> new LinkedHashMap<>()).put(x.netdev(), cableEnd(x, y, systemName, probed));
        nodes.computeIfAbsent(y.node(), n -> new LinkedHashMap<>()).put(y.netdev(), cableEnd(y, x, systemName, probed));
        return this;
    }

    private static Port cableEnd(PortRef end, PortRef far, UnaryOperator<String> systemName, boolean probed) {
        int k = Integer.parseInt(end.netdev().replaceAll("\\D", ""));
        String farChassis = String.format("02:00:00:00:00:%02x", Integer.parseInt(far.node().replaceAll("\\D", "")));
        SwitchPort heard = new SwitchPort(FarEndSource.LLDP, farChassis, Optional.of(systemName.apply(far.node())),
                String.format("0c:42:a1:00:%02x:%02x", Integer.parseInt(far.node().replaceAll("\\D", "")), k));
        return new Port(end.node(), end.netdev(), Optional.of("mlx5_" + k), 1, PortKind.ROCE, Optional.of(400.0), PortState.ACTIVE,
                Optional.empty(), List.of(), true, Optional.empty(), Optional.of(heard), probed ? List.of(far) : List.of());
    }

    /** Changes the NIC {@code node:ethK}. */
    public Fabric change(String port, UnaryOperator<Port> change) {
        PortRef ref = PortRef.parse(port);
        nodes.get(ref.node()).computeIfPresent(ref.netdev(), (n, p) -> change.apply(p));
        return this;
    }

    /** Moves {@code node:ethK}'s cable to {@code leaf}. */
    public Fabric move(String port, String leaf) {
        int p = nextSwitchPort.merge(leaf, 1, Integer::sum);
        return change(port, x -> x.withSwitchPort(Optional.of(lldp(leaf, "p" + p))));
    }

    /** Makes {@code address} the node's management address, and gives it a port that carries it. */
    Fabric management(String node, String netdev, String address, String leaf) {
        management.put(node, address);
        Port port = new Port(node, netdev, Optional.of("mlx5_9"), 1, PortKind.ROCE, Optional.of(25.0), PortState.ACTIVE,
                Optional.empty(), List.of(address), true, Optional.empty(), Optional.of(lldp(leaf, "m" + node)), List.of());
        nodes.get(node).put(netdev, port);
        return this;
    }

    public List<NodeRecord> records() {
        List<NodeRecord> records = new ArrayList<>();
        nodes.forEach((node, ports) -> records.add(new NodeRecord(node, 1, List.copyOf(ports.values()),
                Optional.ofNullable(management.get(node)), Optional.empty())));
        return records;
    }

    RailTable table() {
        return RailTable.of(Topology.of(new Snapshot(records())));
    }
}
