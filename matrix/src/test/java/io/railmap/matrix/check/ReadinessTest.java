package io.railmap.matrix.check;

import static org.assertj.core.api.Assertions.assertThat;

import io.railmap.matrix.SentencePorts;
import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.finding.Severity;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.model.PortState;
import io.railmap.matrix.model.Snapshot;
import io.railmap.matrix.model.Thunderbolt;
import io.railmap.matrix.rail.DeviceMatrix;
import io.railmap.matrix.rail.RailAligner;
import io.railmap.matrix.rail.RailOptions;
import io.railmap.matrix.topology.Topology;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * Each readiness finding fires on the case it names and stays silent on a healthy cluster: two Macs
 * (a and b) joined by two direct Thunderbolt 5 cables, {@code a:en6–b:en7} and {@code a:en7–b:en6},
 * RDMA on, every cable port with a link-local IPv4 address, nothing bridged; each test changes one fact.
 */
class ReadinessTest {

    /** The healthy cluster, with some ports or records replaced. */
    private static final class Macs {
        private final Map<String, Port> ports = new LinkedHashMap<>();
        private final Map<String, Optional<Boolean>> rdma = new LinkedHashMap<>();

        Macs() {
            tb("a:en6", "b:en7", "169.254.1.1");
            tb("a:en7", "b:en6", "169.254.1.3");
            tb("b:en7", "a:en6", "169.254.1.2");
            tb("b:en6", "a:en7", "169.254.1.4");
            rdma.put("a", Optional.of(true));
            rdma.put("b", Optional.of(true));
        }

        private void tb(String end, String far, String ipv4) {
            PortRef ref = PortRef.parse(end);
            Thunderbolt link = new Thunderbolt(Optional.empty(), Optional.empty(), 1 + ports.size(), Optional.of(80.0), false,
                    Optional.of("Mac Studio"));
            ports.put(end, new Port(ref.node(), ref.netdev(), Optional.of("rdma_" + ref.netdev()), 1, PortKind.THUNDERBOLT,
                    Optional.of(80.0), PortState.ACTIVE, Optional.of(link), List.of(ipv4, "fe80::" + (ports.size() + 1)), true,
                    Optional.empty(), List.of(PortRef.parse(far))));
        }

        Macs port(String end, UnaryOperator<Port> change) {
            ports.put(end, change.apply(ports.get(end)));
            return this;
        }

        Macs rdmaEnabled(String node, Optional<Boolean> value) {
            rdma.put(node, value);
            return this;
        }

        List<Finding> findings(String... ranks) {
            List<NodeRecord> records = new ArrayList<>();
            for (String node : rdma.keySet()) {
                List<Port> own = ports.values().stream().filter(p -> p.node().equals(node)).toList();
                records.add(new NodeRecord(node, 1, own, Optional.of("10.0.0." + (records.size() + 1)), rdma.get(node)));
            }
            Topology topology = Topology.of(new Snapshot(records));
            DeviceMatrix matrix = RailAligner.align(topology, List.of(ranks), RailOptions.DEFAULTS);
            List<Finding> findings = Readiness.of(topology, matrix);
            SentencePorts.assertCarried(findings, topology);
            return findings;
        }
    }

    private static Port with(Port p, List<String> addresses, boolean known, Optional<String> bridge) {
        return new Port(p.node(), p.netdev(), p.rdma(), p.rdmaPort(), p.kind(), p.rateGbps(), p.state(), p.thunderbolt(),
                addresses, known, bridge, p.neighbours());
    }

    private static Port link(Port p, double speedGbps, boolean behindHub) {
        Thunderbolt t = p.thunderbolt().orElseThrow();
        return new Port(p.node(), p.netdev(), p.rdma(), p.rdmaPort(), p.kind(), Optional.of(speedGbps), p.state(),
                Optional.of(new Thunderbolt(t.domainUuid(), t.peerDomainUuid(), t.receptacle(), Optional.of(speedGbps), behindHub,
                        t.peerName())), p.addresses(), p.addressesKnown(), p.bridge(), p.neighbours());
    }

