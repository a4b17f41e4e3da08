package io.railmap.matrix.topology;

import io.railmap.matrix.jaccl.MlxVersion;
import static org.assertj.core.api.Assertions.assertThat;

import io.railmap.matrix.Cluster;
import io.railmap.matrix.SentencePorts;
import io.railmap.matrix.fabric.RailTable;
import io.railmap.matrix.finding.Code;
import io.railmap.matrix.model.Infiniband;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.model.PortState;
import io.railmap.matrix.model.Snapshot;
import io.railmap.matrix.model.Thunderbolt;
import io.railmap.matrix.plan.Order;
import io.railmap.matrix.plan.Plan;
import io.railmap.matrix.plan.Planner;
import io.railmap.matrix.rail.RailOptions;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TopologyTest {

    @Test
    void bothEndsObservingEachOtherMakeOneCable() {
        Topology t = Topology.of(new Cluster().cable("a:en6", "b:en7").cable("a:en7", "b:en6").snapshot());

        assertThat(t.cables()).containsExactly(
                new Cable(PortRef.parse("a:en6"), PortRef.parse("b:en7")),
                new Cable(PortRef.parse("a:en7"), PortRef.parse("b:en6")));
        assertThat(t.graph().getAllEdges("a", "b")).hasSize(2);
        assertThat(t.cableAt(PortRef.parse("b:en6")).orElseThrow().farEnd(PortRef.parse("b:en6")))
                .isEqualTo(PortRef.parse("a:en7"));
        assertThat(t.unconfirmed()).isEmpty();
    }

    @Test
    void theTopologyGivesEachNodesRecord() {
        NodeRecord c = new NodeRecord("c", 7, List.of(), Optional.of("10.0.0.3"), Optional.of(false));
        Snapshot snapshot = new Snapshot(List.of(c, new Cluster().cable("a:en6", "b:en7").snapshot().records().get(0)));

        Topology t = Topology.of(snapshot);

        assertThat(t.record("c")).contains(c);
        assertThat(t.record("a").orElseThrow().ports()).extracting(Port::netdev).containsExactly("en6");
        assertThat(t.record("b")).isEmpty();
    }

    @Test
    void identicalParallelCablesStayTwoEdges() {
        Topology t = Topology.of(new Cluster().cable("a:p0", "b:p0").cable("a:p1", "b:p1").snapshot());
        assertThat(t.cablesBetween("b", "a")).hasSize(2);
    }

    @Test
    void aOneSidedObservationIsUnconfirmedAndNoEdge() {
        Topology t = Topology.of(new Cluster().cable("a:en1", "b:en1").oneSided("a:en2", "b:en2").snapshot());

        assertThat(t.cables()).hasSize(1);
        assertThat(t.unconfirmed()).singleElement().satisfies(u -> {
            assertThat(u.from()).isEqualTo(PortRef.parse("a:en2"));
            assertThat(u.farEnd()).contains(PortRef.parse("b:en2"));
            assertThat(u.reason()).contains("b reports no port en2");
        });
    }

    @Test
    void aFarEndThatHeardSomeoneElseIsNotACable() {
        Topology t = Topology.of(new Cluster().hears("a:en1", "b:en1").hears("b:en1", "c:en1").hears("c:en1", "b:en1")
                .snapshot());

        assertThat(t.cables()).containsExactly(new Cable(PortRef.parse("b:en1"), PortRef.parse("c:en1")));
        assertThat(t.unconfirmed()).singleElement().satisfies(u -> {
            assertThat(u.reason()).isEqualTo("b:en1 observed c:en1 instead");
            assertThat(u.named()).containsExactly(PortRef.parse("b:en1"), PortRef.parse("c:en1"));
        });
        Plan plan = Planner.plan(t, List.of("a", "b", "c"), Order.GIVEN, RailOptions.DEFAULTS, MlxVersion.NEWEST);
        assertThat(plan.findings()).filteredOn(f -> f.code() == Code.UNCONFIRMED_CABLE).singleElement()
                .satisfies(f -> assertThat(f.ports()).containsExactly(PortRef.parse("a:en1"), PortRef.parse("b:en1"), PortRef.parse("c:en1")));
        SentencePorts.assertCarried(plan.findings(), t);
    }

    @Test
    void aPortHearingSeveralFarEndsIsASharedSegment() {
        Topology t = Topology.of(new Cluster()
                .hears("a:eth0", "b:eth0", "c:eth0").hears("b:eth0", "a:eth0", "c:eth0").hears("c:eth0", "a:eth0", "b:eth0")
                .snapshot());

        assertThat(t.cables()).isEmpty();
        assertThat(t.sharedSegments()).hasSize(3);
        assertThat(t.sharedSegments().get(0).farEnds()).containsExactly(PortRef.parse("b:eth0"), PortRef.parse("c:eth0"));
        Plan plan = Planner.plan(t, List.of("a", "b", "c"), Order.GIVEN, RailOptions.DEFAULTS, MlxVersion.NEWEST);
        assertThat(plan.findings()).filteredOn(f -> f.code() == Code.SHARED_SEGMENT).first()
                .satisfies(f -> assertThat(f.ports()).containsExactly(PortRef.parse("a:eth0"), PortRef.parse("b:eth0"), PortRef.parse("c:eth0")));
        SentencePorts.assertCarried(plan.findings(), t);
    }

    @Test
    void aFarEndOnANodeWithoutRecordIsUnconfirmed() {
        Snapshot s = new Snapshot(List.of(new NodeRecord("a", 3, List.of(
                Cluster.port(PortRef.parse("a:en1"), Optional.of(100.0), PortState.ACTIVE, List.of(PortRef.parse("z:en1")))))));
        Topology t = Topology.of(s);
        assertThat(t.nodes()).containsExactly("a");
        assertThat(t.unconfirmed()).singleElement().satisfies(u -> assertThat(u.reason()).isEqualTo("node z has no record"));
    }

    @Test
    void thunderboltDomainUuidsThatPointAtEachOtherConfirmACableWithoutProbes() {
        Topology t = Topology.of(new Snapshot(List.of(
                record("m3", "en7", "AAAA", "bbbb", 6),
                record("m4", "en2", "BBBB", "AAAA", 2))));

        assertThat(t.cables()).containsExactly(new Cable(PortRef.parse("m3:en7"), PortRef.parse("m4:en2")));
    }

    @Test
    void aThunderboltPeerDomainThatNoPortCarriesIsUnconfirmed() {
        Topology t = Topology.of(new Snapshot(List.of(record("m3", "en7", "AAAA", "CCCC", 6), record("m4", "en2", "BBBB", "AAAA", 2))));

        assertThat(t.cables()).isEmpty();
        assertThat(t.unconfirmed()).extracting(Unconfirmed::from)
                .containsExactly(PortRef.parse("m3:en7"), PortRef.parse("m4:en2"));
        assertThat(t.unconfirmed().get(0).reason()).contains("domain CCCC");
    }

    @Test
    void aThunderboltPairingAndAProbeThatDisagreeKeepThePortsCablesOutWithBothSourcesNamed() {
        // m3:en7 and m4:en2 point at each other by domain UUID, but m3:en7's probe heard m4:en3:
        // a forged or replayed hello, or a moved cable; neither source wins
        NodeRecord m3 = withNeighbours(record("m3", "en7", "AAAA", "BBBB", 6), PortRef.parse("m4:en3"));
        NodeRecord m4 = record("m4", "en2", "BBBB", "AAAA", 2);
        Topology t = Topology.of(new Snapshot(List.of(m3, m4)));

        assertThat(t.cables()).isEmpty();
        assertThat(t.sourceConflicts()).singleElement().satisfies(c -> {
            assertThat(c.port()).isEqualTo(PortRef.parse("m3:en7"));
            assertThat(c.paired()).isEqualTo(PortRef.parse("m4:en2"));
            assertThat(c.probed()).containsExactly(PortRef.parse("m4:en3"));
        });
        assertThat(t.unconfirmed()).singleElement().satisfies(u -> {
            assertThat(u.from()).isEqualTo(PortRef.parse("m4:en2"));
            assertThat(u.reason()).contains("Thunderbolt pairing and the probe of m3:en7 disagree");
        });
        Plan plan = Planner.plan(t, List.of("m3", "m4"), Order.GIVEN, RailOptions.DEFAULTS, MlxVersion.NEWEST);
        assertThat(plan.matrix().wires(0, 1)).isZero();
        assertThat(plan.findings()).filteredOn(f -> f.code() == Code.SOURCES_DISAGREE).singleElement()
                .satisfies(f -> {
                    assertThat(f.message()).contains("m3:en7", "Thunderbolt pairing names m4:en2", "probe heard m4:en3");
                    assertThat(f.ports()).containsExactly(PortRef.parse("m3:en7"), PortRef.parse("m4:en2"), PortRef.parse("m4:en3"));
                });
        SentencePorts.assertCarried(plan.findings(), t);
    }

    @Test
    void aThunderboltPairingAndAProbeThatAgreeMakeOneCable() {
        NodeRecord m3 = withNeighbours(record("m3", "en7", "AAAA", "BBBB", 6), PortRef.parse("m4:en2"));
        NodeRecord m4 = withNeighbours(record("m4", "en2", "BBBB", "AAAA", 2), PortRef.parse("m3:en7"));
        Topology t = Topology.of(new Snapshot(List.of(m3, m4)));

        assertThat(t.cables()).containsExactly(new Cable(PortRef.parse("m3:en7"), PortRef.parse("m4:en2")));
        assertThat(t.sourceConflicts()).isEmpty();
    }

    private static NodeRecord withNeighbours(NodeRecord r, PortRef... far) {
        Port p = r.ports().get(0);
        return new NodeRecord(r.node(), r.version(), List.of(new Port(p.node(), p.netdev(), p.rdma(), p.rdmaPort(), p.kind(),
                p.rateGbps(), p.state(), p.thunderbolt(), List.of(far))));
    }

    @Test
    void everyNodeIsAVertexEvenWithoutCables() {
        Topology t = Topology.of(new Cluster().node("lonely").cable("a:x", "b:x").snapshot());
        assertThat(t.nodes()).containsExactly("a", "b", "lonely");
        assertThat(t.cabledTo("lonely")).isEmpty();
        assertThat(t.cabledTo("a")).containsExactly("b");
    }

    private static NodeRecord record(String node, String netdev, String domain, String peerDomain, int receptacle) {
        Thunderbolt tb = new Thunderbolt(Optional.of(domain), Optional.of(peerDomain), receptacle, Optional.of(80.0), false,
                Optional.of("Mac"));
        return new NodeRecord(node, 1, List.of(new Port(node, netdev, Optional.of("rdma_" + netdev), 1, PortKind.THUNDERBOLT,
                Optional.of(80.0), PortState.ACTIVE, Optional.of(tb), List.of())));
    }

    /** A Linux port: its XDomain to a peer host, on a domain every port of the host router shares. */
    private static Port linux(String node, String netdev, String domain, String peerDomain, String xdomain, PortRef... far) {
        Thunderbolt tb = new Thunderbolt(Optional.of(domain), Optional.of(peerDomain), 1, Optional.of(40.0), false,
                Optional.empty(), Optional.of(xdomain));
        return new Port(node, netdev, Optional.empty(), 1, PortKind.THUNDERBOLT, Optional.of(40.0), PortState.ACTIVE, Optional.of(tb),
                List.of(far));
    }

    @Test
    void twoCablesFromOneLinuxDomainToTwoMacBusesAreTwoCablesByUuidsAlone() {
        NodeRecord linux = new NodeRecord("strix", 1, List.of(linux("strix", "thunderbolt0", "DDDD", "AAAA", "0-1"),
                linux("strix", "thunderbolt1", "DDDD", "BBBB", "0-3")));
        NodeRecord mac = new NodeRecord("mac", 1, List.of(record("mac", "en1", "AAAA", "DDDD", 1).ports().get(0),
                record("mac", "en2", "BBBB", "DDDD", 2).ports().get(0)));

        Topology t = Topology.of(new Snapshot(List.of(linux, mac)));

        assertThat(t.cables()).containsExactly(new Cable(PortRef.parse("mac:en1"), PortRef.parse("strix:thunderbolt0")),
                new Cable(PortRef.parse("mac:en2"), PortRef.parse("strix:thunderbolt1")));
        assertThat(t.unconfirmed()).isEmpty();
    }

    @Test
    void twoCablesBetweenTheSameTwoLinuxDomainsAreLeftToTheProbe() {
        NodeRecord a = new NodeRecord("a", 1, List.of(linux("a", "thunderbolt0", "AAAA", "BBBB", "0-1"),
                linux("a", "thunderbolt1", "AAAA", "BBBB", "0-3", PortRef.parse("b:thunderbolt0"))));
        NodeRecord b = new NodeRecord("b", 1, List.of(linux("b", "thunderbolt0", "BBBB", "AAAA", "0-1", PortRef.parse("a:thunderbolt1")),
                linux("b", "thunderbolt1", "BBBB", "AAAA", "0-3")));

        Topology t = Topology.of(new Snapshot(List.of(a, b)));

        assertThat(t.cables()).containsExactly(new Cable(PortRef.parse("a:thunderbolt1"), PortRef.parse("b:thunderbolt0")));
        assertThat(t.unconfirmed()).extracting(Unconfirmed::from).containsExactly(PortRef.parse("a:thunderbolt0"),
                PortRef.parse("b:thunderbolt1"));
        assertThat(t.unconfirmed().get(0).reason()).isEqualTo("its Thunderbolt peer (domain BBBB) is carried by 2 ports, which the"
                + " domain UUIDs do not tell apart (only the probe can)");
        assertThat(t.unconfirmed().get(0).farEnd()).isEmpty();
        assertThat(t.sourceConflicts()).isEmpty();
    }

    private static final String G1 = "0x0002c90300336fe0";
    private static final String G2 = "0x48210b030096a5cb";

    /** An active InfiniBand port of a dual-port HCA whose node GUID is {@code guid}, naming the HCA port at its far end (or none). */
    private static Port ib(String node, String netdev, int rdmaPort, String guid, Optional<String> peerGuid, Optional<Integer> peerPort,
                           PortRef... probed) {
        return new Port(node, netdev, Optional.of("mlx4_0"), rdmaPort, PortKind.INFINIBAND, Optional.of(56.0), PortState.ACTIVE,
                Optional.empty(), List.of(), false, Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.of(new Infiniband(Optional.of(guid), peerGuid, peerPort)), List.of(probed));
    }

    @Test
    void infinibandHcaPortsThatNameEachOtherConfirmCablesWithoutProbesTheirPortNumbersTellingTheCablesApart() {
        // both ports of one ConnectX-3 share its node GUID: the port number names the cable's end; cabled crossed
        Topology t = Topology.of(new Snapshot(List.of(
                new NodeRecord("g1", 1, List.of(ib("g1", "ib0", 1, G1, Optional.of(G2), Optional.of(2)),
                        ib("g1", "ib1", 2, G1, Optional.of(G2), Optional.of(1)))),
                new NodeRecord("g2", 1, List.of(ib("g2", "ib0", 1, G2, Optional.of(G1), Optional.of(2)),
                        ib("g2", "ib1", 2, G2, Optional.of(G1), Optional.of(1)))))));

        assertThat(t.cables()).containsExactly(
                new Cable(PortRef.parse("g1:ib0"), PortRef.parse("g2:ib1")),
                new Cable(PortRef.parse("g1:ib1"), PortRef.parse("g2:ib0")));
        assertThat(t.unconfirmed()).isEmpty();
        assertThat(t.sourceConflicts()).isEmpty();
        // a confirmed back-to-back cable is a known far end (RailFindings: unknown-far-end only with nothing known)
        assertThat(RailTable.of(t).findings()).noneMatch(f -> f.code() == Code.UNKNOWN_FAR_END);
    }

    @Test
    void anInfinibandNeighbourThatDoesNotNameThisPortBackIsUnconfirmed() {
        // g2's smpquery failed (no peer), g1:ib1 names an HCA no record carries
        Topology t = Topology.of(new Snapshot(List.of(
                new NodeRecord("g1", 1, List.of(ib("g1", "ib0", 1, G1, Optional.of(G2), Optional.of(1)),
                        ib("g1", "ib1", 2, G1, Optional.of("0x0000000000100003"), Optional.of(1)))),
                new NodeRecord("g2", 1, List.of(ib("g2", "ib0", 1, G2, Optional.empty(), Optional.empty()))))));

        assertThat(t.cables()).isEmpty();
        assertThat(t.unconfirmed()).satisfiesExactly(
                u -> {
                    assertThat(u.from()).isEqualTo(PortRef.parse("g1:ib0"));
                    assertThat(u.farEnd()).contains(PortRef.parse("g2:ib0"));
                    assertThat(u.reason()).isEqualTo("g2:ib0 observed no far end");
                },
                u -> {
                    assertThat(u.from()).isEqualTo(PortRef.parse("g1:ib1"));
                    assertThat(u.farEnd()).isEmpty();
                    assertThat(u.reason()).isEqualTo("its InfiniBand neighbour (HCA 0x0000000000100003 port 1) is on no node of the snapshot");
                });
        // a cable between two HCA ports of one node (a loop) is no cable between nodes
        Topology loop = Topology.of(new Snapshot(List.of(new NodeRecord("g1", 1, List.of(
                ib("g1", "ib0", 1, G1, Optional.of(G1), Optional.of(2)), ib("g1", "ib1", 2, G1, Optional.of(G1), Optional.of(1)))))));
        assertThat(loop.cables()).isEmpty();
        assertThat(loop.unconfirmed()).extracting(Unconfirmed::reason).containsExactly(
                "its InfiniBand neighbour (HCA 0x0002c90300336fe0 port 2) is g1:ib1, on its own node",
                "its InfiniBand neighbour (HCA 0x0002c90300336fe0 port 1) is g1:ib0, on its own node");
        // g1's ports name a far end, so only g2:ib0, which tells none, has an unknown far end
        assertThat(RailTable.of(t).findings()).filteredOn(f -> f.code() == Code.UNKNOWN_FAR_END)
                .flatExtracting(f -> f.ports()).containsExactly(PortRef.parse("g2:ib0"));
    }

    @Test
    void anInfinibandNeighbourAndAProbeThatDisagreeKeepThePortsCablesOutWithBothSourcesNamed() {
        Topology t = Topology.of(new Snapshot(List.of(
                new NodeRecord("g1", 1, List.of(ib("g1", "ib0", 1, G1, Optional.of(G2), Optional.of(1), PortRef.parse("g2:ib1")))),
                new NodeRecord("g2", 1, List.of(ib("g2", "ib0", 1, G2, Optional.of(G1), Optional.of(1)),
                        ib("g2", "ib1", 2, G2, Optional.empty(), Optional.empty()))))));

        assertThat(t.cables()).isEmpty();
        assertThat(t.sourceConflicts()).singleElement().satisfies(c -> {
            assertThat(c.port()).isEqualTo(PortRef.parse("g1:ib0"));
            assertThat(c.pairing()).isEqualTo(SourceConflict.Pairing.INFINIBAND);
            assertThat(c.paired()).isEqualTo(PortRef.parse("g2:ib0"));
            assertThat(c.probed()).containsExactly(PortRef.parse("g2:ib1"));
        });
        assertThat(t.unconfirmed()).singleElement().satisfies(u -> {
            assertThat(u.from()).isEqualTo(PortRef.parse("g2:ib0"));
            assertThat(u.reason()).isEqualTo("the InfiniBand neighbour and the probe of g1:ib0 disagree");
        });
        Plan plan = Planner.plan(t, List.of("g1", "g2"), Order.GIVEN, RailOptions.DEFAULTS, MlxVersion.NEWEST);
        assertThat(plan.findings()).filteredOn(f -> f.code() == Code.SOURCES_DISAGREE).singleElement()
                .satisfies(f -> assertThat(f.message()).contains("g1:ib0: its InfiniBand neighbour names g2:ib0 but its probe heard g2:ib1"));
        SentencePorts.assertCarried(plan.findings(), t);
    }
}
