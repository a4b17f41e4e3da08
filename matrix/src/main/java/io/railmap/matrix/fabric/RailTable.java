package io.railmap.matrix.fabric;

import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.model.FarEndSource;
import io.railmap.matrix.model.NaturalOrder;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.model.SwitchPort;
import io.railmap.matrix.topology.SharedSegment;
import io.railmap.matrix.topology.Topology;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.jgrapht.Graph;
import org.jgrapht.alg.connectivity.ConnectivityInspector;
import org.jgrapht.graph.DefaultEdge;
import org.jgrapht.graph.SimpleGraph;

/**
 * The rails of a switched fabric, numbered alike on every node, and what is wrong with its cabling.
 *
 * <p><b>Compute NICs.</b> A port is a compute NIC when it is active, has an RDMA device, and does
 * not carry its node's management address ({@link NodeRecord#management()}).
 *
 * <p><b>What a compute NIC reaches</b>, strongest fact first:
 * <ol>
 *   <li>the switch its record names ({@link Port#switchPort()}: LLDP or InfiniBand), unless that
 *       LLDP neighbour is another node ({@link #switchReached}: lldpd on a host announces Bridge or
 *       Router, so a node at the far end of a direct cable looks like a switch to LLDP);</li>
 *   <li>else, when the link probe hears it on an L2 segment (its port, or a port it is heard by,
 *       hears several far ends: {@link Topology#sharedSegments()}, joined into segments as the
 *       connected sets of "heard" among those ports), the switch most of that segment's compute NICs
 *       name (ties: the first identity in natural order), or the segment itself when none names
 *       one;</li>
 *   <li>else nothing switched: a direct cable to another node (not a rail here; the probe's cable, or
 *       an LLDP neighbour that is a node), or no far end at all ({@code unknown-far-end}).</li>
 * </ol>
 *
 * <p><b>Rails.</b> Each switch or segment reached by compute NICs of at least two nodes is a rail.
 * Its HCA name is the one most of its nodes use on it (ties: the first in natural order). Rails are
 * numbered from 0 by that HCA name in natural order ({@code mlx5_0 < mlx5_1 < mlx5_10}), then by
 * identity ({@link Rail#identity()}), so that every daemon numbering the same records gets the same
 * ids, and on a cleanly cabled rail-optimised fabric rail k is where every node's k-th HCA goes.
 * A switch reached by one node only is not a rail: its NICs are strays, reported as
 * {@code cross-rail} when their HCA belongs on a rail ({@link RailFindings}). An LLDP neighbour that
 * names a node where the probe hears otherwise is named too ({@link LldpImpostors}).
 *
 * <p>Cost: O(ports + observations + rails × nodes).
 */
public final class RailTable {
    private final List<Rail> rails;
    private final Map<RailNic, String> strays;
    private final List<Port> unplaced;
    private final List<Finding> findings;
    /** The rail of every NIC on one, and each HCA name's home rail: asked per NIC per peer, so looked up, not searched. */
    private final Map<PortRef, Rail> railByPort = new HashMap<>();
    private final Map<String, Rail> homes;

    /**
     * Copies the lists.
     *
     * @param rails    the rails, by id
     * @param strays   compute NICs that reach a switch or segment no other node reaches, each with the
     *                 {@linkplain Rail#name() name} of what it reaches
     * @param unplaced compute NICs with no switched far end: on a direct cable, or with no far end at all
     * @param findings what is wrong or worth knowing ({@link RailFindings})
     */
    public RailTable(List<Rail> rails, Map<RailNic, String> strays, List<Port> unplaced, List<Finding> findings) {
        this.rails = List.copyOf(rails);
        this.strays = Collections.unmodifiableMap(new LinkedHashMap<>(strays));
        this.unplaced = List.copyOf(unplaced);
        this.findings = List.copyOf(findings);
        for (Rail rail : this.rails) {
            rail.nics().forEach(n -> railByPort.putIfAbsent(n.port(), rail));
        }
        this.homes = RailFindings.homes(this.rails);
    }

