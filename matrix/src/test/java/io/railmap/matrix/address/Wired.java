package io.railmap.matrix.address;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.railmap.matrix.codec.JsonText;
import io.railmap.matrix.codec.SnapshotCodec;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.model.Snapshot;
import io.railmap.matrix.topology.Topology;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Test clusters of Ethernet ports joined by cables, each port with addresses written {@code a.b.c.d/len}
 * (a known prefix length) or bare (a record that does not say it), read through the snapshot codec as a
 * daemon's records are.
 */
public final class Wired {
    private final Map<String, Map<String, ObjectNode>> ports = new LinkedHashMap<>();
    private final Map<String, String> down = new LinkedHashMap<>();

    /** @param nodes every node, in order; each gets a record even without ports */
    public Wired(String... nodes) {
        for (String n : nodes) {
            ports.put(n, new LinkedHashMap<>());
        }
    }

    /**
     * Cables {@code a} ({@code node:netdev}) to {@code b}, each end with the addresses given.
     *
     * @param a          one end
     * @param aAddresses its addresses, comma-separated ({@code 169.254.1.1/30,10.0.0.1}), or empty for none
     */
    public Wired cable(String a, String aAddresses, String b, String bAddresses) {
        port(PortRef.parse(a), aAddresses).withArray("neighbours").addObject().put("node", PortRef.parse(b).node())
                .put("netdev", PortRef.parse(b).netdev());
        port(PortRef.parse(b), bAddresses).withArray("neighbours").addObject().put("node", PortRef.parse(a).node())
                .put("netdev", PortRef.parse(a).netdev());
        return this;
    }

    /** A port with addresses and no cable. */
    public Wired port(String ref, String addresses) {
        port(PortRef.parse(ref), addresses);
        return this;
    }

    /** Marks a port down. */
    public Wired down(String ref) {
        down.put(ref, "down");
        return this;
    }

    private ObjectNode port(PortRef ref, String addresses) {
        ObjectNode port = ports.get(ref.node()).computeIfAbsent(ref.netdev(), p -> JsonText.object());
        port.put("netdev", ref.netdev()).put("kind", "ethernet").put("state", "active");
        ArrayNode list = port.putArray("addresses");
        ObjectNode lengths = JsonText.object();
        for (String a : addresses.isEmpty() ? new String[0] : addresses.split(",")) {
            int slash = a.indexOf('/');
            list.add(slash < 0 ? a : a.substring(0, slash));
            if (slash >= 0) {
                lengths.put(a.substring(0, slash), Integer.parseInt(a.substring(slash + 1)));
            }
        }
        if (!lengths.isEmpty()) {
            port.set("prefixLengths", lengths);
        }
        return port;
    }

    /** @return the snapshot of every record */
    public Snapshot snapshot() {
        ObjectNode root = JsonText.object().put("format", "railmap-snapshot").put("version", Snapshot.FORMAT_VERSION);
        ArrayNode records = root.putArray("records");
        int i = 0;
        for (Map.Entry<String, Map<String, ObjectNode>> node : ports.entrySet()) {
            ObjectNode record = records.addObject().put("node", node.getKey()).put("version", 1).put("management", "10.0.0." + (++i));
            ArrayNode list = record.putArray("ports");
            List<ObjectNode> mine = new ArrayList<>(node.getValue().values());
            for (ObjectNode p : mine) {
                if (down.containsKey(node.getKey() + ":" + p.get("netdev").asText())) {
                    p.put("state", "down");
                }
                list.add(p);
            }
        }
        return SnapshotCodec.readSnapshot("test", JsonText.pretty(root));
    }

    /** @return the topology of {@link #snapshot()} */
    public Topology topology() {
        return Topology.of(snapshot());
    }
}
