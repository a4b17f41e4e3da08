package io.railmap.matrix.draw;

import io.railmap.matrix.draw.TopologyLayout.Box;
import io.railmap.matrix.draw.TopologyLayout.Line;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jgrapht.alg.drawing.model.Box2D;
import org.jgrapht.alg.drawing.model.Point2D;

/**
 * Where the rail diagram puts things: the layout {@link TopologyLayout} chooses when the rail table has
 * a switch or segment (a cluster of direct cables only keeps the circle). Reads like a rail-optimised
 * fabric's cabling sheet:
 * <ul>
 * <li>the switches and segments in one row at the top, in rail id order, then the stray switches (no
 *     rail: one node reaches them), each a box as wide as its name (110 to 260 px);</li>
 * <li>the nodes in one row below, in name order, each a box with its name inside (a name too long for
 *     the box is cut with "…", whole in its tooltip);</li>
 * <li>each NIC a straight line from the top edge of its node's box to the bottom edge of its switch's
 *     box: a node's lines leave its top edge in the order of their switches, left to right, and a
 *     switch's lines arrive along its bottom edge in the order of their nodes, so that the lines of
 *     one node and of one switch never cross each other; the netdev is written on the line at one of
 *     eight heights by its place on the node (when it is narrower than a node's room in the row, so the
 *     labels of two nodes do not run into each other; else it is in {@code data-port}), and the switch port near the switch at one of four
 *     heights when the switch's edge leaves room for it (else the port is in {@code data-switch-port});</li>
 * <li>a rail a node misses ({@code rail-missing}) a short dashed stub from its node towards that
 *     rail's switch, ending in "missing", outlined in red with the finding as its tooltip;</li>
 * <li>the direct cables and unconfirmed observations of a mixed cluster as arcs <em>below</em> the
 *     node row, from the bottom edge of one node's box to the other's, deeper for nodes further apart
 *     (24 + 16·√(places apart) px, plus 10 px per parallel cable), so they never cross a NIC line and
 *     the two kinds of link read apart.</li>
 * </ul>
 *
 * <p><b>Wide fabrics.</b> The rows never wrap: a node row's line to a switch would cross the boxes of
 * the rows above it. The viewBox widens instead: each node takes its name's width (7 px a character,
 * 56 to 144 px, plus 16 px between boxes), so 64 nodes of names like {@code g17} are about 4,700 px
 * wide and the switches spread over the same width. {@code railmap draw}'s file opens at that size
 * (a viewer scrolls); the page fits it to its pane and zooms (d3) for reading.
 *
 * <p><b>No overlap.</b> Switch boxes are at least 12 px apart (the row is widened to hold them with
 * 24 px gaps, and any room to spare shared between them); node boxes are 16 px apart; the node row is
 * {@value #RISE} px under the switch row.
 *
 * <p>Cost: O(lines · log lines).
 */
final class RailLayout {
    /** Room on the left and right of the rows. */
    static final double SIDE = 40;
    /** The top of the switch row, under the caption and the cap sentence. */
    static final double SWITCH_TOP = 64;
    static final double SWITCH_HEIGHT = 36;
    static final double NODE_HEIGHT = 30;
    /** From the switch row's bottom to the node row's top: room for the NIC lines' staggered labels. */
    static final double RISE = 230;
    /** The least room between two switch boxes when the switch row is the wider. */
    static final double SWITCH_GAP = 24;
    /** Between two node boxes. */
    static final double NODE_GAP = 16;
    /** The width of one character of the 12 px sans-serif names, about. */
    static final double CHAR = 7;
    /** The width of one character of the 10 px port labels, about. */
    static final double SMALL_CHAR = 6;

    /** A line's curve (from {@code a} through control point {@code q} to {@code b}) and where its labels go (null: none). */
    record Route(Point2D a, Point2D q, Point2D b, Point2D fromLabel, Point2D toLabel) {
    }

    final Map<String, Box2D> nodeBoxes = new LinkedHashMap<>();
    final Map<String, Box2D> switchBoxes = new LinkedHashMap<>();
    final Map<Line, Route> routes = new IdentityHashMap<>();
    /** The most characters of a node's name its box holds. */
    final int nodeChars;
    /** The room of one node in its row: its box and the gap to the next. */
    final double pitch;
    /** The picture's width, and the height down to the lowest arc's labels. */
    final double width;
    final double height;

