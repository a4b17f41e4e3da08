package io.railmap.matrix.codec;

import io.railmap.matrix.model.EnumNames;
import io.railmap.matrix.model.FarEndSource;
import io.railmap.matrix.model.Infiniband;
import io.railmap.matrix.model.IpAddresses;
import io.railmap.matrix.model.JobVariables;
import io.railmap.matrix.model.LocalRank;
import io.railmap.matrix.model.Names;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.model.PortState;
import io.railmap.matrix.model.RdmaLimits;
import io.railmap.matrix.model.RingEntry;
import io.railmap.matrix.model.Snapshot;
import io.railmap.matrix.model.SwitchPort;
import io.railmap.matrix.model.Thunderbolt;
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
 * How {@link SnapshotCodec} reads records, one way per instance: strict (files) for a snapshot format
 * version, or skipping what is unknown (cluster messages), then telling {@code skipped}. The fields each
 * version knows are here; the format is docs/snapshot-format.md.
 */
record SnapshotReading(int version, boolean versioned, Consumer<String> skipped) {
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
    static final SnapshotReading STRICT = new SnapshotReading(Snapshot.FORMAT_VERSION, false, null);

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
        Optional<UUID> incarnation = c.optionalField("incarnation").map(SnapshotReading::incarnation);
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
        Optional<List<String>> addresses = c.optionalField("addresses").map(SnapshotReading::addresses);
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
