package io.railmap.matrix;

import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.model.PortState;
import io.railmap.matrix.model.Snapshot;
import io.railmap.matrix.model.Thunderbolt;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Builds snapshots for tests: cables are declared by their two ends and become ports whose
 * neighbours point at each other. Ports get RDMA names {@code rdma_<netdev>} unless told otherwise.
 */
public final class Cluster {
    private final Map<String, Map<String, Port>> nodes = new TreeMap<>();
    private final List<String> nodeOrder = new ArrayList<>();

    /** Adds a node with no ports (if absent). */
    public Cluster node(String node) {
        if (!nodes.containsKey(node)) {
            nodes.put(node, new LinkedHashMap<>());
            nodeOrder.add(node);
        }
        return this;
    }

    /** A confirmed cable between two ports, both active, 100 Gb/s. */
    public Cluster cable(String x, String y) {
        return cable(x, y, 100.0, PortState.ACTIVE);
    }

    /** A confirmed cable with a rate for both ends and a state for both ends. */
    public Cluster cable(String x, String y, double rateGbps, PortState state) {
        PortRef a = PortRef.parse(x);
        PortRef b = PortRef.parse(y);
        put(port(a, Optional.of(rateGbps), state, List.of(b)));
        put(port(b, Optional.of(rateGbps), state, List.of(a)));
        return this;
    }

    /** A confirmed cable between two plain Ethernet ports without RDMA devices, both active, 100 Gb/s. */
    public Cluster plainCable(String x, String y) {
        PortRef a = PortRef.parse(x);
        PortRef b = PortRef.parse(y);
        for (PortRef[] end : new PortRef[][] {{a, b}, {b, a}}) {
            put(new Port(end[0].node(), end[0].netdev(), Optional.empty(), 1, PortKind.ETHERNET, Optional.of(100.0), PortState.ACTIVE,
                    Optional.<Thunderbolt>empty(), List.of(end[1])));
        }
        return this;
    }

    /** Port {@code x} hears {@code y}; {@code y} (if it exists) hears nothing back. */
    public Cluster oneSided(String x, String y) {
        PortRef a = PortRef.parse(x);
        put(port(a, Optional.of(100.0), PortState.ACTIVE, List.of(PortRef.parse(y))));
        node(PortRef.parse(y).node());
        return this;
    }

    /** Port {@code x} hears every one of {@code far}. */
    public Cluster hears(String x, String... far) {
        List<PortRef> refs = new ArrayList<>();
        for (String f : far) {
            refs.add(PortRef.parse(f));
        }
        put(port(PortRef.parse(x), Optional.of(100.0), PortState.ACTIVE, refs));
        return this;
    }

    /** Replaces a port entirely. */
    public Cluster put(Port port) {
        node(port.node());
        nodes.get(port.node()).put(port.netdev(), port);
        return this;
    }

    /** Gives one port these IP addresses (plain, no prefix length), known. */
    public Cluster addresses(String x, String... ips) {
        PortRef ref = PortRef.parse(x);
        Port p = nodes.get(ref.node()).get(ref.netdev());
        return put(new Port(p.node(), p.netdev(), p.rdma(), p.rdmaPort(), p.kind(), p.rateGbps(), p.state(), p.thunderbolt(), List.of(ips),
                true, p.bridge(), p.switchPort(), p.gidIndex(), p.neighbours()));
    }

    /** Changes the state of one port. */
    public Cluster state(String x, PortState state) {
        PortRef ref = PortRef.parse(x);
        Port p = nodes.get(ref.node()).get(ref.netdev());
        return put(p.withState(state));
    }

    /** @return a port with RDMA name {@code rdma_<netdev>} */
    public static Port port(PortRef ref, Optional<Double> rate, PortState state, List<PortRef> neighbours) {
        return new Port(ref.node(), ref.netdev(), Optional.of("rdma_" + ref.netdev()), 1, PortKind.ROCE, rate, state,
                Optional.<Thunderbolt>empty(), neighbours);
    }

    /** @return the snapshot, records in the order nodes were first named */
    public Snapshot snapshot() {
        List<NodeRecord> records = new ArrayList<>();
        for (String node : nodeOrder) {
            records.add(new NodeRecord(node, 1, new ArrayList<>(nodes.get(node).values())));
        }
        return new Snapshot(records);
    }

    /**
     * Four nodes, a cable between every pair (jaccl runs a mesh in sorted order a, b, c, d), but only the
     * cables of the cycle a-c-b-d-a carry IPv4 addresses, so the TCP ring must follow that cycle: jaccl's rank
     * and the ring's differ on some node. Each node has a management address (jaccl's coordinator is rank 0's).
     */
    public static Snapshot meshWithAnAddressedRing() {
        Cluster cluster = new Cluster().cable("a:en3", "b:en3").cable("c:en3", "d:en3");
        int k = 0;
        for (String[] c : List.of(new String[] {"a:en1", "c:en1"}, new String[] {"c:en2", "b:en1"}, new String[] {"b:en2", "d:en1"},
                new String[] {"d:en2", "a:en2"})) {
            cluster.cable(c[0], c[1]).addresses(c[0], "10.0." + k + ".1").addresses(c[1], "10.0." + k + ".2");
            k++;
        }
        return new Snapshot(cluster.snapshot().records().stream().map(r -> new NodeRecord(r.node(), r.version(), r.ports(),
                Optional.of("10.9.0." + (r.node().charAt(0) - 'a' + 1)), Optional.empty())).toList());
    }
}
