package io.railmap.lab;

import io.railmap.matrix.address.AddressPlan;
import io.railmap.matrix.codec.FormatException;
import io.railmap.matrix.codec.JsonCursor;
import io.railmap.matrix.model.Names;
import io.railmap.matrix.model.NaturalOrder;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.topology.Cable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * A lab topology file:
 * <pre>
 * {"description": "optional text",
 *  "nodes": ["g1", "g2", "g3"],
 *  "switches": ["leaf0", "leaf1"],
 *  "cables": [["g1:eth2", "leaf0:p1"], ["g2:eth2", "leaf0:p2"], ["g1:en6", "g2:en7"], ...]}
 * </pre>
 * Each node becomes a network namespace, each switch (optional field) a namespace with a Linux bridge
 * over its ports, each cable a veth pair whose ends carry the given interface names. A cable joins
 * two nodes (a plain cable) or a node and a switch port.
 *
 * <p>Rules: node and switch names follow {@link LabNames#node} and are unique across both lists
 * (with switches, they hold only letters, digits, '.', '_' and '-', for lldpd to announce them);
 * interface names are Linux netdev names (at most {@value #MAX_IFNAME} characters; not {@code lo} or
 * the lab's {@value LabNames#MGMT_IF}), each used once per node; a switch port is named {@code pN}
 * ({@code p1} to {@code p}{@value #MAX_SWITCH_PORT}, no leading zero), the port ID its lldpd
 * announces; no cable joins two switches (the lab's switches are leaves: a cable between two would
 * join their bridges into one segment); at most {@value #MAX_SWITCHES} switches. A switch with one
 * cable or none is allowed.
 *
 * @param description what the topology is, for people (may be empty)
 * @param nodes       node names, in the order given
 * @param switches    switch names, in the order given (empty: a lab of plain cables)
 * @param cables      the cables, in the order given
 */
public record LabTopology(String description, List<String> nodes, List<String> switches, List<Cable> cables) {
    private static final Set<String> FIELDS = Set.of("description", "nodes", "switches", "cables");
    /** The longest Linux interface name (IFNAMSIZ - 1). */
    public static final int MAX_IFNAME = 15;
    /** The most switches a lab makes (each is a namespace and an lldpd). */
    public static final int MAX_SWITCHES = 64;
    /** The highest switch port number. */
    public static final int MAX_SWITCH_PORT = 4096;
    private static final Pattern SWITCH_PORT = Pattern.compile("p[1-9][0-9]{0,3}");
    /** A name lldpcli's configuration takes as one word, unchanged. */
    private static final Pattern LLDP_NAME = Pattern.compile("[A-Za-z0-9._-]+");

    /**
     * @throws IllegalArgumentException when a node or switch is named twice or badly, a name is both a
     *                                  node and a switch, a cable end names an unlisted node or switch,
     *                                  an interface name is too long, reserved or used twice on one
     *                                  node or switch, a switch port is not named {@code pN}, a cable
     *                                  joins a node to itself or two switches, or there are more than
     *                                  {@value #MAX_SWITCHES} switches
     */
    public LabTopology {
        nodes = List.copyOf(nodes);
        switches = List.copyOf(switches);
        cables = List.copyOf(cables);
        if (nodes.isEmpty()) {
            throw new IllegalArgumentException("a lab needs at least one node");
        }
        if (switches.size() > MAX_SWITCHES) {
            throw new IllegalArgumentException("a lab holds at most " + MAX_SWITCHES + " switches, not " + switches.size());
        }
        Set<String> seen = new HashSet<>();
        for (String node : nodes) {
            LabNames.node("node", node);
            if (!seen.add(node)) {
                throw new IllegalArgumentException("node " + node + " is listed twice");
            }
        }
        Set<String> switchSet = new HashSet<>();
        for (String s : switches) {
            LabNames.node("switch", s);
            if (seen.contains(s)) {
                throw new IllegalArgumentException(s + " is both a node and a switch: give the switch another name");
            }
            if (!switchSet.add(s)) {
                throw new IllegalArgumentException("switch " + s + " is listed twice");
            }
        }
        if (!switches.isEmpty()) {
            // every node and switch of a lab with switches runs lldpd, configured by name through lldpcli,
            // whose command reader takes '#' as a comment and quotes as quoting: such a name would be
            // announced as something else
            for (List<String> names : List.of(nodes, switches)) {
                for (String name : names) {
                    if (!LLDP_NAME.matcher(name).matches()) {
                        throw new IllegalArgumentException("name \"" + Names.escape(name) + "\" cannot be announced by lldpd as it is: in a"
                                + " lab with switches, node and switch names hold only letters, digits, '.', '_' and '-'");
                    }
                }
            }
        }
        Set<PortRef> ends = new HashSet<>();
        for (Cable cable : cables) {
            if (switchSet.contains(cable.a().node()) && switchSet.contains(cable.b().node())) {
                throw new IllegalArgumentException("cable " + cable + " joins two switches; a lab switch is a leaf: cable it to nodes only");
            }
            for (PortRef end : List.of(cable.a(), cable.b())) {
                boolean onSwitch = switchSet.contains(end.node());
                if (!seen.contains(end.node()) && !onSwitch) {
                    throw new IllegalArgumentException("cable " + cable + " ends on " + end.node() + ", which is not in \"nodes\""
                            + (switches.isEmpty() ? "" : " or \"switches\""));
                }
                if (onSwitch && !SWITCH_PORT.matcher(end.netdev()).matches()) {
                    throw new IllegalArgumentException("switch port " + end + " must be named pN (p1 to p" + MAX_SWITCH_PORT
                            + ", no leading zero): the lab's switches announce their ports so");
                }
                if (onSwitch && Integer.parseInt(end.netdev().substring(1)) > MAX_SWITCH_PORT) {
                    throw new IllegalArgumentException("switch port " + end + " is above p" + MAX_SWITCH_PORT);
                }
                if (end.netdev().length() > MAX_IFNAME || end.netdev().contains("/")) {
                    throw new IllegalArgumentException("interface name " + end.netdev() + " of " + end.node()
                            + " is not a Linux netdev name (at most " + MAX_IFNAME + " characters, no '/')");
                }
                if (end.netdev().equals("lo") || end.netdev().equals(LabNames.MGMT_IF)) {
                    throw new IllegalArgumentException("interface name " + end + " is reserved (lo and " + LabNames.MGMT_IF
                            + " are the lab's own)");
                }
                if (!ends.add(end)) {
                    throw new IllegalArgumentException("port " + end + " ends two cables");
                }
            }
        }
        try {
            plan(switches, cables);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the lab cannot give its ports addresses: " + e.getMessage());
        }
    }

    /** A topology of nodes and plain cables, without switches. */
    public LabTopology(String description, List<String> nodes, List<Cable> cables) {
        this(description, nodes, List.of(), cables);
    }

    /**
     * @param source what the text came from (a file name), for error messages
     * @param json   the topology document
     * @return the topology
     * @throws FormatException naming the path when the document is malformed or breaks a rule above
     */
    public static LabTopology read(String source, String json) {
        JsonCursor root = JsonCursor.parse(source, json).object(FIELDS);
        String description = root.optionalField("description").map(JsonCursor::string).orElse("");
        List<String> nodes = new ArrayList<>();
        for (JsonCursor n : root.field("nodes").elements()) {
            nodes.add(n.string());
        }
        List<String> switches = new ArrayList<>();
        Optional<JsonCursor> s = root.optionalField("switches");
        if (s.isPresent()) {
            for (JsonCursor n : s.get().elements()) {
                switches.add(n.string());
            }
        }
        List<Cable> cables = new ArrayList<>();
        for (JsonCursor c : root.field("cables").elements()) {
            List<JsonCursor> ends = c.elements();
            if (ends.size() != 2) {
                throw c.fail("a cable is a pair of ends, [\"a:en6\", \"b:en7\"]");
            }
            cables.add(c.as(x -> new Cable(PortRef.parse(ends.get(0).string()), PortRef.parse(ends.get(1).string()))));
        }
        return root.as(x -> new LabTopology(description, nodes, switches, cables));
    }

    /** @return the nodes, then the switches, each in the order given */
    public List<String> names() {
        List<String> out = new ArrayList<>(nodes);
        out.addAll(switches);
        return List.copyOf(out);
    }

    /** @return true when {@code name} is one of the switches */
    public boolean isSwitch(String name) {
        return switches.contains(name);
    }

    /** @return the ports of one node or switch (its ends of cables), sorted with digits as numbers */
    public List<String> ports(String name) {
        Set<String> out = new TreeSet<>(NaturalOrder.INSTANCE);
        for (Cable c : cables) {
            for (PortRef end : List.of(c.a(), c.b())) {
                if (end.node().equals(name)) {
                    out.add(end.netdev());
                }
            }
        }
        return List.copyOf(out);
    }

    /** @return the cables that join two nodes (no switch at either end), in the order given */
    public List<Cable> plainCables() {
        return cables.stream().filter(c -> !isSwitch(c.a().node()) && !isSwitch(c.b().node())).toList();
    }

    /**
     * The addresses of the node ports ({@link AddressPlan}, from the link-local pool 169.254.0.0/16, as
     * macOS numbers a Thunderbolt port): each cable between two nodes its own /30, the node ports on
     * each switch one /24 (a rail), so that a TCP connection to a far end travels the cable or rail it
     * names. Switches first, in the order given, then the cables between nodes, in the order given.
     *
     * @return the plan; one {@link AddressPlan.Assignment} per switch with node ports, then per plain cable
     */
    public AddressPlan addresses() {
        return plan(switches, cables);
    }

    private static AddressPlan plan(List<String> switches, List<Cable> cables) {
        Set<String> switchSet = Set.copyOf(switches);
        List<AddressPlan.Link> links = new ArrayList<>();
        for (String sw : switches) {
            List<PortRef> ports = cables.stream().filter(c -> c.a().node().equals(sw) || c.b().node().equals(sw))
                    .map(c -> c.a().node().equals(sw) ? c.b() : c.a()).toList();
            if (!ports.isEmpty()) {
                links.add(new AddressPlan.Link(ports, true));
            }
        }
        cables.stream().filter(c -> !switchSet.contains(c.a().node()) && !switchSet.contains(c.b().node()))
                .forEach(c -> links.add(new AddressPlan.Link(List.of(c.a(), c.b()), false)));
        return AddressPlan.of(links, AddressPlan.DEFAULT_POOL, List.of());
    }

    /** @return the cable that ends at {@code port}, if any */
    public Optional<Cable> cableAt(PortRef port) {
        return cables.stream().filter(c -> c.a().equals(port) || c.b().equals(port)).findFirst();
    }

    /**
     * @param from  a node's end of a cable whose other end is a switch port
     * @param to    a free port of a switch
     * @return this topology with that cable's switch end moved to {@code to}, the cable keeping its
     *         place in the list
     * @throws IllegalArgumentException when {@code from} is not a node's end of a node-to-switch cable,
     *                                  {@code to} is not on a switch, or the result breaks a rule above
     *                                  ({@code to} in use, not named {@code pN})
     */
    public LabTopology moveCable(PortRef from, PortRef to) {
        Cable cable = cableAt(from).filter(c -> !isSwitch(from.node()) && isSwitch(c.farEnd(from).node()))
                .orElseThrow(() -> new IllegalArgumentException(from + " is not a node's end of a cable to a switch (cables: " + cables + ")"));
        if (!isSwitch(to.node())) {
            throw new IllegalArgumentException(to.node() + " is not a switch of the lab (switches: " + String.join(", ", switches) + ")");
        }
        List<Cable> next = new ArrayList<>(cables);
        next.set(cables.indexOf(cable), new Cable(from, to));
        return new LabTopology(description, nodes, switches, next);
    }
}
