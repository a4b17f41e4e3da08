package io.railmap.matrix.draw;

import io.railmap.matrix.check.CableFindings;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.fabric.Rail;
import io.railmap.matrix.fabric.RailNic;
import io.railmap.matrix.fabric.RailTable;
import io.railmap.matrix.model.NaturalOrder;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.rail.RailAligner;
import io.railmap.matrix.rail.RailOptions;
import io.railmap.matrix.topology.Cable;
import io.railmap.matrix.topology.Topology;
import io.railmap.matrix.topology.Unconfirmed;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;
import org.jgrapht.Graph;
import org.jgrapht.alg.drawing.CircularLayoutAlgorithm2D;
import org.jgrapht.alg.drawing.model.Box2D;
import org.jgrapht.alg.drawing.model.LayoutModel2D;
import org.jgrapht.alg.drawing.model.MapLayoutModel2D;
import org.jgrapht.alg.drawing.model.Point2D;
import org.jgrapht.graph.DefaultEdge;
import org.jgrapht.graph.builder.GraphTypeBuilder;

/**
 * The picture of a topology as SVG: the one picture railmap draws, saved by {@code railmap draw} and
 * shown by the daemon's page ({@code GET /v1/topology.svg}).
 *
 * <p><b>What it shows.</b> Nodes on a circle in name order (JGraphT's
 * {@link CircularLayoutAlgorithm2D}), labelled; each confirmed cable as a line between its nodes with
 * both port names near their ends (parallel cables of a pair bent apart); a cable that is a rail
 * coloured by its rail index ({@link RailColours}: its position in the pair's cables in rail order,
 * {@link RailAligner#usable}), one that is no rail grey; one-sided (unconfirmed) observations dashed;
 * the switches and segments of the {@link RailTable} as boxes on a smaller circle inside, each joined
 * to the compute NICs that reach it by a line coloured by its rail id (a switch only one node reaches
 * is grey); a node that has no record but that a port names as its far end dashed. A cable, line or
 * NIC a finding concerns (one of its ends is among the finding's {@link Finding#ports()}) is drawn thicker
 * with a red outline and carries the findings' sentences as its SVG {@code <title>} (a tooltip). The
 * findings are listed under the picture as well.
 *
 * <p><b>Machine-readable attributes</b> (for tests and the page):
 * <pre>
 * &lt;g class="node" data-node="a"&gt;                           (class "node unknown": no record)
 * &lt;g class="cable rail-0" data-cable="a:en6 b:en7"&gt;       ("cable no-rail"; plus "unconfirmed", "finding")
 * &lt;g class="switch" data-switch="leaf0" data-rail="0"&gt;      (plus "segment"; "switch stray" without data-rail)
 * &lt;g class="nic rail-0" data-port="g1:eth2" data-switch="leaf0"&gt;  (plus "finding")
 * &lt;text class="finding error" data-code="cross-rail"&gt;        (one per listed finding)
 * </pre>
 * A cable's {@code data-cable} names its ends in cable order ({@link Cable}); an unconfirmed line's
 * names the observing port first. Port labels are {@code <text class="port" data-port="a:en6">}.
 *
 * <p><b>Bounds.</b> At most {@value #MAX_NODES} nodes are drawn, the first in name order, and at most
 * {@value #MAX_LINES} lines (cables, unconfirmed observations and NIC links, in that order) among
 * them; at most {@value #MAX_LISTED_FINDINGS} findings are listed. What is left out is said in a
 * sentence at the top of the picture ({@code <text class="cap">}), so a cluster of 2,000 nodes gives
 * a picture of its first 256 nodes of about a megabyte that says "2000 nodes: the first 256 in name
 * order are drawn", never a picture too large to open. Names are written by the JDK's
 * {@link XMLStreamWriter}, which escapes them; characters XML 1.0 cannot hold become U+FFFD.
 *
 * <p>The picture depends only on the records: the same topology gives the same text.
 */
public final class TopologySvg {
    /** The most nodes drawn. */
    public static final int MAX_NODES = 256;
    /** The most lines drawn: cables, unconfirmed observations and NIC links together. */
    public static final int MAX_LINES = 4096;
    /** The most findings listed under the picture (all of them still mark what they concern). */
    public static final int MAX_LISTED_FINDINGS = 50;

    private static final String HIGHLIGHT = "#e00000";
    private static final double NODE_RADIUS = 20;
    private static final double MARGIN = 190;
    private static final double LINE_HEIGHT = 16;

