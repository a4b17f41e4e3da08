package io.railmap.matrix.draw;

import static org.assertj.core.api.Assertions.assertThat;

import io.railmap.matrix.check.CableFindings;
import io.railmap.matrix.fabric.Fabric;
import io.railmap.matrix.fabric.RailTable;
import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.model.PortState;
import io.railmap.matrix.model.Snapshot;
import io.railmap.matrix.topology.Topology;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPath;
import javax.xml.xpath.XPathConstants;
import javax.xml.xpath.XPathFactory;
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The rail diagram's geometry, read back from the SVG with the JDK's DOM and XPath: for generated
 * rail-optimised fabrics of 2 to 64 nodes and 1 to 8 rails, with cross-rail NICs, missing rails,
 * stray switches and direct cables mixed in, no two node or switch boxes overlap, every NIC line
 * starts on its node's box and ends on its switch's box, and the header counts what was made.
 */
class RailDiagramTest {
    /** Coordinates are written with one decimal. */
    private static final double ROUNDING = 0.051;

    /** A box's bounds as written: {@code <rect x y width height>}. */
    private record Rect(String what, double x, double y, double w, double h) {
        boolean overlaps(Rect o) {
            return x < o.x + o.w && o.x < x + w && y < o.y + o.h && o.y < y + h;
        }

        boolean holds(double px, double py) {
            return px >= x - ROUNDING && px <= x + w + ROUNDING && py >= y - ROUNDING && py <= y + h + ROUNDING;
        }
    }

    /** What a generated fabric was made with, counted by the generator, not by railmap. */
    private static final class Made {
        final Fabric fabric;
        final int nodes;
        /** Each leaf's nodes, as cabled. */
        final Map<String, Set<String>> leaves = new TreeMap<>();
        final Map<String, String> leafOf = new HashMap<>();
        final Set<String> crossed = new HashSet<>();
        /** node and rail of each NIC taken down, {@code g3 1}. */
        final Set<String> down = new HashSet<>();
        int direct;

        Made(int nodes, int rails) {
            this.nodes = nodes;
            this.fabric = Fabric.railOptimised(nodes, rails);
            for (int n = 1; n <= nodes; n++) {
                for (int k = 0; k < rails; k++) {
                    cabled("g" + n + ":eth" + k, "leaf" + k);
                }
            }
        }

        void cabled(String port, String leaf) {
            String was = leafOf.put(port, leaf);
            if (was != null) {
                leaves.get(was).remove(port.split(":")[0]);
            }
            leaves.computeIfAbsent(leaf, l -> new HashSet<>()).add(port.split(":")[0]);
        }

        void move(String port, String leaf) {
            fabric.move(port, leaf);
            cabled(port, leaf);
        }

        Topology topology() {
            return Topology.of(new Snapshot(fabric.records()));
        }
    }

    /** Rail-optimised, then a few NICs swapped between leaves, taken down, moved to a leaf of their own, and direct cables added. */
    private static Made generate(long seed) {
        Random random = new Random(seed);
        int nodes = 2 + random.nextInt(63);
        int rails = 1 + random.nextInt(8);
        Made made = new Made(nodes, rails);
        if (rails >= 2 && random.nextBoolean()) {
            // one node's NICs of two rails swapped: cross-rail on both, when the other nodes outnumber it
            int n = 1 + random.nextInt(nodes);
            int a = random.nextInt(rails);
            int b = (a + 1 + random.nextInt(rails - 1)) % rails;
            made.move("g" + n + ":eth" + a, "leaf" + b);
            made.move("g" + n + ":eth" + b, "leaf" + a);
            made.crossed.add("g" + n + ":eth" + a);
            made.crossed.add("g" + n + ":eth" + b);
        }
        if (random.nextBoolean()) {
            // a NIC taken down: its node misses that rail
            int n = 1 + random.nextInt(nodes);
            int k = random.nextInt(rails);
            String port = "g" + n + ":eth" + k;
            if (!made.crossed.contains(port)) {
                made.fabric.change(port, p -> p.withState(PortState.DOWN));
                made.leaves.get(made.leafOf.remove(port)).remove("g" + n);
                made.down.add("g" + n + " " + k);
            }
        }
        if (random.nextBoolean()) {
            // a NIC cabled to a switch no other node reaches: a stray
            int n = 1 + random.nextInt(nodes);
            String port = "g" + n + ":eth" + random.nextInt(rails);
            if (!made.crossed.contains(port) && made.leafOf.containsKey(port)) {
                made.move(port, "leaf" + (20 + random.nextInt(10)));
            }
        }
        int cables = random.nextInt(4);
        for (int i = 0; i < cables && nodes >= 2; i++) {
            // a direct cable between two nodes on NICs of their own (eth8, eth9, ...): a mixed cluster
            int a = 1 + random.nextInt(nodes);
            int b = 1 + (a + random.nextInt(nodes - 1)) % nodes;
            made.fabric.directCable("g" + a + ":eth" + (8 + i), "g" + b + ":eth" + (8 + i), name -> name, true);
            made.direct++;
        }
        return made;
    }