    /** @return the rails, by id */
    public List<Rail> rails() {
        return rails;
    }

    /** @return compute NICs that reach a switch or segment no other node reaches, each with the name of what it reaches */
    public Map<RailNic, String> strays() {
        return strays;
    }

    /** @return compute NICs with no switched far end */
    public List<Port> unplaced() {
        return unplaced;
    }

    /** @return what is wrong or worth knowing */
    public List<Finding> findings() {
        return findings;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RailTable t && rails.equals(t.rails) && strays.equals(t.strays) && unplaced.equals(t.unplaced)
                && findings.equals(t.findings);
    }

    @Override
    public int hashCode() {
        return Objects.hash(rails, strays, unplaced, findings);
    }

    @Override
    public String toString() {
        return "RailTable[rails=" + rails + ", strays=" + strays + ", unplaced=" + unplaced + ", findings=" + findings + "]";
    }

    /**
     * @param topology every record and what the probe heard
     * @return the rail table of its compute NICs
     */
    public static RailTable of(Topology topology) {
        Map<PortRef, String> segmentOf = segments(topology.sharedSegments());
        List<Port> compute = topology.ports().stream().filter(p -> computeNic(topology, p)).toList();
        Map<PortRef, SwitchPort> switchOf = new HashMap<>();
        compute.forEach(p -> switchReached(topology, p).ifPresent(sw -> switchOf.put(p.ref(), sw)));

        // which switches each segment's NICs name: a segment whose NICs name a switch is that switch's L2 domain
        Map<String, Map<String, Integer>> switchesOnSegment = new HashMap<>();
        for (Port p : compute) {
            String segment = segmentOf.get(p.ref());
            SwitchPort sw = switchOf.get(p.ref());
            if (segment != null && sw != null) {
                switchesOnSegment.computeIfAbsent(segment, s -> new TreeMap<>(NaturalOrder.INSTANCE)).merge(sw.switchId(), 1, Integer::sum);
            }
        }
        Map<String, String> names = new HashMap<>();
        switchOf.values().forEach(sw -> names.putIfAbsent(sw.switchId(), sw.switchName()));

        Map<String, Group> groups = new TreeMap<>(NaturalOrder.INSTANCE);
        List<Port> unplaced = new ArrayList<>();
        for (Port p : compute) {
            Optional<SwitchPort> sw = Optional.ofNullable(switchOf.get(p.ref()));
            String segment = segmentOf.get(p.ref());
            String identity;
            String placedBy;
            if (sw.isPresent()) {
                identity = sw.get().switchId();
                placedBy = sw.get().source().externalName();
            } else if (segment != null) {
                identity = Optional.ofNullable(switchesOnSegment.get(segment)).map(RailTable::mostNamed).orElse(segment);
                placedBy = "probe";
            } else {
                unplaced.add(p);
                continue;
            }
            boolean isSwitch = !identity.equals(segment);
            Group group = groups.computeIfAbsent(identity, id -> new Group(id, isSwitch ? Rail.Kind.SWITCH : Rail.Kind.SEGMENT,
                    isSwitch ? names.getOrDefault(id, id) : "segment of " + id.substring(SEGMENT.length())));
            group.nics.add(new RailNic(p.ref(), RailNic.hcaOf(p), p.rateGbps(), sw.map(SwitchPort::port), placedBy));
        }

        List<Group> railGroups = new ArrayList<>();
        Map<RailNic, String> strays = new LinkedHashMap<>();
        for (Group g : groups.values()) {
            if (g.nics.stream().map(RailNic::node).distinct().count() >= 2) {
                railGroups.add(g);
            } else {
                g.nics.forEach(n -> strays.put(n, g.name));
            }
        }
        railGroups.sort(Comparator.comparing(Group::hca, NaturalOrder.INSTANCE).thenComparing(Group::identity, NaturalOrder.INSTANCE));
        List<Rail> rails = new ArrayList<>();
        for (Group g : railGroups) {
            rails.add(new Rail(rails.size(), g.kind, g.identity, g.name, g.hca(), g.nics));
        }
        List<Finding> findings = new ArrayList<>(RailFindings.of(topology, rails, strays, unplaced));
        findings.addAll(LldpImpostors.of(topology));
        return new RailTable(rails, strays, unplaced, findings);
    }