    private TopologySvg() {
    }

    /**
     * The picture of a topology with its rail table and the findings about its cables and ports
     * ({@link CableFindings#of}: the same rank-free findings {@code GET /v1/events} raises and clears,
     * then the rail table's). The findings about a rank order and jaccl's matrix are left to
     * {@code railmap matrix} and {@code GET /v1/matrix}, asked with the hosts in the order they run.
     *
     * @param topology the records
     * @return SVG text (UTF-8 when written out), ending with a newline
     */
    public static String render(Topology topology) {
        RailTable rails = RailTable.of(topology);
        return render(topology, rails, CableFindings.of(topology, rails));
    }

    /**
     * @param topology the records
     * @param rails    the topology's rail table ({@link RailTable#of})
     * @param findings what to list and mark: each marks the cables, lines and NICs one of whose ends
     *                 is among its {@link Finding#ports()}
     * @return SVG text, ending with a newline
     */
    public static String render(Topology topology, RailTable rails, List<Finding> findings) {
        return new Drawing(topology, rails, findings).write();
    }

    /** @return every node with a record and every node an unconfirmed observation names, in name order */
    private static List<String> vertices(Topology topology) {
        Set<String> all = new TreeSet<>(NaturalOrder.INSTANCE);
        all.addAll(topology.nodes());
        topology.unconfirmed().forEach(u -> u.farEnd().ifPresent(f -> all.add(f.node())));
        return List.copyOf(all);
    }

    /** One line between two points: a cable, an unconfirmed observation or a NIC link. */
    private static final class Line {
        final String kind;
        final String key;
        final String from;
        final String to;
        final String fromLabel;
        final String toLabel;
        final String fromPort;
        final String toPort;
        final Integer rail;
        final boolean dashed;
        final Map<String, String> data = new LinkedHashMap<>();
        final List<Finding> findings = new ArrayList<>();
        int bend;
        int bends = 1;

        Line(String kind, String key, String from, String to, String fromPort, String toPort, String fromLabel, String toLabel,
             Integer rail, boolean dashed) {
            this.kind = kind;
            this.key = key;
            this.from = from;
            this.to = to;
            this.fromPort = fromPort;
            this.toPort = toPort;
            this.fromLabel = fromLabel;
            this.toLabel = toLabel;
            this.rail = rail;
            this.dashed = dashed;
        }
    }

    /** A switch, segment or stray switch box. */
    private record Box(String key, String name, String classes, Integer rail) {
    }

    /** The computed picture, written once. */
    private static final class Drawing {
        final Topology topology;
        final List<Finding> findings;
        final List<String> nodes;
        final int allNodes;
        final Map<String, Box> boxes = new LinkedHashMap<>();
        final List<Line> lines = new ArrayList<>();
        int linesLeftOut;
        final Map<String, Point2D> at = new HashMap<>();
        final double radius;
        final double cx;
        final double cy;

        Drawing(Topology topology, RailTable rails, List<Finding> findings) {
            this.topology = topology;
            this.findings = List.copyOf(findings);
            List<String> all = vertices(topology);
            this.allNodes = all.size();
            this.nodes = all.stream().limit(MAX_NODES).toList();
            Set<String> drawn = new HashSet<>(nodes);
            cables(drawn);
            unconfirmed(drawn);
            switches(rails, drawn);
            bends();
            mark();
            radius = Math.max(150, nodes.size() * 56 / (2 * Math.PI));
            cx = MARGIN + radius;
            cy = MARGIN + radius;
            layout();
        }

        private boolean room() {
            if (lines.size() < MAX_LINES) {
                return true;
            }
            linesLeftOut++;
            return false;
        }

        private void cables(Set<String> drawn) {
            Map<Set<String>, List<Cable>> railOrder = new HashMap<>();
            for (Cable cable : topology.cables()) {
                if (!drawn.contains(cable.a().node()) || !drawn.contains(cable.b().node()) || !room()) {
                    continue;
                }
                List<Cable> order = railOrder.computeIfAbsent(Set.of(cable.a().node(), cable.b().node()),
                        pair -> RailAligner.usable(topology, cable.a().node(), cable.b().node(), RailOptions.DEFAULTS, new ArrayList<>()));
                int k = order.indexOf(cable);
                lines.add(new Line("cable", cable.a() + " " + cable.b(), cable.a().node(), cable.b().node(), cable.a().toString(),
                        cable.b().toString(), cable.a().port(), cable.b().port(), k >= 0 ? k : null, false));
            }
        }