    private static Document parse(String svg) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return factory.newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    }

    private static List<Element> all(Document svg, String xpath) throws Exception {
        XPath x = XPathFactory.newInstance().newXPath();
        NodeList found = (NodeList) x.evaluate(xpath, svg, XPathConstants.NODESET);
        List<Element> out = new ArrayList<>();
        for (int i = 0; i < found.getLength(); i++) {
            out.add((Element) found.item(i));
        }
        return out;
    }

    /** @return the {@code g} elements whose class list holds {@code cls} */
    private static List<Element> groups(Document svg, String cls) throws Exception {
        return all(svg, "//*[local-name()='g'][contains(concat(' ', @class, ' '), ' " + cls + " ')]");
    }

    private static Rect rect(Element group, String what) {
        Element r = (Element) group.getElementsByTagName("rect").item(0);
        return new Rect(what, Double.parseDouble(r.getAttribute("x")), Double.parseDouble(r.getAttribute("y")),
                Double.parseDouble(r.getAttribute("width")), Double.parseDouble(r.getAttribute("height")));
    }

    /** @return the line's wire's path, {@code M x1 y1 Q qx qy x2 y2}, as its numbers {x1, y1, qx, qy, x2, y2} */
    private static double[] wire(Element line) {
        NodeList paths = line.getElementsByTagName("path");
        for (int i = 0; i < paths.getLength(); i++) {
            Element path = (Element) paths.item(i);
            if (path.getAttribute("class").equals("wire")) {
                String[] d = path.getAttribute("d").split(" ");
                assertThat(d).hasSize(8);
                assertThat(d[0] + d[3]).isEqualTo("MQ");
                return new double[] {Double.parseDouble(d[1]), Double.parseDouble(d[2]), Double.parseDouble(d[4]), Double.parseDouble(d[5]),
                        Double.parseDouble(d[6]), Double.parseDouble(d[7])};
            }
        }
        throw new AssertionError("no wire in " + line.getAttribute("class"));
    }

    private static String title(Element line) {
        NodeList titles = line.getElementsByTagName("title");
        return titles.getLength() == 0 ? "" : titles.item(0).getTextContent();
    }

    @RepeatedTest(25)
    void noBoxesOverlapEveryNicLineRunsFromItsNodeToItsSwitchAndTheHeaderCountsWhatWasMade(RepetitionInfo repetition) throws Exception {
        long seed = 29_000 + repetition.getCurrentRepetition();
        Made made = generate(seed);
        Topology topology = made.topology();
        RailTable table = RailTable.of(topology);
        List<Finding> findings = CableFindings.of(topology, table);
        Document svg = parse(TopologySvg.render(topology, table, findings));
        String as = "seed " + seed + ", " + made.nodes + " nodes, leaves " + made.leaves;

        Map<String, Rect> nodes = new HashMap<>();
        Map<String, Rect> switches = new HashMap<>();
        List<Rect> boxes = new ArrayList<>();
        for (Element g : groups(svg, "node")) {
            Rect r = rect(g, "node " + g.getAttribute("data-node"));
            nodes.put(g.getAttribute("data-node"), r);
            boxes.add(r);
        }
        for (Element g : groups(svg, "switch")) {
            Rect r = rect(g, "switch " + g.getAttribute("data-switch"));
            switches.put(g.getAttribute("data-switch"), r);
            boxes.add(r);
        }
        assertThat(nodes).as(as).hasSize(made.nodes);
        for (int i = 0; i < boxes.size(); i++) {
            for (int j = i + 1; j < boxes.size(); j++) {
                assertThat(boxes.get(i).overlaps(boxes.get(j))).as("%s: %s and %s overlap", as, boxes.get(i), boxes.get(j)).isFalse();
            }
        }

        List<Element> nics = groups(svg, "nic");
        assertThat(nics).as(as).hasSize(made.leafOf.size());
        for (Element nic : nics) {
            String port = nic.getAttribute("data-port");
            assertThat(nic.getAttribute("data-switch")).as(as).isEqualTo(made.leafOf.get(port));
            double[] e = wire(nic);
            assertThat(nodes.get(port.split(":")[0]).holds(e[0], e[1])).as("%s: %s starts on its node's box", as, port).isTrue();
            assertThat(switches.get(made.leafOf.get(port)).holds(e[4], e[5])).as("%s: %s ends on its switch's box", as, port).isTrue();
            // marked when a finding names its port; a swapped or stray NIC is cross-rail when three other nodes agree where it belongs
            assertThat(nic.getAttribute("class").contains("finding")).as("%s: %s is marked", as, port)
                    .isEqualTo(findings.stream().anyMatch(f -> f.ports().stream().anyMatch(p -> p.toString().equals(port))));
            if (made.nodes >= 4 && (made.crossed.contains(port) || made.leaves.get(made.leafOf.get(port)).size() == 1)) {
                assertThat(nic.getAttribute("class")).as(as).contains("finding");
                assertThat(title(nic)).as(as).contains("error cross-rail: " + port);
            }
        }

        // the header: what the generator made, counted by the generator
        long rails = made.leaves.values().stream().filter(n -> n.size() >= 2).count();
        long reached = made.leaves.values().stream().filter(n -> !n.isEmpty()).count();
        int cables = made.leafOf.size() + made.direct;
        Element root = svg.getDocumentElement();
        assertThat(List.of(root.getAttribute("data-nodes"), root.getAttribute("data-cables"), root.getAttribute("data-switches"),
                root.getAttribute("data-rails"))).as(as).containsExactly(Integer.toString(made.nodes), Integer.toString(cables),
                Long.toString(reached), Long.toString(rails));
        String caption = all(svg, "//*[local-name()='text'][@class='caption']").get(0).getTextContent();
        assertThat(caption).as(as).startsWith("railmap topology: " + made.nodes + " nodes, " + cables + " cables"
                + (made.direct > 0 ? " (" + made.direct + " node to node, " + made.leafOf.size() + " to a switch)" : "")
                + ", " + reached + (reached == 1 ? " switch, " : " switches, ") + rails + (rails == 1 ? " rail, " : " rails, "));

        // direct cables drawn as arcs under the node row
        List<Element> arcs = groups(svg, "cable");
        assertThat(arcs).as(as).hasSize(made.direct);
        for (Element arc : arcs) {
            double[] d = wire(arc);
            String[] ends = arc.getAttribute("data-cable").split(" ");
            Rect a = nodes.get(ends[0].split(":")[0]);
            Rect b = nodes.get(ends[1].split(":")[0]);
            assertThat(a.holds(d[0], d[1]) && d[1] >= a.y + a.h - ROUNDING).as("%s: %s leaves its node's bottom edge", as, ends[0]).isTrue();
            assertThat(b.holds(d[4], d[5]) && d[5] >= b.y + b.h - ROUNDING).as("%s: %s reaches its node's bottom edge", as, ends[1]).isTrue();
            assertThat(d[3]).as("%s: %s bends down, under the node row", as, arc.getAttribute("data-cable")).isGreaterThan(a.y + a.h);
        }

        // each missing rail a stub from its node, marked with its finding
        for (Finding f : findings) {
            if (f.code() == Code.RAIL_MISSING) {
                List<Element> stub = all(svg, "//*[local-name()='g'][contains(@class, 'missing')][@data-rail='" + f.rail().orElseThrow() + "']");
                assertThat(stub).as(as + ": " + f.message()).anySatisfy(g -> {
                    assertThat(f.message()).startsWith(g.getAttribute("data-node") + " has no active NIC");
                    assertThat(g.getAttribute("class")).contains("finding");
                });
            }
        }
        for (String down : made.down) {
            String[] nodeRail = down.split(" ");
            String leaf = "leaf" + nodeRail[1];
            // RailFindings' rule: a node still on the fabric misses a rail more than half of the fabric's nodes reach
            Set<String> onFabric = new HashSet<>();
            made.leaves.values().forEach(onFabric::addAll);
            if (onFabric.contains(nodeRail[0]) && made.leaves.get(leaf).size() * 2 > onFabric.size()) {
                assertThat(all(svg, "//*[local-name()='g'][contains(@class, 'missing')][@data-node='" + nodeRail[0] + "']"))
                        .as("%s: %s's missing rail is drawn", as, down).isNotEmpty();
            }
        }
    }

    @Test
    void aFabricOfTwoThousandNodesDrawsItsFirst256AndCountsThemAll() throws Exception {
        Made made = new Made(2000, 2);
        // a node beyond the first 256 in name order with a NIC on a switch of its own: counted, not drawn
        made.move("g999:eth1", "leaf30");
        String text = TopologySvg.render(made.topology());
        Document svg = parse(text);
        assertThat(groups(svg, "node")).hasSize(TopologySvg.MAX_NODES);
        assertThat(attributes(groups(svg, "switch"), "data-switch")).containsExactly("leaf0", "leaf1");
        assertThat(groups(svg, "nic")).hasSize(TopologySvg.MAX_NODES * 2);
        assertThat(text).contains("railmap topology: 2000 nodes, 4000 cables, 3 switches, 2 rails, ",
                "2000 nodes: the first 256 in name order are drawn");
        assertThat(text.length()).isLessThan(1 << 20);
    }

    private static List<String> attributes(List<Element> elements, String name) {
        return elements.stream().map(e -> e.getAttribute(name)).toList();
    }

    @Test
    void aClusterOfDirectCablesOnlyKeepsTheCircle() throws Exception {
        Made made = new Made(2, 0);
        made.fabric.directCable("g1:eth0", "g2:eth0", name -> name, true);
        Document svg = parse(TopologySvg.render(made.topology()));
        assertThat(all(svg, "//*[local-name()='circle']")).hasSize(2);
        assertThat(groups(svg, "switch")).isEmpty();
        assertThat(svg.getDocumentElement().getAttribute("data-rails")).isEmpty();
    }

    @Test
    void sixtyFourNodesOnEightRailsWidenTheViewBoxAndKeepTheirNamesWhole() throws Exception {
        Made made = new Made(64, 8);
        Document svg = parse(TopologySvg.render(made.topology()));
        String[] box = svg.getDocumentElement().getAttribute("viewBox").split(" ");
        assertThat(Double.parseDouble(box[2])).isGreaterThan(64 * 56);
        assertThat(all(svg, "//*[local-name()='g'][contains(@class, 'node')]/*[local-name()='text']"))
                .extracting(Element::getTextContent).contains("g1", "g64").hasSize(64);
        assertThat(groups(svg, "nic")).hasSize(64 * 8);
        assertThat(groups(svg, "finding")).isEmpty();
    }
}