    /**
     * @param topology the records
     * @param port     one of its ports
     * @return true when the port is a compute NIC: active, with an RDMA device, and not carrying its
     *         node's management address
     */
    public static boolean computeNic(Topology topology, Port port) {
        if (!port.active() || port.rdma().isEmpty()) {
            return false;
        }
        Optional<String> management = topology.record(port.node()).flatMap(NodeRecord::management);
        return management.map(m -> !port.addresses().contains(m)).orElse(true);
    }

    /**
     * The switch a port's cable reaches, as the rail table takes it: its record's switch port, unless
     * that is an LLDP neighbour which is another node of the records. lldpd on a Linux host does not
     * announce itself as a Station alone whenever IP forwarding is on (Router: lldpd 1.0.22
     * {@code src/daemon/lldpd.c} {@code lldpd_update_localchassis}, through
     * {@code forward-linux.c} {@code interfaces_routing_enabled}) or the host has any bridge, such as
     * {@code docker0} (Bridge: {@code src/daemon/interfaces.c} {@code interfaces_helper_chassis}), so
     * the node at the far end of a direct cable reads as a switch. An LLDP neighbour is a node, not a
     * switch, when
     * <ul>
     *   <li>its system name, or that name up to its first dot, is the name of a node of the records
     *       (lldpd sends the host's canonical name, {@code src/daemon/priv.c}
     *       {@code asroot_gethostname}; railmapd's default node name is the host name up to the first
     *       dot), or</li>
     *   <li>the probe confirms a cable from this port to a port Q of another node
     *       ({@link Topology#cableAt}), and Q does not hear the same LLDP chassis: two NICs cabled to
     *       one switch hear that switch's chassis, two NICs cabled to each other hear each other's.
     *       Two nodes alone on a switch that lets the probe through, one of them without lldpd, look
     *       like a cable by this rule.</li>
     * </ul>
     * InfiniBand switch ports are taken as they are: NodeInfo's node type tells a switch from an HCA.
     *
     * @param topology the records and what the probe heard
     * @param port     one of its ports
     * @return the switch port its cable reaches; empty when it names none or names a node
     */
    public static Optional<SwitchPort> switchReached(Topology topology, Port port) {
        Optional<SwitchPort> sw = port.switchPort();
        if (sw.isEmpty() || sw.get().source() != FarEndSource.LLDP) {
            return sw;
        }
        if (sw.get().name().flatMap(name -> nodeNamed(topology, name)).isPresent()) {
            return Optional.empty();
        }
        Optional<PortRef> cabled = topology.cableAt(port.ref()).map(c -> c.farEnd(port.ref()));
        if (cabled.isPresent()) {
            Optional<String> heardThere = topology.port(cabled.get()).flatMap(Port::switchPort).map(SwitchPort::switchId);
            if (!heardThere.equals(Optional.of(sw.get().switchId()))) {
                return Optional.empty();
            }
        }
        return sw;
    }

    /** @return the node of the topology {@code systemName} names: the whole name, or its part before the first dot */
    static Optional<String> nodeNamed(Topology topology, String systemName) {
        int dot = systemName.indexOf('.');
        if (topology.hasNode(systemName)) {
            return Optional.of(systemName);
        }
        return dot > 0 && topology.hasNode(systemName.substring(0, dot)) ? Optional.of(systemName.substring(0, dot)) : Optional.empty();
    }