    /**
     * @param nodes the nodes drawn, in row order
     * @param boxes the switches, segments and stray switches drawn, in row order
     * @param lines the lines among them: {@code nic} and {@code missing} from a node to a box key,
     *              {@code cable} between two nodes
     */
    RailLayout(List<String> nodes, Map<String, Box> boxes, List<Line> lines) {
        int longest = nodes.stream().mapToInt(n -> TopologySvg.clean(n).length()).max().orElse(1);
        double nodeWidth = Math.min(144, Math.max(56, CHAR * longest + 16));
        nodeChars = (int) ((nodeWidth - 8) / CHAR);
        double switchRow = 0;
        for (Box box : boxes.values()) {
            switchRow += boxWidth(box.name());
        }
        double content = Math.max(600, Math.max(nodes.size() * (nodeWidth + NODE_GAP), switchRow + SWITCH_GAP * (boxes.size() - 1)));
        width = content + 2 * SIDE;

        double spare = (content - switchRow) / Math.max(1, boxes.size());
        double x = SIDE + spare / 2;
        for (Box box : boxes.values()) {
            double w = boxWidth(box.name());
            switchBoxes.put(box.key(), Box2D.of(x, SWITCH_TOP, w, SWITCH_HEIGHT));
            x += w + spare;
        }
        double nodeTop = SWITCH_TOP + SWITCH_HEIGHT + RISE;
        pitch = content / Math.max(1, nodes.size());
        for (int i = 0; i < nodes.size(); i++) {
            nodeBoxes.put(nodes.get(i), Box2D.of(SIDE + pitch * (i + 0.5) - nodeWidth / 2, nodeTop, nodeWidth, NODE_HEIGHT));
        }
        up(lines);
        height = nodeTop + NODE_HEIGHT + down(lines, nodes) + 36;
    }

    /** @return the width of a switch box: its name's, 110 to 260 px (room for "segment, rail 0" under it) */
    static double boxWidth(String name) {
        return Math.min(260, Math.max(110, CHAR * TopologySvg.clean(name).length() + 20));
    }

    private static double centre(Box2D box) {
        return box.getMinX() + box.getWidth() / 2;
    }

    /** Routes the NIC lines and missing-rail stubs, from the nodes' top edges up to the switches. */
    private void up(List<Line> lines) {
        Map<String, List<Line>> byNode = new HashMap<>();
        Map<String, List<Line>> byBox = new HashMap<>();
        for (Line line : lines) {
            if (!line.kind.equals("cable")) {
                byNode.computeIfAbsent(line.from, n -> new ArrayList<>()).add(line);
                if (line.kind.equals("nic")) {
                    byBox.computeIfAbsent(line.to, b -> new ArrayList<>()).add(line);
                }
            }
        }
        Map<Line, Double> atNode = new IdentityHashMap<>();
        Map<Line, Integer> levelAtNode = new IdentityHashMap<>();
        byNode.forEach((node, out) -> {
            Box2D box = nodeBoxes.get(node);
            out.sort(Comparator.<Line>comparingDouble(l -> centre(switchBoxes.get(l.to))).thenComparing(l -> l.key));
            for (int i = 0; i < out.size(); i++) {
                atNode.put(out.get(i), box.getMinX() + box.getWidth() * (i + 0.5) / out.size());
                levelAtNode.put(out.get(i), i % 8);
            }
        });
        Map<Line, Point2D> atBox = new IdentityHashMap<>();
        Map<Line, Point2D> toLabel = new IdentityHashMap<>();
        byBox.forEach((key, in) -> {
            Box2D box = switchBoxes.get(key);
            in.sort(Comparator.<Line>comparingDouble(l -> atNode.get(l)).thenComparing(l -> l.key));
            double slot = (box.getWidth() - 12) / in.size();
            double bottom = box.getMinY() + box.getHeight();
            for (int i = 0; i < in.size(); i++) {
                Line line = in.get(i);
                Point2D b = Point2D.of(box.getMinX() + 6 + slot * (i + 0.5), bottom);
                atBox.put(line, b);
                if (line.toLabel != null && slot * 4 >= SMALL_CHAR * TopologySvg.clean(line.toLabel).length() + 4) {
                    toLabel.put(line, along(Point2D.of(atNode.get(line), nodeBoxes.get(line.from).getMinY()), b, bottom + 14 + 12 * (i % 4)));
                }
            }
        });
        for (Map.Entry<Line, Double> e : atNode.entrySet()) {
            Line line = e.getKey();
            Point2D a = Point2D.of(e.getValue(), nodeBoxes.get(line.from).getMinY());
            Box2D target = switchBoxes.get(line.to);
            if (line.kind.equals("missing")) {
                Point2D aim = Point2D.of(centre(target), target.getMinY() + target.getHeight());
                Point2D b = Point2D.of(a.getX() + 0.4 * (aim.getX() - a.getX()), a.getY() + 0.4 * (aim.getY() - a.getY()));
                routes.put(line, new Route(a, middle(a, b), b, null, Point2D.of(b.getX(), b.getY() - 8)));
            } else {
                Point2D b = atBox.get(line);
                // the netdev label when it fits between the lines of two neighbouring nodes, which run about a pitch apart
                boolean fits = SMALL_CHAR * TopologySvg.clean(line.fromLabel).length() + 8 <= pitch;
                routes.put(line, new Route(a, middle(a, b), b, fits ? along(a, b, a.getY() - 16 - 13 * levelAtNode.get(line)) : null,
                        toLabel.get(line)));
            }
        }
    }

