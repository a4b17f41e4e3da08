package io.railmap.matrix.draw;

import io.railmap.matrix.fabric.Rail;
import io.railmap.matrix.fabric.RailNic;
import io.railmap.matrix.fabric.RailTable;
import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.model.NaturalOrder;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.rail.RailAligner;
import io.railmap.matrix.rail.RailOptions;
import io.railmap.matrix.topology.Cable;
import io.railmap.matrix.topology.Topology;
import io.railmap.matrix.topology.Unconfirmed;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.jgrapht.Graph;
import org.jgrapht.alg.drawing.CircularLayoutAlgorithm2D;
import org.jgrapht.alg.drawing.model.Box2D;
import org.jgrapht.alg.drawing.model.LayoutModel2D;
import org.jgrapht.alg.drawing.model.MapLayoutModel2D;
import org.jgrapht.alg.drawing.model.Point2D;
import org.jgrapht.graph.DefaultEdge;
import org.jgrapht.graph.builder.GraphTypeBuilder;

/**
 * What the topology picture holds and where, computed once for {@link TopologySvg} to write: the
 * nodes drawn (the first {@code maxNodes} in name order), the switches and segments of the rail table
 * as boxes, and the lines (cables, unconfirmed observations, NIC links and the stubs of missing rails,
 * at most {@code maxLines}), each with its rail, its bend among its pair's parallel lines and the
 * findings about one of its ends.
 *
 * <p><b>Which layout.</b> A cluster of direct cables only (no switch, segment or stray switch in its
 * rail table) has its nodes on a circle, placed by JGraphT's {@link CircularLayoutAlgorithm2D}. One
 * with a switch, segment or stray switch is drawn as a rail diagram ({@link RailLayout}): switches in a
 * row above the nodes, its direct cables, if any, as arcs under the nodes.
 */
final class TopologyLayout {
    /** Room around the circle of nodes, for port labels and node names. */
    static final double MARGIN = 190;

    /** One line between two points: a cable, an unconfirmed observation or a NIC link. */
    static final class Line {
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
    record Box(String key, String name, String classes, Integer rail) {
    }

    final Topology topology;
    final List<Finding> findings;
    final List<String> nodes;
    final int allNodes;
    final Map<String, Box> boxes = new LinkedHashMap<>();
    final List<Line> lines = new ArrayList<>();
    int linesLeftOut;
    private final int maxLines;
    final Map<String, Point2D> at = new HashMap<>();
    final double radius;
    final double cx;
    final double cy;
    /** The rail diagram's geometry; null when the nodes are on a circle. */
    final RailLayout rail;
    /** The NICs of every node (drawn or not) that reach a switch or segment, each at the end of a cable. */
    int switchCables;
    /** The rail table's switches (stray ones too), segments and rails, drawn or not. */
    int switchCount;
    int segmentCount;
    int railCount;

    TopologyLayout(Topology topology, RailTable rails, List<Finding> findings, int maxNodes, int maxLines) {
        this.maxLines = maxLines;
        this.topology = topology;
        this.findings = List.copyOf(findings);
        List<String> all = vertices(topology);
        this.allNodes = all.size();
        this.nodes = all.stream().limit(maxNodes).toList();
        Set<String> drawn = new HashSet<>(nodes);
        cables(drawn);
        unconfirmed(drawn);
        switches(rails, drawn);
        bends();
        mark();
        missing(drawn);
        radius = Math.max(150, nodes.size() * 56 / (2 * Math.PI));
        cx = MARGIN + radius;
        cy = MARGIN + radius;
        if (boxes.isEmpty()) {
            layout();
            rail = null;
        } else {
            rail = new RailLayout(nodes, boxes, lines);
        }
    }