        private void unconfirmed(Set<String> drawn) {
            Set<Set<String>> seen = new HashSet<>();
            for (Unconfirmed u : topology.unconfirmed()) {
                if (u.farEnd().isEmpty()) {
                    continue;
                }
                var far = u.farEnd().get();
                if (!drawn.contains(u.from().node()) || !drawn.contains(far.node()) || u.from().node().equals(far.node())
                        || !seen.add(Set.of(u.from().toString(), far.toString())) || !room()) {
                    continue;
                }
                lines.add(new Line("cable", u.from() + " " + far, u.from().node(), far.node(), u.from().toString(), far.toString(),
                        u.from().port(), far.port(), null, true));
            }
        }

        private void switches(RailTable rails, Set<String> drawn) {
            for (Rail rail : rails.rails()) {
                String key = "rail:" + rail.id();
                boxes.put(key, new Box(key, rail.name(), rail.kind() == Rail.Kind.SEGMENT ? "switch segment" : "switch", rail.id()));
                for (RailNic nic : rail.nics()) {
                    nicLine(drawn, nic, key, rail.name(), rail.id());
                }
            }
            rails.strays().forEach((nic, name) -> {
                String key = "stray:" + name;
                boxes.putIfAbsent(key, new Box(key, name, "switch stray", null));
                nicLine(drawn, nic, key, name, null);
            });
        }

        private void nicLine(Set<String> drawn, RailNic nic, String box, String name, Integer rail) {
            if (!drawn.contains(nic.node()) || !room()) {
                return;
            }
            Line line = new Line("nic", "nic " + nic.port(), nic.node(), box, nic.port().toString(), null, nic.port().port(),
                    nic.switchPort().orElse(null), rail, false);
            line.data.put("data-port", nic.port().toString());
            line.data.put("data-switch", name);
            lines.add(line);
        }

        /** Parallel lines of a pair are bent apart: line i of m bends by (i - (m-1)/2) steps. */
        private void bends() {
            Map<Set<String>, List<Line>> byPair = new LinkedHashMap<>();
            for (Line line : lines) {
                if (line.kind.equals("cable")) {
                    byPair.computeIfAbsent(Set.of(line.from, line.to), p -> new ArrayList<>()).add(line);
                }
            }
            for (List<Line> pair : byPair.values()) {
                for (int i = 0; i < pair.size(); i++) {
                    pair.get(i).bend = 2 * i - (pair.size() - 1);
                    pair.get(i).bends = pair.size();
                }
            }
        }

        /** Gives each line the findings about one of its ends. */
        private void mark() {
            Map<String, List<Line>> byPort = new HashMap<>();
            for (Line line : lines) {
                byPort.computeIfAbsent(line.fromPort, p -> new ArrayList<>()).add(line);
                if (line.toPort != null) {
                    byPort.computeIfAbsent(line.toPort, p -> new ArrayList<>()).add(line);
                }
            }
            for (Finding f : findings) {
                Set<Line> marked = new HashSet<>();
                for (PortRef port : f.ports()) {
                    for (Line line : byPort.getOrDefault(port.toString(), List.of())) {
                        if (marked.add(line)) {
                            line.findings.add(f);
                        }
                    }
                }
            }
        }

        private void layout() {
            Box2D area = Box2D.of(cx - radius, cy - radius, 2 * radius, 2 * radius);
            circle(nodes, radius, area);
            List<String> boxKeys = List.copyOf(boxes.keySet());
            if (boxKeys.size() == 1) {
                at.put(boxKeys.get(0), Point2D.of(cx, cy));
            } else if (!boxKeys.isEmpty()) {
                circle(boxKeys, radius * 0.45, area);
            }
        }

        /** Places {@code vertices} on a circle of {@code r} around the area's centre, in list order. */
        private void circle(List<String> vertices, double r, Box2D area) {
            Graph<String, DefaultEdge> graph = GraphTypeBuilder.<String, DefaultEdge>undirected().edgeClass(DefaultEdge.class).buildGraph();
            vertices.forEach(graph::addVertex);
            Map<String, Integer> position = new HashMap<>();
            vertices.forEach(v -> position.put(v, position.size()));
            LayoutModel2D<String> model = new MapLayoutModel2D<>(area);
            new CircularLayoutAlgorithm2D<String, DefaultEdge>(r, (x, y) -> Integer.compare(position.get(x), position.get(y)))
                    .layout(graph, model);
            vertices.forEach(v -> at.put(v, model.get(v)));
        }

