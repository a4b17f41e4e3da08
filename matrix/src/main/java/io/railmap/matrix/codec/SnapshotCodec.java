package io.railmap.matrix.codec;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.railmap.matrix.model.Infiniband;
import io.railmap.matrix.model.RdmaLimits;
import io.railmap.matrix.model.IpAddresses;
import io.railmap.matrix.model.JobVariables;
import io.railmap.matrix.model.LocalRank;
import io.railmap.matrix.model.RingEntry;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.model.Snapshot;
import io.railmap.matrix.model.SwitchPort;
import io.railmap.matrix.model.Thunderbolt;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;

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
        SnapshotReading reading = new SnapshotReading((int) number, true, null);
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
        return SnapshotReading.STRICT.record(JsonCursor.parse(source, json));
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
        return new SnapshotReading(Snapshot.FORMAT_VERSION, false, Objects.requireNonNull(skipped, "skipped")).record(record);
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
}