    /**
     * Routes the direct cables and unconfirmed observations as arcs under the node row.
     *
     * @return the deepest arc's depth under the node row
     */
    private double down(List<Line> lines, List<String> nodes) {
        Map<String, Integer> place = new HashMap<>();
        nodes.forEach(n -> place.put(n, place.size()));
        // each end of each cable, by node; a cable between two ports of one node has both ends there
        Map<String, List<Line>> ends = new HashMap<>();
        for (Line line : lines) {
            if (line.kind.equals("cable")) {
                ends.computeIfAbsent(line.from, n -> new ArrayList<>()).add(line);
                ends.computeIfAbsent(line.to, n -> new ArrayList<>()).add(line);
            }
        }
        Map<Line, Double> fromX = new IdentityHashMap<>();
        Map<Line, Double> toX = new IdentityHashMap<>();
        ends.forEach((node, at) -> {
            Box2D box = nodeBoxes.get(node);
            at.sort(Comparator.<Line>comparingInt(l -> place.get(l.from.equals(node) ? l.to : l.from)).thenComparing(l -> l.key));
            for (int i = 0; i < at.size(); i++) {
                Line line = at.get(i);
                double x = box.getMinX() + box.getWidth() * (i + 0.5) / at.size();
                (line.from.equals(node) && !fromX.containsKey(line) ? fromX : toX).put(line, x);
            }
        });
        double deepest = 0;
        for (Line line : lines) {
            if (!line.kind.equals("cable")) {
                continue;
            }
            double bottom = nodeBoxes.get(line.from).getMinY() + NODE_HEIGHT;
            Point2D a = Point2D.of(fromX.get(line), bottom);
            Point2D b = Point2D.of(toX.get(line), bottom);
            double depth = 24 + 16 * Math.sqrt(Math.abs(place.get(line.from) - place.get(line.to))) + 10 * ((line.bend + line.bends - 1) / 2);
            deepest = Math.max(deepest, depth);
            // a quadratic curve reaches half way to its control point
            Point2D q = Point2D.of((a.getX() + b.getX()) / 2, bottom + 2 * depth);
            double t = Math.min(0.3, 34 / (Math.abs(b.getX() - a.getX()) + 2 * depth));
            routes.put(line, new Route(a, q, b, TopologyLayout.bezier(a, q, b, t), TopologyLayout.bezier(a, q, b, 1 - t)));
        }
        return deepest;
    }

    private static Point2D middle(Point2D a, Point2D b) {
        return Point2D.of((a.getX() + b.getX()) / 2, (a.getY() + b.getY()) / 2);
    }

    /** @return the point of the straight line from {@code a} to {@code b} at height {@code y} */
    private static Point2D along(Point2D a, Point2D b, double y) {
        double t = (y - a.getY()) / (b.getY() - a.getY());
        return Point2D.of(a.getX() + (b.getX() - a.getX()) * t, y);
    }
}