        String write() {
            List<String> listed = findings.stream().limit(MAX_LISTED_FINDINGS)
                    .map(f -> f.severity().wireName() + " " + f.code().wireName() + ": " + f.message()).toList();
            double width = 2 * (MARGIN + radius);
            double top = 2 * (MARGIN + radius);
            double height = top + (findings.isEmpty() ? 0 : (listed.size() + 2) * LINE_HEIGHT);
            StringWriter out = new StringWriter();
            try {
                XMLStreamWriter x = XMLOutputFactory.newFactory().createXMLStreamWriter(out);
                x.writeStartElement("svg");
                x.writeDefaultNamespace("http://www.w3.org/2000/svg");
                x.writeAttribute("class", "railmap-topology");
                x.writeAttribute("width", num(width));
                x.writeAttribute("height", num(height));
                x.writeAttribute("viewBox", "0 0 " + num(width) + " " + num(height));
                x.writeAttribute("font-family", "sans-serif");
                x.writeAttribute("font-size", "12");
                x.writeAttribute("data-nodes", Integer.toString(allNodes));
                x.writeAttribute("data-cables", Integer.toString(topology.cables().size()));
                element(x, "title", "railmap topology: " + summary());
                x.writeEmptyElement("rect");
                x.writeAttribute("width", num(width));
                x.writeAttribute("height", num(height));
                x.writeAttribute("fill", "white");
                text(x, "caption", 16, 24, "start", "railmap topology: " + summary());
                java.util.Optional<String> cap = caps();
                if (cap.isPresent()) {
                    text(x, "cap", 16, 42, "start", cap.get());
                }
                group(x, "lines");
                for (Line line : lines) {
                    line(x, line);
                }
                x.writeEndElement();
                group(x, "switches");
                for (Box box : boxes.values()) {
                    box(x, box);
                }
                x.writeEndElement();
                group(x, "nodes");
                for (String node : nodes) {
                    node(x, node);
                }
                x.writeEndElement();
                if (!findings.isEmpty()) {
                    group(x, "findings");
                    text(x, "findings-title", 16, top + LINE_HEIGHT, "start", "findings (" + findings.size() + "):");
                    for (int i = 0; i < listed.size(); i++) {
                        Finding f = findings.get(i);
                        x.writeStartElement("text");
                        x.writeAttribute("class", "finding " + f.severity().wireName());
                        x.writeAttribute("data-code", f.code().wireName());
                        x.writeAttribute("data-severity", f.severity().wireName());
                        x.writeAttribute("x", "16");
                        x.writeAttribute("y", num(top + (i + 2) * LINE_HEIGHT));
                        x.writeAttribute("fill", f.isError() ? HIGHLIGHT : "#333333");
                        x.writeCharacters(clean(listed.get(i)));
                        x.writeEndElement();
                    }
                    x.writeEndElement();
                }
                x.writeEndElement();
                x.writeEndDocument();
                x.close();
            } catch (XMLStreamException e) {
                throw new IllegalStateException("cannot write the SVG: " + e.getMessage(), e);
            }
            return out + "\n";
        }

        private String summary() {
            long unconfirmed = lines.stream().filter(l -> l.dashed).count();
            long switches = boxes.values().stream().filter(b -> !b.classes().contains("segment")).count();
            return plural(allNodes, "node") + ", " + plural(topology.cables().size(), "cable")
                    + (unconfirmed > 0 ? ", " + plural(unconfirmed, "unconfirmed observation") : "")
                    + (boxes.isEmpty() ? "" : ", " + plural(switches, "switch") + ", " + plural(boxes.size() - switches, "segment"))
                    + ", " + plural(findings.size(), "finding");
        }

        private java.util.Optional<String> caps() {
            List<String> parts = new ArrayList<>();
            if (allNodes > nodes.size()) {
                parts.add(allNodes + " nodes: the first " + nodes.size() + " in name order are drawn");
            }
            if (linesLeftOut > 0) {
                parts.add(linesLeftOut + " lines beyond the first " + MAX_LINES + " are not drawn");
            }
            if (findings.size() > MAX_LISTED_FINDINGS) {
                parts.add((findings.size() - MAX_LISTED_FINDINGS) + " findings beyond the first " + MAX_LISTED_FINDINGS + " are not listed");
            }
            return parts.isEmpty() ? java.util.Optional.empty()
                    : java.util.Optional.of(String.join("; ", parts) + " (railmap matrix, railmap rails and railmap nodes list them all)");
        }

