package io.railmap.matrix.codec;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.railmap.matrix.model.FarEndSource;
import io.railmap.matrix.model.Infiniband;
import io.railmap.matrix.model.RdmaLimits;
import io.railmap.matrix.model.IpAddresses;
import io.railmap.matrix.model.JobVariables;
import io.railmap.matrix.model.LocalRank;
import io.railmap.matrix.model.RingEntry;
import io.railmap.matrix.model.Names;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.model.PortState;
import io.railmap.matrix.model.Snapshot;
import io.railmap.matrix.model.SwitchPort;
import io.railmap.matrix.model.Thunderbolt;
import io.railmap.matrix.model.EnumNames;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * Reads and writes node records and snapshots, railmap's public, versioned JSON format.
 *
 * <pre>
 * record:   {"node": "a", "incarnation": "6f1c0b6e-…" | null, "version": 7, "management": "10.0.0.5" | null,
 *            "rdmaEnabled": true | null, "ports": [port, ...], "ranks": [rank, ...]}
 * rank:     {"pid": 4242, "startedMs": 1764390000000, "settings": {"MLX_RANK": "0", ...},
 *            "devices": [null, "rdma_en5", ["rdma_en3", "rdma_en5"]] | null, "hostfile": "e3b0c442…" | null,
 *            "ring": {"ranks": 4, "addresses": ["10.1.0.2:5000", "10.2.0.2:5001"]} | null}
 * port:     {"netdev": "en6", "rdma": "rdma_en6" | null, "rdmaPort": 1 | null,
 *            "kind": "thunderbolt" | "roce" | "infiniband" | "ethernet",
 *            "rateGbps": 80.0 | null, "state": "active" | "down" | "init" | "armed" | "unknown",
 *            "thunderbolt": {...} | null, "addresses": ["169.254.205.255", "fe80::1021:1bac:fe1:b5e3"] | null,
 *            "prefixLengths": {"169.254.205.255": 16, "fe80::1021:1bac:fe1:b5e3": 64} (absent when none is known),
 *            "bridge": "bridge0" | null, "switchPort": switch port | null, "gidIndex": 3 | null,
 *            "infiniband": infiniband | null, "rdmaLimits": rdma limits (absent when none is known),
 *            "neighbours": [{"node": "b", "netdev": "en7"}, ...]}
 * rdma limits: {"maxQp": 11 | null, "maxPd": 11 | null, "maxMr": 100 | null, "maxCqe": 32767 | null}
 * switch port: {"source": "lldp" | "infiniband", "chassis": "52:54:00:12:34:56", "name": "leaf0" | null,
 *            "port": "p1"}
 * infiniband: {"nodeGuid": "0x0002c90300336fe0" | null, "peerNodeGuid": "0x…" | null, "peerPort": 1 | null}
 * thunderbolt: {"domainUuid": "..." | null, "peerDomainUuid": "..." | null, "receptacle": 2,
 *            "linkSpeedGbps": 80.0 | null, "behindHub": false, "peerName": "Mac Studio" | null,
 *            "xdomain": "0-1" (a Linux XDomain link only; absent on macOS)}
 * snapshot: {"format": "railmap-snapshot", "version": 5, "records": [record, ...]}
 * </pre>
 *
 * Required: {@code node}, {@code version}, {@code ports}; per port {@code netdev}, {@code kind},
 * {@code state}; per Thunderbolt object {@code receptacle}; per switch port {@code source},
 * {@code chassis}, {@code port}. Other fields may be absent or null
 * ({@code rdmaPort} then means 1, {@code neighbours} none, {@code behindHub} false); without
 * {@code rdma}, {@code rdmaPort} is 1 or absent. {@code addresses} absent or null means the record
 * does not say ({@link Port#addressesKnown()} false); an array, even empty, is what the netdev has:
 * at most {@value IpAddresses#MAX_PER_PORT} IP addresses without a zone, written IPv4 first, each
 * group in numeric order, IPv6 in RFC 5952 form (read in any valid form). {@code management} is an
 * IP address too. {@code incarnation} is a UUID in its 8-4-4-4-12 hexadecimal form (RFC 9562), read
 * in either case and written in lower case. Unknown fields are errors, so a typo never passes
 * silently; a change to the format raises the snapshot version.
 *
 * <p>Versions: this code writes version {@value Snapshot#FORMAT_VERSION} and reads versions
 * {@value Snapshot#OLDEST_FORMAT_VERSION} to {@value Snapshot#FORMAT_VERSION}. A field a version does
 * not have is an unknown field there; records of that version read with it empty:
 * <ul>
 * <li>7: {@code rdmaLimits} of a port with an RDMA device ({@link RdmaLimits}: {@code maxQp},
 *     {@code maxPd}, {@code maxMr}, {@code maxCqe}, each a whole number from 0 to 2^31-1 or null), written
 *     only when some value is known, so a port without reads and writes as before (added before version 7
 *     was released). Read tolerantly, a value that breaks the rule is left out, the others and the port
 *     kept.</li>
 * <li>7: {@code ranks} (docs/jobs.md): at most {@value JobVariables#MAX_RANKS_PER_NODE}, each with its
 *     {@code pid} (at least 1) and {@code startedMs} (ms since the Unix epoch) required, {@code settings}
 *     names of {@link JobVariables#NAMES} only, {@code devices} the rank's row of its devices file (cells
 *     as in a devices file), {@code hostfile} a SHA-256 in lower-case hex, {@code ring} the rank's entry of
 *     that hostfile ({@link RingEntry}: the file's entries and at most
 *     {@value JobVariables#MAX_RING_ADDRESSES} {@code "a.b.c.d:port"} strings; only with {@code hostfile}).
 *     Read tolerantly, a rank that breaks a rule is left out and the record kept, a setting of a name this
 *     code does not hold or a {@code ring} that breaks a rule is left out and its rank kept, and ranks
 *     past the bound are left out. ({@code ring} came before any release wrote version 7, so it extends
 *     version 7: docs/snapshot-format.md.)</li>
 * <li>6: a neighbour names its port's netdev {@code "netdev"}, as a port does; versions 1-5 wrote
 *     {@code "port"} there, and still read with it.</li>
 * <li>5: {@code prefixLengths}, written only when some length is known (so a port without one reads
 *     and writes as in version 4); each key one of the port's {@code addresses} (read in any valid
 *     form), each value 0–32 for IPv4 and 0–128 for IPv6.</li>
 * <li>4: {@code infiniband}.</li>
 * <li>3: {@code switchPort} and {@code gidIndex}. Read tolerantly, a switch port from a source this
 *     code does not know is left out, the port kept, and so is a {@code gidIndex} that is no integer
 *     from 0 to 2^31-1.</li>
 * <li>2: {@code management}, {@code rdmaEnabled}, {@code incarnation}, {@code addresses} and
 *     {@code bridge}. {@code incarnation} came before any release wrote it, so a version-2 snapshot
 *     without it reads as before (incarnation unknown).</li>
 * </ul>
 * A record document on its own carries no version: it is read with every field of the newest version,
 * and a neighbour's netdev under either name ({@code "netdev"}, or {@code "port"} as a daemon before
 * version 6 wrote it).
 *
 * <p>Two ways to read: files (snapshots, records, API answers) strictly, as above; the cluster's
 * record messages {@linkplain #readRecordSkipping tolerantly}, so that a newer daemon's additions
 * cost an older daemon a field or a port, never the record.
 */
public final class SnapshotCodec {
    private static final Set<String> SNAPSHOT_FIELDS = Set.of("format", "version", "records");
    private static final Set<String> RECORD_FIELDS_V1 = Set.of("node", "version", "ports");
    private static final Set<String> RECORD_FIELDS_V6 = Set.of("node", "incarnation", "version", "management", "rdmaEnabled", "ports");
    private static final Set<String> RECORD_FIELDS = Set.of("node", "incarnation", "version", "management", "rdmaEnabled", "ports",
            "ranks");
    private static final Set<String> RANK_FIELDS = Set.of("pid", "startedMs", "settings", "devices", "hostfile", "ring");
    private static final Set<String> RING_FIELDS = Set.of("ranks", "addresses");
    private static final Pattern UUID_TEXT = Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
    private static final Set<String> PORT_FIELDS_V1 = Set.of("netdev", "rdma", "rdmaPort", "kind", "rateGbps",
            "state", "thunderbolt", "neighbours");
    private static final Set<String> PORT_FIELDS_V2 = Set.of("netdev", "rdma", "rdmaPort", "kind", "rateGbps",
            "state", "thunderbolt", "addresses", "bridge", "neighbours");
    private static final Set<String> PORT_FIELDS_V3 = Set.of("netdev", "rdma", "rdmaPort", "kind", "rateGbps",
            "state", "thunderbolt", "addresses", "bridge", "switchPort", "gidIndex", "neighbours");
    private static final Set<String> PORT_FIELDS_V4 = Set.of("netdev", "rdma", "rdmaPort", "kind", "rateGbps",
            "state", "thunderbolt", "addresses", "bridge", "switchPort", "gidIndex", "infiniband", "neighbours");
    private static final Set<String> PORT_FIELDS_V6 = Set.of("netdev", "rdma", "rdmaPort", "kind", "rateGbps",
            "state", "thunderbolt", "addresses", "prefixLengths", "bridge", "switchPort", "gidIndex", "infiniband", "neighbours");
    private static final Set<String> PORT_FIELDS = Set.of("netdev", "rdma", "rdmaPort", "kind", "rateGbps",
            "state", "thunderbolt", "addresses", "prefixLengths", "bridge", "switchPort", "gidIndex", "infiniband", "rdmaLimits",
            "neighbours");
    private static final Set<String> RDMA_LIMITS_FIELDS = Set.of("maxQp", "maxPd", "maxMr", "maxCqe");
    private static final Set<String> INFINIBAND_FIELDS = Set.of("nodeGuid", "peerNodeGuid", "peerPort");
    private static final Set<String> SWITCH_PORT_FIELDS = Set.of("source", "chassis", "name", "port");
    private static final Set<String> THUNDERBOLT_FIELDS = Set.of("domainUuid", "peerDomainUuid", "receptacle",
            "linkSpeedGbps", "behindHub", "peerName", "xdomain");
    private static final Set<String> NEIGHBOUR_FIELDS_V5 = Set.of("node", "port");
    private static final Set<String> NEIGHBOUR_FIELDS = Set.of("node", "netdev");
    private static final Set<String> NEIGHBOUR_FIELDS_EITHER = Set.of("node", "netdev", "port");

    private SnapshotCodec() {
    }

    /**
     * @param source what the text came from (a file name), for error messages
     * @param json   a snapshot document
     * @return the snapshot
     * @throws FormatException when the text is not JSON, {@code format} is not
     *                         {@value Snapshot#FORMAT}, {@code version} is neither
     *                         {@value Snapshot#OLDEST_FORMAT_VERSION} to
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
        Reading reading = new Reading((int) number, true, null);
        JsonCursor records = root.field("records");
        List<NodeRecord> list = records.elements().stream().map(reading::record).toList();
        return records.as(c -> new Snapshot(list));
    }

    /**
     * @param source what the text came from, for error messages
     * @param json   a record document (every field of version {@value Snapshot#FORMAT_VERSION} allowed)
     * @return the record
     * @throws FormatException as {@link #readSnapshot}, for one record
     */
    public static NodeRecord readRecord(String source, String json) {
        return Reading.STRICT.record(JsonCursor.parse(source, json));
    }

    /**
     * Reads a record as the cluster's record messages carry it, which a newer railmapd may have
     * written with more than this code knows: a field it does not know (of the record, a port, a
     * Thunderbolt object or a neighbour) is ignored; a port whose {@code kind} is a value it does not
     * know is left out, the rest of the record kept; a {@code state} it does not know reads as
     * {@code unknown} (what the state of a port is when the source does not say). Each of these is
     * told to {@code skipped} as one line: the JSON path and what was skipped. Everything else is as
     * strict as {@link #readRecord}: a known field with a value of the wrong type or against a rule
     * fails.
     *
     * @param record  the record's JSON value, with its source and path
     * @param skipped told of each field and port skipped, in document order
     * @return the record, without what was skipped
     * @throws FormatException as {@link #readRecord}, except for unknown fields and values as above
     */
    public static NodeRecord readRecordSkipping(JsonCursor record, Consumer<String> skipped) {
        return new Reading(Snapshot.FORMAT_VERSION, false, Objects.requireNonNull(skipped, "skipped")).record(record);
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
        out.put("incarnation", record.incarnation().map(UUID::toString).orElse(null));
        out.put("version", record.version());
        out.put("management", record.management().orElse(null));
        out.put("rdmaEnabled", record.rdmaEnabled().orElse(null));
        ArrayNode ports = out.putArray("ports");
        ArrayNode ranks = out.putArray("ranks");
        for (LocalRank r : record.ranks()) {
            ObjectNode rank = ranks.addObject();
            rank.put("pid", r.pid());
            rank.put("startedMs", r.startedMs());
            ObjectNode settings = rank.putObject("settings");
            r.settings().forEach(settings::put);
            if (r.devices().isPresent()) {
                ArrayNode row = rank.putArray("devices");
                r.devices().get().forEach(cell -> row.add(DevicesCodec.cellTree(cell)));
            } else {
                rank.putNull("devices");
            }
            rank.put("hostfile", r.hostfile().orElse(null));
            if (r.ring().isPresent()) {
                ObjectNode ring = rank.putObject("ring");
                ring.put("ranks", r.ring().get().ranks());
                r.ring().get().addresses().forEach(ring.putArray("addresses")::add);
            } else {
                rank.putNull("ring");
            }
        }
        for (Port p : record.ports()) {
            ObjectNode port = ports.addObject();
            port.put("netdev", p.netdev());
            port.put("rdma", p.rdma().orElse(null));
            if (p.rdma().isPresent()) {
                port.put("rdmaPort", p.rdmaPort());
            } else {
                port.putNull("rdmaPort");
            }
            port.put("kind", p.kind().externalName());
            port.put("rateGbps", p.rateGbps().orElse(null));
            port.put("state", p.state().externalName());
            if (p.thunderbolt().isPresent()) {
                Thunderbolt t = p.thunderbolt().get();
                ObjectNode tb = port.putObject("thunderbolt");
                tb.put("domainUuid", t.domainUuid().orElse(null));
                tb.put("peerDomainUuid", t.peerDomainUuid().orElse(null));
                tb.put("receptacle", t.receptacle());
                tb.put("linkSpeedGbps", t.linkSpeedGbps().orElse(null));
                tb.put("behindHub", t.behindHub());
                tb.put("peerName", t.peerName().orElse(null));
                t.xdomain().ifPresent(x -> tb.put("xdomain", x));
            } else {
                port.putNull("thunderbolt");
            }
            if (p.addressesKnown()) {
                ArrayNode addresses = port.putArray("addresses");
                p.addresses().forEach(addresses::add);
            } else {
                port.putNull("addresses");
            }
            if (!p.prefixLengths().isEmpty()) {
                ObjectNode lengths = port.putObject("prefixLengths");
                p.prefixLengths().forEach(lengths::put);
            }
            port.put("bridge", p.bridge().orElse(null));
            if (p.switchPort().isPresent()) {
                SwitchPort sw = p.switchPort().get();
                port.putObject("switchPort").put("source", sw.source().externalName()).put("chassis", sw.chassis())
                        .put("name", sw.name().orElse(null)).put("port", sw.port());
            } else {
                port.putNull("switchPort");
            }
            port.put("gidIndex", p.gidIndex().orElse(null));
            if (p.infiniband().isPresent()) {
                Infiniband ib = p.infiniband().get();
                port.putObject("infiniband").put("nodeGuid", ib.nodeGuid().orElse(null))
                        .put("peerNodeGuid", ib.peerNodeGuid().orElse(null)).put("peerPort", ib.peerPort().orElse(null));
            } else {
                port.putNull("infiniband");
            }
            p.rdmaLimits().ifPresent(l -> port.putObject("rdmaLimits").put("maxQp", l.maxQp().orElse(null))
                    .put("maxPd", l.maxPd().orElse(null)).put("maxMr", l.maxMr().orElse(null)).put("maxCqe", l.maxCqe().orElse(null)));
            ArrayNode neighbours = port.putArray("neighbours");
            for (PortRef n : p.neighbours()) {
                neighbours.addObject().put("node", n.node()).put("netdev", n.netdev());
            }
        }
        return out;
    }

    /**
     * One way of reading records: strict (files) for a snapshot format version, or skipping what is
     * unknown (cluster messages), then telling {@code skipped}.
     */
    private record Reading(int version, boolean versioned, Consumer<String> skipped) {
        static final Reading STRICT = new Reading(Snapshot.FORMAT_VERSION, false, null);

        private boolean strict() {
            return skipped == null;
        }

        /** Checks an object's field names: strictly, or telling the unknown ones as skipped. */
        private JsonCursor fields(JsonCursor c, Set<String> known) {
            if (strict()) {
                return c.object(known);
            }
            c.unknownFields(known).forEach(path -> skipped.accept(path + ": unknown field ignored"));
            return c;
        }

        NodeRecord record(JsonCursor c) {
            fields(c, version == 1 ? RECORD_FIELDS_V1 : version < 7 ? RECORD_FIELDS_V6 : RECORD_FIELDS);
            String node = c.field("node").as(n -> Names.node("node", n.string()));
            Optional<UUID> incarnation = c.optionalField("incarnation").map(SnapshotCodec::incarnation);
            long version = c.field("version").integer();
            Optional<String> management = c.optionalField("management")
                    .map(m -> m.as(x -> IpAddresses.canonical("management address", x.string())));
            Optional<Boolean> rdmaEnabled = c.optionalField("rdmaEnabled").map(JsonCursor::bool);
            List<Port> ports = c.field("ports").elements().stream().map(p -> port(node, p)).filter(Objects::nonNull).toList();
            List<LocalRank> ranks = c.optionalField("ranks").map(this::ranks).orElse(List.of());
            return c.as(x -> new NodeRecord(node, version, ports, management, rdmaEnabled, incarnation, ranks));
        }

        /** The ranks: strictly, any bad one fails; read tolerantly, a bad one, one of a pid already read or one past the bound is left out. */
        private List<LocalRank> ranks(JsonCursor c) {
            if (!strict() && !c.isArray()) {
                skipped.accept(c.path() + ": " + Names.escape(c.describe(), 64) + " is no array of ranks; left out");
                return List.of();
            }
            List<JsonCursor> elements = c.elements();
            if (strict() && elements.size() > JobVariables.MAX_RANKS_PER_NODE) {
                throw c.fail(elements.size() + " ranks; a record holds at most " + JobVariables.MAX_RANKS_PER_NODE);
            }
            List<LocalRank> out = new java.util.ArrayList<>();
            Set<Long> pids = new java.util.HashSet<>();
            for (JsonCursor element : elements) {
                if (out.size() == JobVariables.MAX_RANKS_PER_NODE) {
                    skipped.accept(element.path() + ": rank past the " + JobVariables.MAX_RANKS_PER_NODE + " a record holds left out");
                    continue;
                }
                try {
                    LocalRank rank = rank(element);
                    if (!pids.add(rank.pid())) {
                        throw element.fail("a second rank of process " + rank.pid());
                    }
                    out.add(rank);
                } catch (IllegalArgumentException bad) {
                    FormatException error = bad instanceof FormatException f ? f : element.fail(bad.getMessage());
                    if (strict()) {
                        throw error;
                    }
                    skipped.accept(element.path() + ": rank left out: " + Names.escape(error.problem(), 200));
                }
            }
            return out;
        }

        private LocalRank rank(JsonCursor c) {
            fields(c, RANK_FIELDS);
            long pid = c.field("pid").integer();
            long started = c.field("startedMs").integer();
            Map<String, String> settings = new java.util.TreeMap<>();
            c.optionalField("settings").ifPresent(s -> {
                for (Map.Entry<String, JsonCursor> e : s.members().entrySet()) {
                    if (!strict() && !JobVariables.NAMES.contains(e.getKey())) {
                        skipped.accept(e.getValue().path() + ": setting left out (a name this daemon does not hold)");
                        continue;
                    }
                    settings.put(e.getKey(), e.getValue().string());
                }
            });
            Optional<List<List<String>>> devices = c.optionalField("devices").map(d -> {
                if (!d.isArray()) {
                    throw d.fail("a rank's devices row is an array of cells");
                }
                return d.elements().stream().map(DevicesCodec::cell).toList();
            });
            Optional<String> hostfile = c.optionalField("hostfile").map(JsonCursor::string);
            Optional<RingEntry> ring = c.optionalField("ring").flatMap(this::ring);
            if (ring.isPresent() && hostfile.isEmpty() && !strict()) {
                skipped.accept(c.path() + ".ring: left out (a ring entry without its hostfile's digest)");
                ring = Optional.empty();
            }
            Optional<RingEntry> entry = ring;
            return c.as(x -> new LocalRank(pid, started, settings, devices, hostfile, entry));
        }

        /** A rank's ring hostfile entry: strictly, a bad one fails; read tolerantly, it is left out and its rank kept. */
        private Optional<RingEntry> ring(JsonCursor c) {
            try {
                fields(c, RING_FIELDS);
                int ranks = c.field("ranks").smallInteger();
                JsonCursor list = c.field("addresses");
                if (!list.isArray()) {
                    throw list.fail("a ring entry's addresses are an array of \"a.b.c.d:port\" strings");
                }
                List<String> addresses = list.elements().stream().map(JsonCursor::string).toList();
                return Optional.of(c.as(x -> new RingEntry(ranks, addresses)));
            } catch (IllegalArgumentException bad) {
                FormatException error = bad instanceof FormatException f ? f : c.fail(bad.getMessage());
                if (strict()) {
                    throw error;
                }
                skipped.accept(c.path() + ": left out, rank kept: " + Names.escape(error.problem(), 200));
                return Optional.empty();
            }
        }

        /** @return the port, or null when it is skipped (a kind this code does not know, read tolerantly) */
        private Port port(String node, JsonCursor c) {
            fields(c, version == 1 ? PORT_FIELDS_V1 : version == 2 ? PORT_FIELDS_V2 : version == 3 ? PORT_FIELDS_V3
                    : version == 4 ? PORT_FIELDS_V4 : version <= 6 ? PORT_FIELDS_V6 : PORT_FIELDS);
            String netdev = c.field("netdev").string();
            Optional<String> rdma = c.optionalField("rdma").map(JsonCursor::string);
            Optional<JsonCursor> rdmaPortField = c.optionalField("rdmaPort");
            int rdmaPort = rdmaPortField.map(JsonCursor::smallInteger).orElse(1);
            if (rdma.isEmpty() && rdmaPort != 1) {
                // Written back as null, it would read as 1: a port without RDMA has no other port number.
                throw rdmaPortField.get().fail("rdmaPort " + rdmaPort + " without an rdma device (a port without RDMA is port 1)");
            }
            JsonCursor kindField = c.field("kind");
            String kindName = kindField.string();
            if (!strict() && !known(PortKind.class, kindName)) {
                skipped.accept(c.path() + ": port " + Names.escape(netdev, 64) + " of kind \""
                        + Names.escape(kindName, 64) + "\" left out (a kind this daemon does not know)");
                return null;
            }
            PortKind kind = kindField.as(k -> PortKind.fromExternalName(kindName));
            Optional<Double> rate = c.optionalField("rateGbps").map(JsonCursor::number);
            JsonCursor stateField = c.field("state");
            String stateName = stateField.string();
            PortState state;
            if (!strict() && !known(PortState.class, stateName)) {
                skipped.accept(stateField.path() + ": state \"" + Names.escape(stateName, 64)
                        + "\" read as unknown (a state this daemon does not know)");
                state = PortState.UNKNOWN;
            } else {
                state = stateField.as(s -> PortState.fromExternalName(stateName));
            }
            Optional<Thunderbolt> thunderbolt = c.optionalField("thunderbolt").map(this::thunderbolt);
            Optional<List<String>> addresses = c.optionalField("addresses").map(SnapshotCodec::addresses);
            Map<String, Integer> prefixLengths = c.optionalField("prefixLengths").map(l -> prefixLengths(l, addresses.orElse(List.of())))
                    .orElse(Map.of());
            Optional<String> bridge = c.optionalField("bridge").map(JsonCursor::string);
            Optional<SwitchPort> switchPort = c.optionalField("switchPort").flatMap(this::switchPort);
            Optional<Integer> gidIndex = c.optionalField("gidIndex").flatMap(g -> gidIndex(g, rdma.isPresent()));
            Optional<Infiniband> infiniband = c.optionalField("infiniband").map(this::infiniband);
            Optional<RdmaLimits> rdmaLimits = c.optionalField("rdmaLimits").flatMap(l -> rdmaLimits(l, rdma.isPresent()));
            List<PortRef> neighbours = c.optionalField("neighbours")
                    .map(n -> n.elements().stream().map(this::neighbour).toList())
                    .orElse(List.of());
            return c.as(x -> new Port(node, netdev, rdma, rdmaPort, kind, rate, state, thunderbolt, addresses.orElse(List.of()),
                    prefixLengths, addresses.isPresent(), bridge, switchPort, gidIndex, infiniband, rdmaLimits, neighbours));
        }

        /**
         * The RDMA device's limits: strictly, a value that is no whole number from 0 to 2^31-1 fails, as
         * do limits on a port without an RDMA device; read tolerantly, such a value is left out and told,
         * the other values and the port kept (and the whole object when the port has no RDMA device).
         *
         * @return the limits, or empty when none is left
         */
        private Optional<RdmaLimits> rdmaLimits(JsonCursor c, boolean rdma) {
            fields(c, RDMA_LIMITS_FIELDS);
            if (!rdma) {
                if (strict()) {
                    throw c.fail("RDMA device limits on a port without an rdma device");
                }
                skipped.accept(c.path() + ": left out (RDMA device limits on a port without an rdma device)");
                return Optional.empty();
            }
            Integer[] values = new Integer[4];
            List<String> names = List.of("maxQp", "maxPd", "maxMr", "maxCqe");
            for (int i = 0; i < names.size(); i++) {
                Optional<JsonCursor> field = c.optionalField(names.get(i));
                if (field.isEmpty()) {
                    continue;
                }
                try {
                    int value = field.get().smallInteger();
                    if (value < 0) {
                        throw field.get().fail(names.get(i) + " " + value + " is negative (a count from 0 to " + Integer.MAX_VALUE + ")");
                    }
                    values[i] = value;
                } catch (FormatException bad) {
                    if (strict()) {
                        throw bad;
                    }
                    skipped.accept(field.get().path() + ": " + bad.problem() + "; left out");
                }
            }
            return RdmaLimits.of(values[0], values[1], values[2], values[3]);
        }

        /**
         * The prefix lengths, each of an address of the port: strictly, a key that is not one or a length out
         * of range fails; read tolerantly, such an entry is left out and told, the port kept.
         */
        private Map<String, Integer> prefixLengths(JsonCursor c, List<String> addresses) {
            Map<String, Integer> out = new LinkedHashMap<>();
            for (Map.Entry<String, JsonCursor> e : c.members().entrySet()) {
                try {
                    String address = IpAddresses.canonical("address", e.getKey());
                    int length = e.getValue().smallInteger();
                    int max = IpAddresses.isIpv4(address) ? 32 : 128;
                    if (!addresses.contains(address) || length < 0 || length > max || out.containsKey(address)) {
                        throw e.getValue().fail(!addresses.contains(address) ? "a prefix length for an address the port does not list"
                                : out.containsKey(address) ? "a second prefix length for " + address
                                : "prefix length " + length + " is not 0 to " + max);
                    }
                    out.put(address, length);
                } catch (IllegalArgumentException bad) {
                    FormatException error = bad instanceof FormatException f ? f : e.getValue().fail(bad.getMessage());
                    if (strict()) {
                        throw error;
                    }
                    skipped.accept(e.getValue().path() + ": " + error.problem() + "; left out");
                }
            }
            return out;
        }

        /** @return the GID index, or empty when it is skipped (not an index of this port, read tolerantly) */
        private Optional<Integer> gidIndex(JsonCursor c, boolean rdma) {
            if (strict()) {
                return Optional.of(c.as(g -> {
                    int index = g.smallInteger();
                    if (index < 0) {
                        throw new IllegalArgumentException("GID index " + index + " is negative");
                    }
                    return index;
                }));
            }
            try {
                int index = c.smallInteger();
                if (index >= 0 && rdma) {
                    return Optional.of(index);
                }
            } catch (FormatException e) {
                // told below
            }
            skipped.accept(c.path() + ": " + Names.escape(c.describe(), 64) + " left out (no index in this port's GID table)");
            return Optional.empty();
        }

        /** @return the switch port, or empty when it is skipped (a source this code does not know, read tolerantly) */
        private Optional<SwitchPort> switchPort(JsonCursor c) {
            fields(c, SWITCH_PORT_FIELDS);
            JsonCursor sourceField = c.field("source");
            String sourceName = sourceField.string();
            if (!strict() && !known(FarEndSource.class, sourceName)) {
                skipped.accept(sourceField.path() + ": switch port from source \"" + Names.escape(sourceName, 64)
                        + "\" left out (a source this daemon does not know)");
                return Optional.empty();
            }
            FarEndSource source = sourceField.as(s -> FarEndSource.fromExternalName(sourceName));
            String chassis = c.field("chassis").string();
            Optional<String> name = c.optionalField("name").map(JsonCursor::string);
            String port = c.field("port").string();
            return Optional.of(c.as(x -> new SwitchPort(source, chassis, name, port)));
        }

        private Infiniband infiniband(JsonCursor c) {
            fields(c, INFINIBAND_FIELDS);
            Optional<String> nodeGuid = c.optionalField("nodeGuid").map(JsonCursor::string);
            Optional<String> peerNodeGuid = c.optionalField("peerNodeGuid").map(JsonCursor::string);
            Optional<Integer> peerPort = c.optionalField("peerPort").map(JsonCursor::smallInteger);
            return c.as(x -> new Infiniband(nodeGuid, peerNodeGuid, peerPort));
        }

        private Thunderbolt thunderbolt(JsonCursor c) {
            fields(c, THUNDERBOLT_FIELDS);
            Optional<String> domain = c.optionalField("domainUuid").map(JsonCursor::string);
            Optional<String> peerDomain = c.optionalField("peerDomainUuid").map(JsonCursor::string);
            int receptacle = c.field("receptacle").smallInteger();
            Optional<Double> speed = c.optionalField("linkSpeedGbps").map(JsonCursor::number);
            boolean behindHub = c.optionalField("behindHub").map(JsonCursor::bool).orElse(false);
            Optional<String> peerName = c.optionalField("peerName").map(JsonCursor::string);
            Optional<String> xdomain = c.optionalField("xdomain").map(JsonCursor::string);
            return c.as(x -> new Thunderbolt(domain, peerDomain, receptacle, speed, behindHub, peerName, xdomain));
        }

        /**
         * A neighbour: {@code {"node", "netdev"}} from version 6, {@code {"node", "port"}} before; a
         * record without a version (a record document, a cluster message) may use either name, not both.
         */
        private PortRef neighbour(JsonCursor c) {
            String name;
            if (version < 6) {
                fields(c, NEIGHBOUR_FIELDS_V5);
                name = "port";
            } else if (!versioned) {
                fields(c, NEIGHBOUR_FIELDS_EITHER);
                boolean netdev = c.optionalField("netdev").isPresent();
                if (netdev && c.optionalField("port").isPresent()) {
                    throw c.fail("a neighbour names its netdev once: \"netdev\" or, as before version 6, \"port\", not both");
                }
                name = netdev ? "netdev" : "port";
            } else {
                fields(c, NEIGHBOUR_FIELDS);
                name = "netdev";
            }
            String node = c.field("node").string();
            String netdev = c.field(name).string();
            return c.as(x -> new PortRef(node, netdev));
        }
    }

    private static <E extends Enum<E>> boolean known(Class<E> type, String externalName) {
        for (E constant : type.getEnumConstants()) {
            if (EnumNames.of(constant).equalsIgnoreCase(externalName)) {
                return true;
            }
        }
        return false;
    }

    private static UUID incarnation(JsonCursor c) {
        String text = c.string();
        if (!UUID_TEXT.matcher(text).matches()) {
            throw c.fail("incarnation \"" + Names.escape(text, 64)
                    + "\" is not a UUID (8-4-4-4-12 hexadecimal digits, as railmapd makes one when it starts)");
        }
        return UUID.fromString(text);
    }

    private static List<String> addresses(JsonCursor c) {
        List<JsonCursor> elements = c.elements();
        if (elements.size() > IpAddresses.MAX_PER_PORT) {
            throw c.fail(elements.size() + " addresses; a port carries at most " + IpAddresses.MAX_PER_PORT);
        }
        return elements.stream().map(e -> e.as(x -> IpAddresses.canonical("address", x.string()))).toList();
    }
}