    @Test
    void aHealthyClusterHasNoFindings() {
        assertThat(new Macs().findings("a", "b")).isEmpty();
        assertThat(new Macs().findings("b", "a")).isEmpty();
    }

    @Test
    void rdmaTurnedOffIsOneErrorForTheNodeSayingHowToTurnItOn() {
        // with RDMA off, macOS names no RDMA devices: the ports are netdevs only
        Macs macs = new Macs().rdmaEnabled("b", Optional.of(false))
                .port("b:en6", p -> new Port(p.node(), p.netdev(), Optional.empty(), 1, p.kind(), p.rateGbps(), p.state(),
                        p.thunderbolt(), p.addresses(), true, p.bridge(), p.neighbours()));

        assertThat(macs.findings("a", "b")).singleElement().satisfies(f -> {
            assertThat(f.code()).isEqualTo(Code.RDMA_DISABLED);
            assertThat(f.severity()).isEqualTo(Severity.ERROR);
            assertThat(f.ranks()).containsExactly(1);
            assertThat(f.message()).contains("node b", "ports b:en6, b:en7", "rdma_ctl enable", "Recovery");
        });
    }

    @Test
    void rdmaStateUnknownOrANodeOutsideTheRanksGivesNoFinding() {
        assertThat(new Macs().rdmaEnabled("b", Optional.empty()).findings("a", "b")).isEmpty();

        Macs three = new Macs().rdmaEnabled("c", Optional.of(false));
        assertThat(three.findings("a", "b")).isEmpty();
    }

    @Test
    void aBridgedRailEndIsAnErrorNamingTheCommand() {
        Macs macs = new Macs().port("a:en7", p -> with(p, p.addresses(), true, Optional.of("bridge0")));

        assertThat(macs.findings("a", "b")).singleElement().satisfies(f -> {
            assertThat(f.code()).isEqualTo(Code.BRIDGED_PORT);
            assertThat(f.severity()).isEqualTo(Severity.ERROR);
            assertThat(f.rail()).isPresent();
            assertThat(f.ranks()).containsExactly(0, 1);
            assertThat(f.message()).contains("a:en7", "bridge0", "Thunderbolt Bridge", "errno 22",
                    "sudo ifconfig bridge0 deletem en7");
        });
    }

    @Test
    void cablesBetweenRanksAreFoundWhateverTheRankOrderAndCablesToOtherNodesAreNot() {
        // a:en8–c:en1 is bridged at a; c is a rank only in the second list
        Macs macs = new Macs().rdmaEnabled("c", Optional.of(true));
        macs.tb("a:en8", "c:en1", "169.254.1.5");
        macs.tb("c:en1", "a:en8", "169.254.1.6");
        macs.port("a:en8", p -> with(p, p.addresses(), true, Optional.of("bridge0")));

        assertThat(macs.findings("b", "a")).isEmpty();
        assertThat(macs.findings("b", "a", "c")).singleElement().satisfies(f -> {
            assertThat(f.code()).isEqualTo(Code.BRIDGED_PORT);
            assertThat(f.severity()).isEqualTo(Severity.ERROR);
            assertThat(f.ranks()).containsExactly(1, 2);
            assertThat(f.rail()).contains(0);
            assertThat(f.message()).contains("a:en8, an end of rail 0 (cable a:en8\u2013c:en1)");
        });
    }

    @Test
    void aBridgedEndOfACableThatIsNoRailIsAWarning() {
        // a:en7–b:en6 is down: it is no rail, but it still joins two ranks
        Macs macs = new Macs().port("a:en7", p -> with(p.withState(PortState.DOWN), p.addresses(), true, Optional.of("bridge0")));

        assertThat(macs.findings("a", "b")).singleElement().satisfies(f -> {
            assertThat(f.code()).isEqualTo(Code.BRIDGED_PORT);
            assertThat(f.severity()).isEqualTo(Severity.WARNING);
            assertThat(f.rail()).isEmpty();
        });
    }