        private void line(XMLStreamWriter x, Line line) throws XMLStreamException {
            String colour = line.rail == null ? RailColours.NO_RAIL : RailColours.of(line.rail);
            StringBuilder classes = new StringBuilder(line.kind).append(line.rail == null ? " no-rail" : " rail-" + line.rail);
            if (line.dashed) {
                classes.append(" unconfirmed");
            }
            if (!line.findings.isEmpty()) {
                classes.append(" finding");
            }
            x.writeStartElement("g");
            x.writeAttribute("class", classes.toString());
            if (line.kind.equals("cable")) {
                x.writeAttribute("data-cable", clean(line.key));
            }
            for (Map.Entry<String, String> d : line.data.entrySet()) {
                x.writeAttribute(d.getKey(), clean(d.getValue()));
            }
            if (line.rail != null) {
                x.writeAttribute("data-rail", Integer.toString(line.rail));
            }
            if (!line.findings.isEmpty()) {
                element(x, "title", line.findings.stream().map(f -> f.severity().wireName() + " " + f.code().wireName() + ": " + f.message())
                        .collect(Collectors.joining("\n")));
            }
            Point2D a = at.get(line.from);
            Point2D b = at.get(line.to);
            // a quadratic curve bent off the straight line by the line's place among its pair's lines
            double dx = b.getX() - a.getX();
            double dy = b.getY() - a.getY();
            double length = Math.max(1, Math.hypot(dx, dy));
            double nx = -dy / length;
            double ny = dx / length;
            double bend = line.bend * 14;
            double qx = (a.getX() + b.getX()) / 2 + nx * bend * 2;
            double qy = (a.getY() + b.getY()) / 2 + ny * bend * 2;
            String d = "M " + num(a.getX()) + " " + num(a.getY()) + " Q " + num(qx) + " " + num(qy) + " " + num(b.getX()) + " " + num(b.getY());
            if (!line.findings.isEmpty()) {
                path(x, "halo", d, HIGHLIGHT, 9, false);
            }
            path(x, "wire", d, colour, line.findings.isEmpty() ? (line.rail == null ? 2 : 3) : 4, line.dashed);
            double t = Math.min(0.42, 36 / length);
            portLabel(x, line.fromPort, line.fromLabel, bezier(a, qx, qy, b, t));
            if (line.toLabel != null) {
                double far = line.kind.equals("nic") ? Math.min(0.42, 52 / length) : t;
                portLabel(x, line.toPort, line.toLabel, bezier(a, qx, qy, b, 1 - far));
            }
            x.writeEndElement();
        }

        private void path(XMLStreamWriter x, String cls, String d, String colour, double width, boolean dashed) throws XMLStreamException {
            x.writeEmptyElement("path");
            x.writeAttribute("class", cls);
            x.writeAttribute("d", d);
            x.writeAttribute("fill", "none");
            x.writeAttribute("stroke", colour);
            x.writeAttribute("stroke-width", num(width));
            if (cls.equals("halo")) {
                x.writeAttribute("stroke-opacity", "0.55");
            }
            if (dashed) {
                x.writeAttribute("stroke-dasharray", "7 5");
            }
        }

        private void portLabel(XMLStreamWriter x, String port, String label, Point2D p) throws XMLStreamException {
            x.writeStartElement("text");
            x.writeAttribute("class", "port");
            if (port != null) {
                x.writeAttribute("data-port", clean(port));
            }
            x.writeAttribute("x", num(p.getX()));
            x.writeAttribute("y", num(p.getY() + 4));
            x.writeAttribute("text-anchor", "middle");
            x.writeAttribute("font-size", "10");
            x.writeAttribute("paint-order", "stroke");
            x.writeAttribute("stroke", "white");
            x.writeAttribute("stroke-width", "3");
            x.writeCharacters(clean(label));
            x.writeEndElement();
        }