    private boolean room() {
        if (lines.size() < maxLines) {
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
                    cable.b().toString(), cable.a().netdev(), cable.b().netdev(), k >= 0 ? k : null, false));
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
                    u.from().netdev(), far.netdev(), null, true));
        }
    }

    /** The rails' boxes, and the stray switches' that a drawn node reaches, with their NIC lines; counts them all. */
    private void switches(RailTable rails, Set<String> drawn) {
        switchCables = rails.strays().size();
        railCount = rails.rails().size();
        segmentCount = (int) rails.rails().stream().filter(r -> r.kind() == Rail.Kind.SEGMENT).count();
        switchCount = railCount - segmentCount + new HashSet<>(rails.strays().values()).size();
        for (Rail rail : rails.rails()) {
            switchCables += rail.nics().size();
            String key = "rail:" + rail.id();
            boxes.put(key, new Box(key, rail.name(), rail.kind() == Rail.Kind.SEGMENT ? "switch segment" : "switch", rail.id()));
            for (RailNic nic : rail.nics()) {
                nicLine(drawn, nic, key, rail.name(), rail.id());
            }
        }
        rails.strays().forEach((nic, name) -> {
            if (!drawn.contains(nic.node())) {
                return;
            }
            String key = "stray:" + name;
            boxes.putIfAbsent(key, new Box(key, name, "switch stray", null));
            nicLine(drawn, nic, key, name, null);
        });
    }

    private void nicLine(Set<String> drawn, RailNic nic, String box, String name, Integer rail) {
        if (!drawn.contains(nic.node()) || !room()) {
            return;
        }
        Line line = new Line("nic", "nic " + nic.port(), nic.node(), box, nic.port().toString(), null, nic.port().netdev(),
                nic.switchPort().orElse(null), rail, false);
        line.data.put("data-port", nic.port().toString());
        line.data.put("data-switch", name);
        nic.switchPort().ifPresent(port -> line.data.put("data-switch-port", port));
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

    /**
     * A stub for each rail a drawn node misses ({@link Code#RAIL_MISSING}, its node as
     * {@link RailTable#missingNode} reads it), carrying its findings.
     */
    private void missing(Set<String> drawn) {
        Map<String, Line> stubs = new LinkedHashMap<>();
        for (Finding f : findings) {
            if (f.code() != Code.RAIL_MISSING || f.rail().isEmpty() || !boxes.containsKey("rail:" + f.rail().get())) {
                continue;
            }
            int id = f.rail().get();
            Optional<String> node = RailTable.missingNode(f, nodes);
            if (node.isEmpty() || !drawn.contains(node.get())) {
                continue;
            }
            Line stub = stubs.get(node.get() + " " + id);
            if (stub == null) {
                if (!room()) {
                    continue;
                }
                Box box = boxes.get("rail:" + id);
                stub = new Line("missing", "missing " + node.get() + " " + id, node.get(), box.key(), null, null, null, "missing", id, false);
                stub.data.put("data-node", node.get());
                stub.data.put("data-switch", box.name());
                stubs.put(node.get() + " " + id, stub);
                lines.add(stub);
            }
            stub.findings.add(f);
        }
    }

    /** @return the point at {@code t} (0 to 1) of the quadratic Bézier curve from {@code a} through {@code q} to {@code b} */
    static Point2D bezier(Point2D a, Point2D q, Point2D b, double t) {
        double u = 1 - t;
        return Point2D.of(u * u * a.getX() + 2 * u * t * q.getX() + t * t * b.getX(), u * u * a.getY() + 2 * u * t * q.getY() + t * t * b.getY());
    }

    /** Places the nodes on the circle (no boxes: those are the rail diagram's). */
    private void layout() {
        circle(nodes, radius, Box2D.of(cx - radius, cy - radius, 2 * radius, 2 * radius));
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

    /** @return every node with a record and every node an unconfirmed observation names, in name order */
    private static List<String> vertices(Topology topology) {
        Set<String> all = new TreeSet<>(NaturalOrder.INSTANCE);
        all.addAll(topology.nodes());
        topology.unconfirmed().forEach(u -> u.farEnd().ifPresent(f -> all.add(f.node())));
        return List.copyOf(all);
    }
}
