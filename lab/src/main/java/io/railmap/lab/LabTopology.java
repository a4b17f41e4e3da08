package io.railmap.lab;

import io.railmap.matrix.codec.FormatException;
import io.railmap.matrix.codec.JsonCursor;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.topology.Cable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * A lab topology file:
 * <pre>
 * {"description": "optional text",
 *  "nodes": ["a", "b", "c"],
 *  "cables": [["a:en6", "b:en7"], ["a:en7", "b:en6"], ...]}
 * </pre>
 * Each node becomes a network namespace, each cable a veth pair whose ends carry the given interface
 * names. Interface names are Linux netdev names (at most 15 characters; not {@code lo} or the lab's
 * {@value LabNames#MGMT_IF}), each used once per node; node names may not hold {@code /}.
 *
 * @param description what the topology is, for people (may be empty)
 * @param nodes       node names, in the order given
 * @param cables      the cables, in the order given
 */
public record LabTopology(String description, List<String> nodes, List<Cable> cables) {
    private static final Set<String> FIELDS = Set.of("description", "nodes", "cables");
    /** The longest Linux interface name (IFNAMSIZ - 1). */
    public static final int MAX_IFNAME = 15;

    /**
     * @throws IllegalArgumentException when a node is named twice or badly, a cable end names an
     *                                  unlisted node, an interface name is too long, reserved or used
     *                                  twice on one node, or a cable joins a node to itself
     */
    public LabTopology {
        nodes = List.copyOf(nodes);
        cables = List.copyOf(cables);
        if (nodes.isEmpty()) {
            throw new IllegalArgumentException("a lab needs at least one node");
        }
        Set<String> seen = new HashSet<>();
        for (String node : nodes) {
            LabNames.node("node", node);
            if (!seen.add(node)) {
                throw new IllegalArgumentException("node " + node + " is listed twice");
            }
        }
        Set<PortRef> ends = new HashSet<>();
        for (Cable cable : cables) {
            for (PortRef end : List.of(cable.a(), cable.b())) {
                if (!seen.contains(end.node())) {
                    throw new IllegalArgumentException("cable " + cable + " ends on " + end.node() + ", which is not in \"nodes\"");
                }
                if (end.port().length() > MAX_IFNAME || end.port().contains("/")) {
                    throw new IllegalArgumentException("interface name " + end.port() + " of " + end.node()
                            + " is not a Linux netdev name (at most " + MAX_IFNAME + " characters, no '/')");
                }
                if (end.port().equals("lo") || end.port().equals(LabNames.MGMT_IF)) {
                    throw new IllegalArgumentException("interface name " + end + " is reserved (lo and " + LabNames.MGMT_IF
                            + " are the lab's own)");
                }
                if (!ends.add(end)) {
                    throw new IllegalArgumentException("port " + end + " ends two cables");
                }
            }
        }
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
        List<Cable> cables = new ArrayList<>();
        for (JsonCursor c : root.field("cables").elements()) {
            List<JsonCursor> ends = c.elements();
            if (ends.size() != 2) {
                throw c.fail("a cable is a pair of ends, [\"a:en6\", \"b:en7\"]");
            }
            cables.add(c.as(x -> new Cable(PortRef.parse(ends.get(0).string()), PortRef.parse(ends.get(1).string()))));
        }
        return root.as(x -> new LabTopology(description, nodes, cables));
    }

    /** @return the ports of one node (its ends of cables), sorted */
    public List<String> ports(String node) {
        Set<String> out = new TreeSet<>(io.railmap.matrix.model.NaturalOrder.INSTANCE);
        for (Cable c : cables) {
            for (PortRef end : List.of(c.a(), c.b())) {
                if (end.node().equals(node)) {
                    out.add(end.port());
                }
            }
        }
        return List.copyOf(out);
    }

    /** @return the cable that ends at {@code port}, if any */
    public Optional<Cable> cableAt(PortRef port) {
        return cables.stream().filter(c -> c.a().equals(port) || c.b().equals(port)).findFirst();
    }
}
