package io.railmap.matrix.codec;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.railmap.matrix.model.IpAddresses;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.model.PortState;
import io.railmap.matrix.model.Snapshot;
import io.railmap.matrix.model.Thunderbolt;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Reads and writes node records and snapshots, railmap's public, versioned JSON format.
 *
 * <pre>
 * record:   {"node": "a", "version": 7, "management": "10.0.0.5" | null, "rdmaEnabled": true | null,
 *            "ports": [port, ...]}
 * port:     {"netdev": "en6", "rdma": "rdma_en6" | null, "rdmaPort": 1 | null,
 *            "kind": "thunderbolt" | "roce" | "infiniband" | "ethernet",
 *            "rateGbps": 80.0 | null, "state": "active" | "down" | "init" | "armed" | "unknown",
 *            "thunderbolt": {...} | null, "addresses": ["169.254.205.255", "fe80::1021:1bac:fe1:b5e3"] | null,
 *            "bridge": "bridge0" | null, "neighbours": [{"node": "b", "port": "en7"}, ...]}
 * thunderbolt: {"domainUuid": "..." | null, "peerDomainUuid": "..." | null, "receptacle": 2,
 *            "linkSpeedGbps": 80.0 | null, "behindHub": false, "peerName": "Mac Studio" | null}
 * snapshot: {"format": "railmap-snapshot", "version": 2, "records": [record, ...]}
 * </pre>
 *
 * Required: {@code node}, {@code version}, {@code ports}; per port {@code netdev}, {@code kind},
 * {@code state}; per Thunderbolt object {@code receptacle}. Other fields may be absent or null
 * ({@code rdmaPort} then means 1, {@code neighbours} none, {@code behindHub} false); without
 * {@code rdma}, {@code rdmaPort} is 1 or absent. {@code addresses} absent or null means the record
 * does not say ({@link Port#addressesKnown()} false); an array, even empty, is what the netdev has:
 * at most {@value IpAddresses#MAX_PER_PORT} IP addresses without a zone, written IPv4 first, each
 * group in numeric order, IPv6 in RFC 5952 form (read in any valid form). {@code management} is an
 * IP address too. Unknown fields are errors, so a typo never passes silently; a change to the format
 * raises the snapshot version.
 *
 * <p>Versions: this code writes version {@value Snapshot#FORMAT_VERSION} and reads versions
 * {@value Snapshot#OLDEST_FORMAT_VERSION} and {@value Snapshot#FORMAT_VERSION}. Version 1 has no
 * {@code management}, {@code rdmaEnabled}, {@code addresses} or {@code bridge} (in a version-1
 * snapshot they are unknown fields); its records read with them empty. A record document on its
 * own carries no version: it is read with every field of the newest version.
 */
public final class SnapshotCodec {
    private static final Set<String> SNAPSHOT_FIELDS = Set.of("format", "version", "records");
    private static final Set<String> RECORD_FIELDS_V1 = Set.of("node", "version", "ports");
    private static final Set<String> RECORD_FIELDS = Set.of("node", "version", "management", "rdmaEnabled", "ports");
    private static final Set<String> PORT_FIELDS_V1 = Set.of("netdev", "rdma", "rdmaPort", "kind", "rateGbps",
            "state", "thunderbolt", "neighbours");
    private static final Set<String> PORT_FIELDS = Set.of("netdev", "rdma", "rdmaPort", "kind", "rateGbps",
            "state", "thunderbolt", "addresses", "bridge", "neighbours");
    private static final Set<String> THUNDERBOLT_FIELDS = Set.of("domainUuid", "peerDomainUuid", "receptacle",
            "linkSpeedGbps", "behindHub", "peerName");
    private static final Set<String> NEIGHBOUR_FIELDS = Set.of("node", "port");

    private SnapshotCodec() {
    }

    /**
     * @param source what the text came from (a file name), for error messages
     * @param json   a snapshot document
     * @return the snapshot
     * @throws FormatException when the text is not JSON, {@code format} is not
     *                         {@value Snapshot#FORMAT}, {@code version} is neither
     *                         {@value Snapshot#OLDEST_FORMAT_VERSION} nor
     *                         {@value Snapshot#FORMAT_VERSION}, a field is missing, unknown (for
     *                         that version) or of the wrong type, or a value breaks a rule of the
     *                         model (two records for one node, a bad name, a negative rate, a bad
     *                         address, more than {@value IpAddresses#MAX_PER_PORT} addresses on a
     *                         port, …)
     */
    public static Snapshot readSnapshot(String source, String json) {
        JsonCursor root = JsonCursor.parse(source, json).object(SNAPSHOT_FIELDS);
        JsonCursor format = root.field("format");
        if (!format.isString() || !Snapshot.FORMAT.equals(format.string())) {
            throw format.fail("expected \"" + Snapshot.FORMAT + "\"; is this a railmap snapshot?");
        }
        JsonCursor version = root.field("version");
        long number = version.integer();
        if (number < Snapshot.OLDEST_FORMAT_VERSION || number > Snapshot.FORMAT_VERSION) {
            throw version.fail("unknown snapshot version " + number + " (this railmap reads versions "
                    + Snapshot.OLDEST_FORMAT_VERSION + " to " + Snapshot.FORMAT_VERSION
                    + "); upgrade railmap or write the snapshot with a matching version");
        }
        boolean v1 = number == 1;
        JsonCursor records = root.field("records");
        List<NodeRecord> list = records.elements().stream().map(r -> record(r, v1)).toList();
        return records.as(c -> new Snapshot(list));
    }

    /**
     * @param source what the text came from, for error messages
     * @param json   a record document (every field of version {@value Snapshot#FORMAT_VERSION} allowed)
     * @return the record
     * @throws FormatException as {@link #readSnapshot}, for one record
     */
    public static NodeRecord readRecord(String source, String json) {
        return record(JsonCursor.parse(source, json), false);
    }

    /** @return the snapshot as indented JSON, ending with a newline */
    public static String write(Snapshot snapshot) {
        ObjectNode root = JsonText.object();
        root.put("format", Snapshot.FORMAT);
        root.put("version", Snapshot.FORMAT_VERSION);
        ArrayNode records = root.putArray("records");
        snapshot.records().forEach(r -> records.add(tree(r)));
        return JsonText.pretty(root);
    }

    /** @return the record as indented JSON, ending with a newline */
    public static String write(NodeRecord record) {
        return JsonText.pretty(tree(record));
    }

    /** @return the record as a Jackson tree, for embedding in other documents */
    public static ObjectNode tree(NodeRecord record) {
        ObjectNode out = JsonText.object();
        out.put("node", record.node());
        out.put("version", record.version());
        out.put("management", record.management().orElse(null));
        out.put("rdmaEnabled", record.rdmaEnabled().orElse(null));
        ArrayNode ports = out.putArray("ports");
        for (Port p : record.ports()) {
            ObjectNode port = ports.addObject();
            port.put("netdev", p.netdev());
            port.put("rdma", p.rdma().orElse(null));
            if (p.rdma().isPresent()) {
                port.put("rdmaPort", p.rdmaPort());
            } else {
                port.putNull("rdmaPort");
            }
            port.put("kind", p.kind().wireName());
            port.put("rateGbps", p.rateGbps().orElse(null));
            port.put("state", p.state().wireName());
            if (p.thunderbolt().isPresent()) {
                Thunderbolt t = p.thunderbolt().get();
                ObjectNode tb = port.putObject("thunderbolt");
                tb.put("domainUuid", t.domainUuid().orElse(null));
                tb.put("peerDomainUuid", t.peerDomainUuid().orElse(null));
                tb.put("receptacle", t.receptacle());
                tb.put("linkSpeedGbps", t.linkSpeedGbps().orElse(null));
                tb.put("behindHub", t.behindHub());
                tb.put("peerName", t.peerName().orElse(null));
            } else {
                port.putNull("thunderbolt");
            }
            if (p.addressesKnown()) {
                ArrayNode addresses = port.putArray("addresses");
                p.addresses().forEach(addresses::add);
            } else {
                port.putNull("addresses");
            }
            port.put("bridge", p.bridge().orElse(null));
            ArrayNode neighbours = port.putArray("neighbours");
            for (PortRef n : p.neighbours()) {
                neighbours.addObject().put("node", n.node()).put("port", n.port());
            }
        }
        return out;
    }

    private static NodeRecord record(JsonCursor c, boolean v1) {
        c.object(v1 ? RECORD_FIELDS_V1 : RECORD_FIELDS);
        String node = c.field("node").as(n -> io.railmap.matrix.model.Names.node("node", n.string()));
        long version = c.field("version").integer();
        Optional<String> management = c.optionalField("management")
                .map(m -> m.as(x -> IpAddresses.canonical("management address", x.string())));
        Optional<Boolean> rdmaEnabled = c.optionalField("rdmaEnabled").map(JsonCursor::bool);
        List<Port> ports = c.field("ports").elements().stream().map(p -> port(node, p, v1)).toList();
        return c.as(x -> new NodeRecord(node, version, ports, management, rdmaEnabled));
    }

    private static Port port(String node, JsonCursor c, boolean v1) {
        c.object(v1 ? PORT_FIELDS_V1 : PORT_FIELDS);
        String netdev = c.field("netdev").string();
        Optional<String> rdma = c.optionalField("rdma").map(JsonCursor::string);
        Optional<JsonCursor> rdmaPortField = c.optionalField("rdmaPort");
        int rdmaPort = rdmaPortField.map(JsonCursor::smallInteger).orElse(1);
        if (rdma.isEmpty() && rdmaPort != 1) {
            // Written back as null, it would read as 1: a port without RDMA has no other port number.
            throw rdmaPortField.get().fail("rdmaPort " + rdmaPort + " without an rdma device (a port without RDMA is port 1)");
        }
        PortKind kind = c.field("kind").as(k -> PortKind.fromWire(k.string()));
        Optional<Double> rate = c.optionalField("rateGbps").map(JsonCursor::number);
        PortState state = c.field("state").as(s -> PortState.fromWire(s.string()));
        Optional<Thunderbolt> thunderbolt = c.optionalField("thunderbolt").map(SnapshotCodec::thunderbolt);
        Optional<List<String>> addresses = c.optionalField("addresses").map(SnapshotCodec::addresses);
        Optional<String> bridge = c.optionalField("bridge").map(JsonCursor::string);
        List<PortRef> neighbours = c.optionalField("neighbours")
                .map(n -> n.elements().stream().map(SnapshotCodec::neighbour).toList())
                .orElse(List.of());
        return c.as(x -> new Port(node, netdev, rdma, rdmaPort, kind, rate, state, thunderbolt, addresses.orElse(List.of()),
                addresses.isPresent(), bridge, neighbours));
    }

    private static List<String> addresses(JsonCursor c) {
        List<JsonCursor> elements = c.elements();
        if (elements.size() > IpAddresses.MAX_PER_PORT) {
            throw c.fail(elements.size() + " addresses; a port carries at most " + IpAddresses.MAX_PER_PORT);
        }
        return elements.stream().map(e -> e.as(x -> IpAddresses.canonical("address", x.string()))).toList();
    }

    private static Thunderbolt thunderbolt(JsonCursor c) {
        c.object(THUNDERBOLT_FIELDS);
        Optional<String> domain = c.optionalField("domainUuid").map(JsonCursor::string);
        Optional<String> peerDomain = c.optionalField("peerDomainUuid").map(JsonCursor::string);
        int receptacle = c.field("receptacle").smallInteger();
        Optional<Double> speed = c.optionalField("linkSpeedGbps").map(JsonCursor::number);
        boolean behindHub = c.optionalField("behindHub").map(JsonCursor::bool).orElse(false);
        Optional<String> peerName = c.optionalField("peerName").map(JsonCursor::string);
        return c.as(x -> new Thunderbolt(domain, peerDomain, receptacle, speed, behindHub, peerName));
    }

    private static PortRef neighbour(JsonCursor c) {
        c.object(NEIGHBOUR_FIELDS);
        String node = c.field("node").string();
        String port = c.field("port").string();
        return c.as(x -> new PortRef(node, port));
    }
}