    /** @return true when a finding is an error ({@code cross-rail}, {@code rail-missing}) */
    public boolean hasErrors() {
        return findings.stream().anyMatch(Finding::isError);
    }

    /**
     * @param port a compute NIC's port
     * @return the rail where the same-named NIC of most nodes is (at least two agreeing), which is
     *         where this one belongs; empty when none ({@link RailFindings}' rule for {@code cross-rail})
     */
    public Optional<Rail> homeOf(Port port) {
        return port.rdma().isEmpty() ? Optional.empty() : Optional.ofNullable(homes.get(RailNic.hcaOf(port)));
    }

    /** @return the rail that NIC's port is on, if any */
    public Optional<Rail> railOf(PortRef port) {
        return Optional.ofNullable(railByPort.get(port));
    }

    /** Prefix of a segment's identity. */
    static final String SEGMENT = "segment:";

    /**
     * Joins the ports that hear several far ends, and the far ends they hear, into segments: the
     * connected sets of "heard".
     *
     * @return each port on a segment, mapped to the segment's identity ({@code segment:<first port>})
     */
    private static Map<PortRef, String> segments(List<SharedSegment> shared) {
        Graph<PortRef, DefaultEdge> heard = new SimpleGraph<>(DefaultEdge.class);
        for (SharedSegment s : shared) {
            heard.addVertex(s.port());
            for (PortRef far : s.farEnds()) {
                heard.addVertex(far);
                heard.addEdge(s.port(), far);
            }
        }
        Map<PortRef, String> segmentOf = new HashMap<>();
        for (Set<PortRef> set : new ConnectivityInspector<>(heard).connectedSets()) {
            String id = SEGMENT + set.stream().min(Comparator.naturalOrder()).orElseThrow();
            set.forEach(p -> segmentOf.put(p, id));
        }
        return segmentOf;
    }

    /** @return the switch identity counted most (ties: the first in natural order, the map's order) */
    private static String mostNamed(Map<String, Integer> counts) {
        return counts.entrySet().stream().max(Map.Entry.<String, Integer>comparingByValue()
                        .thenComparing(Map.Entry.comparingByKey(NaturalOrder.INSTANCE.reversed())))
                .orElseThrow().getKey();
    }

    /** A switch or segment and the compute NICs that reach it, before numbering. */
    private static final class Group {
        final String identity;
        final Rail.Kind kind;
        final String name;
        final List<RailNic> nics = new ArrayList<>();

        Group(String identity, Rail.Kind kind, String name) {
            this.identity = identity;
            this.kind = kind;
            this.name = name;
        }

        String identity() {
            return identity;
        }

        /** @return the HCA name used by most nodes on it; ties: the first in natural order */
        String hca() {
            return mostUsedHca(nics);
        }
    }

    /**
     * @param nics NICs
     * @return the HCA name the most distinct nodes use among them; ties: the first in natural order
     */
    private static String mostUsedHca(List<RailNic> nics) {
        Map<String, Set<String>> nodesByHca = new TreeMap<>(NaturalOrder.INSTANCE);
        nics.forEach(n -> nodesByHca.computeIfAbsent(n.hca(), h -> new HashSet<>()).add(n.node()));
        return nodesByHca.entrySet().stream()
                .max(Comparator.<Map.Entry<String, Set<String>>>comparingInt(e -> e.getValue().size())
                        .thenComparing(Map.Entry.comparingByKey(NaturalOrder.INSTANCE.reversed())))
                .orElseThrow().getKey();
    }

    /**
     * @param finding a finding of this table's, or any other
     * @param nodes   the nodes it may be about
     * @return the node a {@code rail-missing} finding is about (the node with no active NIC on the rail), among
     *         {@code nodes}; empty for another code
     */
    public static Optional<String> missingNode(Finding finding, Collection<String> nodes) {
        return RailFindings.missingNode(finding, nodes);
    }
}
