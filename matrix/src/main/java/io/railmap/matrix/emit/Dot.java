package io.railmap.matrix.emit;

import io.railmap.matrix.draw.RailColours;
import io.railmap.matrix.fabric.Rail;
import io.railmap.matrix.fabric.RailNic;
import io.railmap.matrix.plan.Plan;
import io.railmap.matrix.rail.DeviceMatrix;
import io.railmap.matrix.topology.Cable;
import io.railmap.matrix.topology.Topology;
import io.railmap.matrix.topology.Unconfirmed;
import java.io.StringWriter;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.jgrapht.Graph;
import org.jgrapht.graph.builder.GraphTypeBuilder;
import org.jgrapht.nio.Attribute;
import org.jgrapht.nio.DefaultAttribute;
import org.jgrapht.nio.dot.DOTExporter;

/**
 * Graphviz DOT of the cable graph, written with JGraphT's {@link DOTExporter}: one vertex per node,
 * one edge per cable with each end's port name at that end ({@code taillabel}/{@code headlabel}).
 * Rails of the plan are coloured by rail index ({@link RailColours}: rail 0 of every pair the same colour) and labelled
 * {@code rail k}; cables that are no rail are grey; one-sided observations are dashed. Nodes are
 * ellipses; the switches and segments of the plan's {@linkplain Plan#railTable() rail table} are
 * boxes (a segment's dashed), each joined to the nodes whose compute NICs reach it by one edge per
 * NIC (the NIC's port at the node, the switch port at the switch), coloured by rail id. Render with
 * {@code dot -Tsvg}.
 */
public final class Dot implements Format {
    private static final About ABOUT = new About("dot", "text/vnd.graphviz",
            "Graphviz DOT of every cable, the plan's rails coloured, switches as boxes",
            FormatOption.JACCL, false);

    /** Prefix of a switch's or segment's vertex; node names hold no ':', so none is taken for a node. */
    private static final String SWITCH_VERTEX = "switch ";

    Dot() {
    }

    @Override
    public About about() {
        return ABOUT;
    }

    @Override
    public Output write(Request request) {
        Plan plan = request.plan();
        return new Output(render(request.topology(), plan), plan.findings());
    }

    /** An edge of the drawing; identity equality so parallel cables stay apart. */
    private static final class Line {
        final Map<String, Attribute> attributes = new LinkedHashMap<>();

        Line put(String key, String value) {
            attributes.put(key, DefaultAttribute.createAttribute(value));
            return this;
        }
    }

    /**
     * @param topology the cable graph (every node and cable is drawn)
     * @param plan     the plan whose rails are coloured
     * @return DOT text, ending with a newline
     */
    public static String render(Topology topology, Plan plan) {
        Graph<String, Line> graph = GraphTypeBuilder.<String, Line>undirected()
                .allowingMultipleEdges(true).allowingSelfLoops(true).buildGraph();
        topology.nodes().forEach(graph::addVertex);
        Map<Cable, Integer> railOf = new HashMap<>();
        DeviceMatrix m = plan.matrix();
        for (int i = 0; i < m.size(); i++) {
            for (int j = i + 1; j < m.size(); j++) {
                for (int k = 0; k < m.wires(i, j); k++) {
                    railOf.put(m.rails(i, j).get(k), k);
                }
            }
        }
        for (Cable cable : topology.cables()) {
            Line line = new Line().put("taillabel", cable.a().netdev()).put("headlabel", cable.b().netdev());
            Integer rail = railOf.get(cable);
            if (rail != null) {
                line.put("label", "rail " + rail).put("color", RailColours.of(rail)).put("penwidth", "2");
            } else {
                line.put("color", "grey");
            }
            graph.addEdge(cable.a().node(), cable.b().node(), line);
        }
        for (Unconfirmed u : topology.unconfirmed()) {
            if (u.farEnd().isEmpty()) {
                continue;
            }
            graph.addVertex(u.farEnd().get().node());
            graph.addEdge(u.from().node(), u.farEnd().get().node(), new Line()
                    .put("taillabel", u.from().netdev()).put("headlabel", u.farEnd().get().netdev())
                    .put("label", "unconfirmed").put("style", "dashed").put("color", "grey"));
        }
        Map<String, Rail> switches = new LinkedHashMap<>();
        for (Rail rail : plan.railTable().rails()) {
            String vertex = SWITCH_VERTEX + rail.identity();
            switches.put(vertex, rail);
            graph.addVertex(vertex);
            for (RailNic nic : rail.nics()) {
                Line line = new Line().put("taillabel", nic.port().netdev()).put("label", "rail " + rail.id())
                        .put("color", RailColours.of(rail.id()));
                nic.switchPort().ifPresent(p -> line.put("headlabel", p));
                graph.addEdge(nic.node(), vertex, line);
            }
        }
        Map<String, String> ids = new HashMap<>();
        topology.nodes().forEach(n -> ids.put(n, "n" + ids.size()));
        graph.vertexSet().stream().filter(v -> !ids.containsKey(v)).sorted().forEach(v -> ids.put(v, "n" + ids.size()));
        DOTExporter<String, Line> exporter = new DOTExporter<>(ids::get);
        exporter.setGraphIdProvider(() -> "railmap");
        // JGraphT writes graph attributes as they are, unquoted: quote (and escape) the comment here
        String comment = "topology " + plan.provenance().digest() + " from records " + plan.provenance().recordList();
        exporter.setGraphAttributeProvider(() -> Map.of("comment", DefaultAttribute.createAttribute(
                "\"" + comment.replace("\\", "\\\\").replace("\"", "\\\"") + "\"")));
        exporter.setVertexAttributeProvider(v -> {
            Map<String, Attribute> a = new LinkedHashMap<>();
            Rail rail = switches.get(v);
            if (rail != null) {
                // a switch's name comes from the network: a backslash in it must not escape DOT's closing quote
                a.put("label", DefaultAttribute.createAttribute(rail.name().replace("\\", "\\\\") + "\\nrail " + rail.id()));
                a.put("shape", DefaultAttribute.createAttribute("box"));
                a.put("style", DefaultAttribute.createAttribute(rail.kind() == Rail.Kind.SWITCH ? "filled" : "dashed"));
                a.put("fillcolor", DefaultAttribute.createAttribute("#eeeeee"));
                return a;
            }
            a.put("label", DefaultAttribute.createAttribute(m.ranks().contains(v) ? v + "\\nrank " + m.ranks().indexOf(v) : v));
            a.put("shape", DefaultAttribute.createAttribute("ellipse"));
            if (!topology.hasNode(v)) {
                a.put("style", DefaultAttribute.createAttribute("dashed"));
            }
            return a;
        });
        exporter.setEdgeAttributeProvider(e -> e.attributes);
        StringWriter out = new StringWriter();
        exporter.exportGraph(graph, out);
        return out.toString();
    }
}