        private void box(XMLStreamWriter x, Box box) throws XMLStreamException {
            Point2D p = at.get(box.key());
            String name = clean(box.name());
            double w = Math.min(260, Math.max(80, 7 * name.length() + 20));
            double h = 36;
            x.writeStartElement("g");
            x.writeAttribute("class", box.classes());
            x.writeAttribute("data-switch", name);
            if (box.rail() != null) {
                x.writeAttribute("data-rail", Integer.toString(box.rail()));
            }
            x.writeEmptyElement("rect");
            x.writeAttribute("x", num(p.getX() - w / 2));
            x.writeAttribute("y", num(p.getY() - h / 2));
            x.writeAttribute("width", num(w));
            x.writeAttribute("height", num(h));
            x.writeAttribute("rx", "4");
            x.writeAttribute("fill", "#eeeeee");
            x.writeAttribute("stroke", box.rail() == null ? RailColours.NO_RAIL : RailColours.of(box.rail()));
            x.writeAttribute("stroke-width", "2");
            if (box.classes().contains("segment")) {
                x.writeAttribute("stroke-dasharray", "7 5");
            }
            text(x, "name", p.getX(), p.getY() - 2, "middle", name);
            text(x, "rail", p.getX(), p.getY() + 12, "middle",
                    box.rail() == null ? "no rail: one node reaches it" : (box.classes().contains("segment") ? "segment, " : "") + "rail " + box.rail());
            x.writeEndElement();
        }

        private void node(XMLStreamWriter x, String node) throws XMLStreamException {
            Point2D p = at.get(node);
            boolean known = topology.hasNode(node);
            x.writeStartElement("g");
            x.writeAttribute("class", known ? "node" : "node unknown");
            x.writeAttribute("data-node", clean(node));
            if (!known) {
                element(x, "title", node + " has no record: a port names it as its far end");
            }
            x.writeEmptyElement("circle");
            x.writeAttribute("cx", num(p.getX()));
            x.writeAttribute("cy", num(p.getY()));
            x.writeAttribute("r", num(NODE_RADIUS));
            x.writeAttribute("fill", "white");
            x.writeAttribute("stroke", "#333333");
            x.writeAttribute("stroke-width", "2");
            if (!known) {
                x.writeAttribute("stroke-dasharray", "5 4");
            }
            // the name outside the circle, away from its centre
            double ux = (p.getX() - cx) / radius;
            double uy = (p.getY() - cy) / radius;
            String anchor = ux > 0.2 ? "start" : ux < -0.2 ? "end" : "middle";
            text(x, "label", p.getX() + ux * (NODE_RADIUS + 8), p.getY() + uy * (NODE_RADIUS + 8) + (uy > 0.2 ? 12 : uy < -0.2 ? -4 : 4),
                    anchor, node);
            x.writeEndElement();
        }

        private static void group(XMLStreamWriter x, String cls) throws XMLStreamException {
            x.writeStartElement("g");
            x.writeAttribute("class", cls);
        }

        private static void text(XMLStreamWriter x, String cls, double px, double py, String anchor, String content) throws XMLStreamException {
            x.writeStartElement("text");
            x.writeAttribute("class", cls);
            x.writeAttribute("x", num(px));
            x.writeAttribute("y", num(py));
            x.writeAttribute("text-anchor", anchor);
            x.writeCharacters(clean(content));
            x.writeEndElement();
        }

        private static void element(XMLStreamWriter x, String name, String content) throws XMLStreamException {
            x.writeStartElement(name);
            x.writeCharacters(clean(content));
            x.writeEndElement();
        }

        private static Point2D bezier(Point2D a, double qx, double qy, Point2D b, double t) {
            double u = 1 - t;
            return Point2D.of(u * u * a.getX() + 2 * u * t * qx + t * t * b.getX(), u * u * a.getY() + 2 * u * t * qy + t * t * b.getY());
        }
    }

    private static String plural(long n, String noun) {
        return n + " " + (n == 1 ? noun : noun.endsWith("h") ? noun + "es" : noun + "s");
    }

    /** @return a coordinate with one decimal, as SVG reads it ({@code 12.5}, never {@code 12,5}) */
    private static String num(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    /** @return the text with every character XML 1.0 cannot hold (most C0 controls, lone surrogates, U+FFFE/F) as U+FFFD */
    static String clean(String text) {
        StringBuilder out = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean ok;
            if (Character.isHighSurrogate(c)) {
                ok = i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1));
                if (ok) {
                    if (out != null) {
                        out.append(c).append(text.charAt(i + 1));
                    }
                    i++;
                    continue;
                }
            } else {
                ok = !Character.isLowSurrogate(c) && (c >= 0x20 || c == '\t' || c == '\n' || c == '\r') && c != 0xFFFE && c != 0xFFFF;
            }
            if (!ok && out == null) {
                out = new StringBuilder(text.length()).append(text, 0, i);
            }
            if (out != null) {
                out.append(ok ? c : '\uFFFD');
            }
        }
        return out == null ? text : out.toString();
    }
}
