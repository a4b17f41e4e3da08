package io.railmap.matrix.draw;

import io.railmap.matrix.check.CableFindings;
import io.railmap.matrix.draw.TopologyLayout.Box;
import io.railmap.matrix.draw.TopologyLayout.Line;
import io.railmap.matrix.fabric.RailTable;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.rail.RailAligner;
import io.railmap.matrix.topology.Cable;
import io.railmap.matrix.topology.Topology;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;
import org.jgrapht.alg.drawing.CircularLayoutAlgorithm2D;
import org.jgrapht.alg.drawing.model.Box2D;
import org.jgrapht.alg.drawing.model.Point2D;

/**
 * The picture of a topology as SVG: the one picture railmap draws, saved by {@code railmap draw} and
 * shown by the daemon's page ({@code GET /v1/topology.svg}). {@code TopologyLayout} decides what is
 * drawn and where; this class writes it.
 *
 * <p><b>What it shows.</b>
 * <ul>
 * <li>Nodes on a circle in name order (JGraphT's {@link CircularLayoutAlgorithm2D}), labelled; a node
 *     that has no record but that a port names as its far end, dashed.</li>
 * <li>Each confirmed cable as a line between its nodes with both port names near their ends (parallel
 *     cables of a pair bent apart); a cable that is a rail coloured by its rail index
 *     ({@link RailColours}: its place among the pair's cables in rail order,
 *     {@link RailAligner#usable}), one that is no rail grey; one-sided (unconfirmed) observations
 *     dashed.</li>
 * <li>When the {@link RailTable} has a switch, segment or stray switch, a rail diagram instead
 *     ({@link RailLayout}): the switches in a row above the nodes, each joined to the compute NICs that
 *     reach it by a line coloured by its rail id (a stray switch, which one node reaches, grey), a
 *     dashed stub for each rail a node misses ({@code rail-missing}), and the direct cables as arcs
 *     under the node row. A cluster of direct cables only keeps the circle.</li>
 * <li>A cable, line or NIC a finding concerns (one of its ends is among the finding's
 *     {@link Finding#ports()}) thicker with a red outline, the findings' sentences as its SVG
 *     {@code <title>} (a tooltip); the findings listed under the picture as well.</li>
 * </ul>
 *
 * <p><b>Machine-readable attributes</b> (for tests and the page):
 * <pre>
 * &lt;g class="node" data-node="a"&gt;                           (class "node unknown": no record)
 * &lt;g class="cable rail-0" data-cable="a:en6 b:en7"&gt;       ("cable no-rail"; plus "unconfirmed", "finding")
 * &lt;g class="switch" data-switch="leaf0" data-rail="0"&gt;      (plus "segment"; "switch stray" without data-rail)
 * &lt;g class="nic rail-0" data-port="g1:eth2" data-switch="leaf0" data-switch-port="p1"&gt;  (plus "finding")
 * &lt;g class="missing rail-1 finding" data-node="g3" data-switch="leaf1" data-rail="1"&gt;  (a rail g3 misses)
 * &lt;text class="finding error" data-code="cross-rail"&gt;        (one per listed finding)
 * </pre>
 * The root {@code svg} carries the header's counts: {@code data-nodes}, {@code data-cables} (with the
 * rail diagram, the NICs' cables to switches too) and, with the rail diagram only,
 * {@code data-switches} and {@code data-rails}.
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
    private static final double LINE_HEIGHT = 16;

    private final TopologyLayout layout;

    private TopologySvg(TopologyLayout layout) {
        this.layout = layout;
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
        return new TopologySvg(new TopologyLayout(topology, rails, findings, MAX_NODES, MAX_LINES)).write();
    }

    String write() {
        List<String> listed = layout.findings.stream().limit(MAX_LISTED_FINDINGS)
                .map(f -> f.severity().externalName() + " " + f.code().externalName() + ": " + f.message()).toList();
        RailLayout rail = layout.rail;
        double width = rail == null ? 2 * (TopologyLayout.MARGIN + layout.radius) : rail.width;
        double top = rail == null ? 2 * (TopologyLayout.MARGIN + layout.radius) : rail.height;
        double height = top + (layout.findings.isEmpty() ? 0 : (listed.size() + 2) * LINE_HEIGHT);
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
            x.writeAttribute("data-nodes", Integer.toString(layout.allNodes));
            x.writeAttribute("data-cables", Integer.toString(cables()));
            if (rail != null) {
                x.writeAttribute("data-switches", Integer.toString(layout.switchCount));
                x.writeAttribute("data-rails", Integer.toString(layout.railCount));
            }
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
            for (Line line : layout.lines) {
                line(x, line);
            }
            x.writeEndElement();
            group(x, "switches");
            for (Box box : layout.boxes.values()) {
                box(x, box);
            }
            x.writeEndElement();
            group(x, "nodes");
            for (String node : layout.nodes) {
                node(x, node);
            }
            x.writeEndElement();
            if (!layout.findings.isEmpty()) {
                group(x, "findings");
                text(x, "findings-title", 16, top + LINE_HEIGHT, "start", "findings (" + layout.findings.size() + "):");
                for (int i = 0; i < listed.size(); i++) {
                    Finding f = layout.findings.get(i);
                    x.writeStartElement("text");
                    x.writeAttribute("class", "finding " + f.severity().externalName());
                    x.writeAttribute("data-code", f.code().externalName());
                    x.writeAttribute("data-severity", f.severity().externalName());
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

    /**
     * The header's counts: nodes, cables (with the rail diagram, the direct ones and those of the NICs
     * that reach a switch or segment), switches (stray ones too), segments when there are any, rails,
     * unconfirmed observations when there are any, findings.
     */
    private String summary() {
        long unconfirmed = layout.lines.stream().filter(l -> l.dashed).count();
        long direct = layout.topology.cables().size();
        return plural(layout.allNodes, "node") + ", " + plural(cables(), "cable")
                + (layout.rail != null && direct > 0 && layout.switchCables > 0
                        ? " (" + direct + " node to node, " + layout.switchCables + " to a switch)" : "")
                + (layout.rail == null ? "" : ", " + plural(layout.switchCount, "switch")
                        + (layout.segmentCount > 0 ? ", " + plural(layout.segmentCount, "segment") : "") + ", " + plural(layout.railCount, "rail"))
                + (unconfirmed > 0 ? ", " + plural(unconfirmed, "unconfirmed observation") : "")
                + ", " + plural(layout.findings.size(), "finding");
    }

    /** @return the confirmed cables: between two nodes, and from a NIC to a switch or segment */
    private int cables() {
        return layout.topology.cables().size() + layout.switchCables;
    }

    private java.util.Optional<String> caps() {
        List<String> parts = new ArrayList<>();
        if (layout.allNodes > layout.nodes.size()) {
            parts.add(layout.allNodes + " nodes: the first " + layout.nodes.size() + " in name order are drawn");
        }
        if (layout.linesLeftOut > 0) {
            parts.add(layout.linesLeftOut + " lines beyond the first " + MAX_LINES + " are not drawn");
        }
        if (layout.findings.size() > MAX_LISTED_FINDINGS) {
            parts.add((layout.findings.size() - MAX_LISTED_FINDINGS) + " findings beyond the first " + MAX_LISTED_FINDINGS + " are not listed");
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
            element(x, "title", line.findings.stream().map(f -> f.severity().externalName() + " " + f.code().externalName() + ": " + f.message())
                    .collect(Collectors.joining("\n")));
        }
        RailLayout.Route route = layout.rail == null ? onCircle(line) : layout.rail.routes.get(line);
        Point2D a = route.a();
        Point2D q = route.q();
        Point2D b = route.b();
        String d = "M " + num(a.getX()) + " " + num(a.getY()) + " Q " + num(q.getX()) + " " + num(q.getY()) + " " + num(b.getX()) + " " + num(b.getY());
        if (!line.findings.isEmpty()) {
            path(x, "halo", d, HIGHLIGHT, 9, false);
        }
        path(x, "wire", d, colour, line.findings.isEmpty() ? (line.rail == null ? 2 : 3) : 4, line.dashed || line.kind.equals("missing"));
        if (line.fromLabel != null && route.fromLabel() != null) {
            portLabel(x, line.fromPort, line.fromLabel, route.fromLabel());
        }
        if (line.toLabel != null && route.toLabel() != null) {
            portLabel(x, line.toPort, line.toLabel, route.toLabel());
        }
        x.writeEndElement();
    }

    /** @return a line between two nodes of the circle: a quadratic curve bent off the straight line by its place among its pair's lines */
    private RailLayout.Route onCircle(Line line) {
        Point2D a = layout.at.get(line.from);
        Point2D b = layout.at.get(line.to);
        double dx = b.getX() - a.getX();
        double dy = b.getY() - a.getY();
        double length = Math.max(1, Math.hypot(dx, dy));
        double nx = -dy / length;
        double ny = dx / length;
        double bend = line.bend * 14;
        Point2D q = Point2D.of((a.getX() + b.getX()) / 2 + nx * bend * 2, (a.getY() + b.getY()) / 2 + ny * bend * 2);
        double t = Math.min(0.42, 36 / length);
        return new RailLayout.Route(a, q, b, TopologyLayout.bezier(a, q, b, t), TopologyLayout.bezier(a, q, b, 1 - t));
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
        Box2D r = layout.rail.switchBoxes.get(box.key());
        Point2D p = Point2D.of(r.getMinX() + r.getWidth() / 2, r.getMinY() + r.getHeight() / 2);
        String name = clean(box.name());
        x.writeStartElement("g");
        x.writeAttribute("class", box.classes());
        x.writeAttribute("data-switch", name);
        if (box.rail() != null) {
            x.writeAttribute("data-rail", Integer.toString(box.rail()));
        }
        String shown = cut(name, (int) ((r.getWidth() - 8) / RailLayout.CHAR));
        if (!shown.equals(name) || box.rail() == null) {
            element(x, "title", name + (box.rail() == null ? ": no rail, one node reaches it" : ""));
        }
        rect(x, r);
        x.writeAttribute("fill", "#eeeeee");
        x.writeAttribute("stroke", box.rail() == null ? RailColours.NO_RAIL : RailColours.of(box.rail()));
        x.writeAttribute("stroke-width", "2");
        if (box.classes().contains("segment")) {
            x.writeAttribute("stroke-dasharray", "7 5");
        }
        text(x, "name", p.getX(), p.getY() - 2, "middle", shown);
        text(x, "rail", p.getX(), p.getY() + 12, "middle",
                box.rail() == null ? "stray, no rail" : (box.classes().contains("segment") ? "segment, " : "") + "rail " + box.rail());
        x.writeEndElement();
    }

    private void node(XMLStreamWriter x, String node) throws XMLStreamException {
        boolean known = layout.topology.hasNode(node);
        x.writeStartElement("g");
        x.writeAttribute("class", known ? "node" : "node unknown");
        x.writeAttribute("data-node", clean(node));
        if (layout.rail != null) {
            inRow(x, node, known);
            return;
        }
        Point2D p = layout.at.get(node);
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
        double ux = (p.getX() - layout.cx) / layout.radius;
        double uy = (p.getY() - layout.cy) / layout.radius;
        String anchor = ux > 0.2 ? "start" : ux < -0.2 ? "end" : "middle";
        text(x, "label", p.getX() + ux * (NODE_RADIUS + 8), p.getY() + uy * (NODE_RADIUS + 8) + (uy > 0.2 ? 12 : uy < -0.2 ? -4 : 4),
                anchor, node);
        x.writeEndElement();
    }

    /** Ends a node's group of the rail diagram: its box with its name inside, cut to fit with its whole name as its title. */
    private void inRow(XMLStreamWriter x, String node, boolean known) throws XMLStreamException {
        Box2D r = layout.rail.nodeBoxes.get(node);
        String name = clean(node);
        String shown = cut(name, layout.rail.nodeChars);
        if (!known || !shown.equals(name)) {
            element(x, "title", known ? name : node + " has no record: a port names it as its far end");
        }
        rect(x, r);
        x.writeAttribute("fill", "white");
        x.writeAttribute("stroke", "#333333");
        x.writeAttribute("stroke-width", "2");
        if (!known) {
            x.writeAttribute("stroke-dasharray", "5 4");
        }
        text(x, "label", r.getMinX() + r.getWidth() / 2, r.getMinY() + r.getHeight() / 2 + 4, "middle", shown);
        x.writeEndElement();
    }

    /** Starts an empty {@code rect} of the box's bounds, rounded; the caller adds its paint. */
    private static void rect(XMLStreamWriter x, Box2D r) throws XMLStreamException {
        x.writeEmptyElement("rect");
        x.writeAttribute("x", num(r.getMinX()));
        x.writeAttribute("y", num(r.getMinY()));
        x.writeAttribute("width", num(r.getWidth()));
        x.writeAttribute("height", num(r.getHeight()));
        x.writeAttribute("rx", "4");
    }

    /** @return the text, or its first {@code max - 1} characters and "…" when longer than {@code max} */
    private static String cut(String text, int max) {
        int keep = Math.max(1, max);
        return text.codePointCount(0, text.length()) <= keep ? text : text.substring(0, text.offsetByCodePoints(0, Math.max(1, keep - 1))) + "\u2026";
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
