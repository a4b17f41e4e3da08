package io.railmap.matrix.draw;

import static org.assertj.core.api.Assertions.assertThat;

import io.railmap.matrix.Cluster;
import io.railmap.matrix.check.CheckOptions;
import io.railmap.matrix.check.FileCheck;
import io.railmap.matrix.codec.SnapshotCodec;
import io.railmap.matrix.fabric.RailTable;
import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.finding.Severity;
import io.railmap.matrix.jaccl.MlxVersion;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.model.Snapshot;
import io.railmap.matrix.topology.Topology;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** The SVG parsed back with the JDK's XML parser: what is drawn, with which classes and attributes. */
class TopologySvgTest {
    private static final Path SNAPSHOTS = Path.of("..", "examples", "snapshots");

    private static Topology example(String name) throws Exception {
        return Topology.of(SnapshotCodec.readSnapshot(name, Files.readString(SNAPSHOTS.resolve(name))));
    }

    private static Document parse(String svg) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        factory.setNamespaceAware(true);
        return factory.newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    }

    /** @return the {@code g} elements whose class list holds {@code cls} */
    private static List<Element> groups(Document svg, String cls) {
        List<Element> out = new ArrayList<>();
        NodeList all = svg.getElementsByTagNameNS("http://www.w3.org/2000/svg", "g");
        for (int i = 0; i < all.getLength(); i++) {
            Element e = (Element) all.item(i);
            if (List.of(e.getAttribute("class").split(" ")).contains(cls)) {
                out.add(e);
            }
        }
        return out;
    }

    private static List<String> attribute(List<Element> elements, String name) {
        return elements.stream().map(e -> e.getAttribute(name)).toList();
    }

    /** @return the texts of the port labels inside a group */
    private static List<String> portLabels(Element group) {
        List<String> out = new ArrayList<>();
        NodeList texts = group.getElementsByTagNameNS("http://www.w3.org/2000/svg", "text");
        for (int i = 0; i < texts.getLength(); i++) {
            out.add(texts.item(i).getTextContent());
        }
        return out;
    }

    private static String title(Element group) {
        NodeList titles = group.getElementsByTagNameNS("http://www.w3.org/2000/svg", "title");
        return titles.getLength() == 0 ? "" : titles.item(0).getTextContent();
    }

    @Test
    void theFourStudiosRingShowsEveryNodeAndEveryCableWithBothPortNamesColouredByRail() throws Exception {
        Topology topology = example("four-studios-ring.json");
        String text = TopologySvg.render(topology);
        Document svg = parse(text);
        assertThat(svg.getDocumentElement().getLocalName()).isEqualTo("svg");
        assertThat(attribute(groups(svg, "node"), "data-node")).containsExactly("studio-a", "studio-b", "studio-c", "studio-d");

        List<Element> cables = groups(svg, "cable");
        assertThat(cables).hasSize(topology.cables().size()).hasSize(8);
        assertThat(attribute(cables, "data-cable")).containsExactlyElementsOf(
                topology.cables().stream().map(c -> c.a() + " " + c.b()).toList());
        for (Element cable : cables) {
            String[] ends = cable.getAttribute("data-cable").split(" ");
            assertThat(portLabels(cable)).containsExactly(ends[0].split(":")[1], ends[1].split(":")[1]);
            assertThat(cable.getAttribute("class")).doesNotContain("unconfirmed", "finding");
        }
        // two cables per ring edge: rails 0 and 1 of each pair, in the palette's first two colours
        assertThat(groups(svg, "rail-0")).hasSize(4);
        assertThat(groups(svg, "rail-1")).hasSize(4);
        assertThat(text).contains("stroke=\"" + RailColours.of(0) + "\"", "stroke=\"" + RailColours.of(1) + "\"");
        assertThat(groups(svg, "switch")).isEmpty();
        assertThat(text).as("the same records draw the same picture").isEqualTo(TopologySvg.render(example("four-studios-ring.json")));
    }

    @Test
    void aSwitchedFabricDrawsItsLeavesAsBoxesJoinedToTheirNicsAndMarksTheCrossRailNics() throws Exception {
        Document clean = parse(TopologySvg.render(example("two-leaves.json")));
        assertThat(attribute(groups(clean, "switch"), "data-switch")).containsExactly("leaf-rail0", "leaf-rail1");
        assertThat(attribute(groups(clean, "switch"), "data-rail")).containsExactly("0", "1");
        assertThat(groups(clean, "nic")).hasSize(8);
        assertThat(groups(clean, "rail-0")).extracting(e -> e.getAttribute("data-switch")).containsOnly("leaf-rail0");
        assertThat(groups(clean, "finding")).isEmpty();

        // gpu-01's two NICs swapped between the leaves: cross-rail on both, each marked with its finding
        Document swapped = parse(TopologySvg.render(example("two-leaves-swapped.json")));
        List<Element> marked = groups(swapped, "finding");
        assertThat(attribute(marked, "data-port")).containsExactlyInAnyOrder("gpu-01:enp65s0f0np0", "gpu-01:enp129s0f0np0");
        for (Element nic : marked) {
            assertThat(nic.getAttribute("class")).startsWith("nic ");
            assertThat(title(nic)).startsWith("error cross-rail: " + nic.getAttribute("data-port"));
        }
        assertThat(attribute(groups(swapped, "nic"), "data-port")).contains("gpu-02:enp65s0f0np0", "gpu-04:enp129s0f0np0").hasSize(8);
        NodeList listed = swapped.getElementsByTagNameNS("http://www.w3.org/2000/svg", "text");
        long crossRail = 0;
        for (int i = 0; i < listed.getLength(); i++) {
            Element t = (Element) listed.item(i);
            if (t.getAttribute("data-code").equals("cross-rail")) {
                crossRail++;
                assertThat(t.getAttribute("class")).isEqualTo("finding error");
            }
        }
        assertThat(crossRail).isEqualTo(2);
    }

    @Test
    void aCrossedDevicesFileMarksBothCablesItMixesUpWithTheFindingAsTheirTitle() throws Exception {
        Snapshot snapshot = SnapshotCodec.readSnapshot("two-macs-crossed.json", Files.readString(SNAPSHOTS.resolve("two-macs-crossed.json")));
        Topology topology = Topology.of(snapshot);
        List<Finding> findings = FileCheck.check(snapshot, "devices.json", Files.readString(SNAPSHOTS.resolve("two-macs-crossed-wrong-devices.json")),
                new CheckOptions(Optional.of(List.of("studio-a", "studio-b")), Optional.empty(), "--hosts", "--mode", MlxVersion.NEWEST)).findings();
        assertThat(findings).extracting(Finding::code).contains(Code.MISMATCHED_RAIL);

        Document svg = parse(TopologySvg.render(topology, RailTable.of(topology), findings));
        List<Element> cables = groups(svg, "cable");
        assertThat(cables).hasSize(2).allSatisfy(c -> {
            assertThat(c.getAttribute("class")).contains("finding");
            assertThat(title(c)).contains("error mismatched-rail:", "ends of two different cables");
        });
        // the outline is drawn under the wire
        assertThat(svg.getElementsByTagNameNS("http://www.w3.org/2000/svg", "path").getLength()).isEqualTo(4);
    }

    @Test
    void aOneSidedObservationIsDashedAndItsUnknownFarNodeDrawn() throws Exception {
        Topology topology = Topology.of(new Cluster().cable("a:en6", "b:en7").oneSided("a:en7", "c:en1").snapshot());
        Document svg = parse(TopologySvg.render(topology));
        assertThat(attribute(groups(svg, "unconfirmed"), "data-cable")).containsExactly("a:en7 c:en1");
        assertThat(groups(svg, "unconfirmed").get(0).getAttribute("class")).isEqualTo("cable no-rail unconfirmed finding");
        assertThat(title(groups(svg, "unconfirmed").get(0))).contains("warning unconfirmed-cable: a:en7 observed c:en1");
        assertThat(attribute(groups(svg, "node"), "data-node")).containsExactly("a", "b", "c");
    }

    @Test
    void namesThatLookLikeMarkupAreWrittenAsText() throws Exception {
        Topology topology = Topology.of(new Cluster().cable("<b>&\"x:en6", "y'<:en7").snapshot());
        Document svg = parse(TopologySvg.render(topology));
        assertThat(attribute(groups(svg, "node"), "data-node")).containsExactly("<b>&\"x", "y'<");
        assertThat(attribute(groups(svg, "cable"), "data-cable")).containsExactly("<b>&\"x:en6 y'<:en7");
        assertThat(TopologySvg.clean("a\u0001b\uD800c")).isEqualTo("a\uFFFDb\uFFFDc");
    }

    @Test
    void aClusterOfTwoThousandNodesIsCappedAndSaysSo() throws Exception {
        Cluster ring = new Cluster();
        int n = 2000;
        for (int i = 0; i < n; i++) {
            ring.cable(String.format("n%04d:en2", i), String.format("n%04d:en3", (i + 1) % n));
        }
        Topology topology = Topology.of(ring.snapshot());
        String text = TopologySvg.render(topology);
        Document svg = parse(text);
        assertThat(groups(svg, "node")).hasSize(TopologySvg.MAX_NODES);
        assertThat(svg.getDocumentElement().getAttribute("data-nodes")).isEqualTo("2000");
        assertThat(text).contains("2000 nodes: the first 256 in name order are drawn");
        // cables among the drawn nodes only: the ring's first 255 edges
        assertThat(groups(svg, "cable")).hasSize(TopologySvg.MAX_NODES - 1);
        assertThat(text.length()).isLessThan(1 << 20);
    }

    @Test
    void aFindingMarksTheLinesOfItsPortsWhateverItsSentenceSays() throws Exception {
        Topology topology = Topology.of(new Cluster().cable("a:en6", "b:en7").cable("a:en8", "b:en9").snapshot());
        // only a finding's ports say what it is about: a reworded sentence still marks b:en9's cable, and a
        // sentence that names a:en6 marks nothing when its finding carries no port
        Finding f = new Finding(Code.LINK_DOWN, Severity.ERROR, List.of(), Optional.empty(), List.of(PortRef.parse("b:en9")), "reworded");
        Finding named = new Finding(Code.LINK_DOWN, Severity.ERROR, List.of(), Optional.empty(), "a:en6 is down");

        Document svg = parse(TopologySvg.render(topology, RailTable.of(topology), List.of(f, named)));

        assertThat(attribute(groups(svg, "finding"), "data-cable")).containsExactly("a:en8 b:en9");
    }
}