    @Test
    void aRailEndWithoutIpv4IsAnErrorOnlyWhenItsAddressesAreKnown() {
        Macs ipv6Only = new Macs().port("b:en6", p -> with(p, List.of("fe80::9"), true, Optional.empty()));
        assertThat(ipv6Only.findings("a", "b")).singleElement().satisfies(f -> {
            assertThat(f.code()).isEqualTo(Code.NO_IPV4);
            assertThat(f.severity()).isEqualTo(Severity.ERROR);
            assertThat(f.message()).contains("b:en6", "only fe80::9", "IPv4-mapped GID", "Connection::info",
                    "sudo ifconfig en6 inet 169.254.N.M netmask 255.255.0.0 alias");
        });

        Macs none = new Macs().port("b:en6", p -> with(p, List.of(), true, Optional.empty()));
        assertThat(none.findings("a", "b")).singleElement().satisfies(f -> assertThat(f.message()).contains("no address at all"));

        // an older daemon's record says nothing about addresses: no finding rather than a false error
        Macs unknown = new Macs().port("b:en6", p -> with(p, List.of(), false, Optional.empty()));
        assertThat(unknown.findings("a", "b")).isEmpty();
    }

    @Test
    void aCableEndWithoutIpv4ThatIsNoRailGivesNoFinding() {
        Macs macs = new Macs().port("b:en6", p -> with(p.withState(PortState.DOWN), List.of(), true, Optional.empty()));

        assertThat(macs.findings("a", "b")).isEmpty();
    }

    @Test
    void aThunderboltFourLinkIsAWarningAskingForThunderboltFive() {
        Macs macs = new Macs().port("a:en6", p -> link(p, 40.0, false)).port("b:en7", p -> link(p, 40.0, false));

        List<Finding> findings = macs.findings("a", "b");

        assertThat(findings).singleElement().satisfies(f -> {
            assertThat(f.code()).isEqualTo(Code.SLOW_THUNDERBOLT);
            assertThat(f.severity()).isEqualTo(Severity.WARNING);
            assertThat(f.message()).contains("a:en6\u2013b:en7", "40 Gb/s", "Thunderbolt 5");
        });
    }

    /** A Linux end (an XDomain) at 2 × 20 Gb/s carries thunderbolt-ibverbs' RDMA; only a Mac's end is held to Thunderbolt 5. */
    @Test
    void aLinuxEndsFortyGigabitsIsNoFindingAndTheMacsEndStillIs() {
        Macs linux = new Macs().port("a:en6", p -> linux(link(p, 40.0, false))).port("b:en7", p -> linux(link(p, 40.0, false)));
        assertThat(linux.findings("a", "b")).isEmpty();

        Macs mixed = new Macs().port("a:en6", p -> linux(link(p, 40.0, false))).port("b:en7", p -> link(p, 40.0, false));
        assertThat(mixed.findings("a", "b")).extracting(Finding::code).containsExactly(Code.SLOW_THUNDERBOLT);
    }

    private static Port linux(Port p) {
        Thunderbolt t = p.thunderbolt().orElseThrow();
        return new Port(p.node(), p.netdev(), p.rdma(), p.rdmaPort(), p.kind(), p.rateGbps(), p.state(),
                Optional.of(new Thunderbolt(t.domainUuid(), t.peerDomainUuid(), t.receptacle(), t.linkSpeedGbps(), t.behindHub(),
                        t.peerName(), Optional.of("0-1"))), p.addresses(), p.addressesKnown(), p.bridge(), p.neighbours());
    }

    @Test
    void aPeerBehindAHubIsAWarningToCableDirectly() {
        Macs macs = new Macs().port("a:en6", p -> link(p, 80.0, true));

        assertThat(macs.findings("a", "b")).singleElement().satisfies(f -> {
            assertThat(f.code()).isEqualTo(Code.BEHIND_HUB);
            assertThat(f.severity()).isEqualTo(Severity.WARNING);
            assertThat(f.message()).contains("a:en6\u2013b:en7", "hub or dock", "directly");
        });
    }

    @Test
    void errorsComeFirst() {
        Macs macs = new Macs().port("a:en6", p -> link(p, 40.0, false))
                .port("b:en6", p -> with(p, List.of("fe80::9"), true, Optional.empty()));

        assertThat(macs.findings("a", "b")).extracting(Finding::code).containsExactly(Code.NO_IPV4, Code.SLOW_THUNDERBOLT);
    }
}
