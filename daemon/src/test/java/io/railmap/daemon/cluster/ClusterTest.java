package io.railmap.daemon.cluster;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.railmap.daemon.cluster.config.ClusterConfig;
import io.railmap.daemon.cluster.config.ClusterKey;
import io.railmap.daemon.cluster.config.ClusterTiming;
import io.railmap.daemon.cluster.config.Seed;
import io.railmap.daemon.cluster.stack.NodeAddresses;
import io.railmap.daemon.cluster.stack.StackChannels;
import io.railmap.daemon.engine.Engine;
import io.railmap.daemon.testing.FreePorts;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.PortState;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.jgroups.BytesMessage;
import org.jgroups.JChannel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Real JGroups members in this JVM, on loopback, with the lab timing and a cluster key: three
 * daemons' members (a, b, c), and bare channels with the same stack acting as a misbehaving peer
 * or as outsiders without the key.
 */
class ClusterTest {
    private static final String CLUSTER = "cluster-test";
    private static final Duration BOUND = Duration.ofSeconds(10);
    private static final ClusterKey KEY = ClusterKey.parse("test key", Base64.getEncoder().encodeToString(
            "a secret of thirty-two bytes ...".getBytes(StandardCharsets.US_ASCII)));
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    private final Map<String, Integer> ports = new LinkedHashMap<>();
    private final Map<String, Engine> engines = new LinkedHashMap<>();
    private final Map<String, Cluster> members = new LinkedHashMap<>();
    private final List<JChannel> channels = new ArrayList<>();

    private static Port port(String node, String netdev) {
        return new Port(node, netdev, Optional.empty(), 1, PortKind.ETHERNET, Optional.of(100.0), PortState.ACTIVE, Optional.empty(),
                List.of());
    }

    private List<Seed> seeds() {
        return ports.values().stream().map(p -> new Seed("127.0.0.1", p)).toList();
    }

    @BeforeEach
    void threeMembers() {
        for (String node : List.of("a", "b", "c")) {
            ports.put(node, FreePorts.clusterPort());
        }
        for (String node : List.of("a", "b", "c")) {
            Engine engine = new Engine(node);
            engine.ports(List.of(port(node, "en1")));
            Cluster member = new Cluster(new ClusterConfig(CLUSTER, node, LOOPBACK, ports.get(node), seeds(), Optional.of(KEY),
                    ClusterTiming.LAB), engine, new SimpleMeterRegistry());
            engines.put(node, engine);
            members.put(node, member);
            member.start();
        }
        await("every member holds every record").atMost(BOUND).untilAsserted(() -> engines.values()
                .forEach(e -> assertThat(e.snapshot().nodes()).containsExactly("a", "b", "c")));
    }

    @AfterEach
    void close() {
        channels.forEach(JChannel::close);
        members.values().forEach(Cluster::close);
    }

    /** A bare channel with the daemon's stack, for a peer that sends what a daemon never would. */
    private JChannel bare(String node, Optional<ClusterKey> key) throws Exception {
        JChannel channel = StackChannels.connect(CLUSTER, node, FreePorts.clusterPort(), seeds(), key);
        channels.add(channel);
        return channel;
    }

    /** Sends the record as the channel's own: with the channel's identity as incarnation. */
    private static void send(JChannel channel, NodeRecord record) throws Exception {
        send(channel, record, ClusterProtocol.THIS);
    }

    private static void send(JChannel channel, NodeRecord record, ClusterProtocol protocol) throws Exception {
        UUID incarnation = UUID.fromString(NodeAddresses.id(channel.getAddress()));
        NodeRecord own = new NodeRecord(record.node(), record.version(), record.ports(), record.management(), record.rdmaEnabled(),
                Optional.of(incarnation));
        channel.send(new BytesMessage(null, RecordMessages.encode(own, protocol)));
    }

    @Test
    void aChangeReachesEveryMemberAndALeaverTakesItsRecordAlong() {
        engines.get("a").ports(List.of(port("a", "en1"), port("a", "en2")));
        long version = engines.get("a").record().version();

        await("a's new record everywhere").atMost(BOUND).untilAsserted(() -> engines.values().forEach(e ->
                assertThat(e.snapshot().record("a").orElseThrow().version()).isEqualTo(version)));

        Membership seenByB = members.get("b").membership();
        assertThat(seenByB.members()).extracting(m -> m.node().orElseThrow()).containsExactlyInAnyOrder("a", "b", "c");
        assertThat(seenByB.members()).filteredOn(Member::coordinator).hasSize(1);
        assertThat(seenByB.members()).filteredOn(Member::self).extracting(m -> m.node().orElseThrow()).containsExactly("b");
        assertThat(seenByB.members()).allSatisfy(m -> {
            assertThat(m.address()).startsWith("127.0.0.1:");
            assertThat(m.recordVersion()).isPresent();
        });

        members.remove("c").close();

        await("c's record gone when it left").atMost(BOUND).untilAsserted(() -> {
            assertThat(engines.get("a").snapshot().nodes()).containsExactly("a", "b");
            assertThat(engines.get("b").snapshot().nodes()).containsExactly("a", "b");
        });
        assertThat(members.get("a").metrics().rejectedCount(RejectReason.MALFORMED)).isZero();
    }

    @Test
    void aPeerSendingGarbageOrAnotherNodesRecordIsCountedAndChangesNothing() throws Exception {
        JChannel x = bare("x", Optional.of(KEY));
        await("x is a member").atMost(BOUND).until(() -> members.get("a").membership().members().size() == 4);
        long bVersion = engines.get("a").snapshot().record("b").orElseThrow().version();

        x.send(new BytesMessage(null, "not a record".getBytes(StandardCharsets.UTF_8)));
        send(x, new NodeRecord("b", bVersion + 100, List.of(port("b", "forged"))));
        send(x, new NodeRecord("a", Long.MAX_VALUE, List.of(port("a", "forged"))));
        send(x, new NodeRecord("x", 1, List.of(port("x", "p1"))));

        await("x's own record taken").atMost(BOUND).untilAsserted(() ->
                assertThat(engines.get("c").snapshot().nodes()).containsExactly("a", "b", "c", "x"));
        for (String node : List.of("a", "b", "c")) {
            ClusterMetrics metrics = members.get(node).metrics();
            await().atMost(BOUND).untilAsserted(() -> {
                assertThat(metrics.rejectedCount(RejectReason.MALFORMED)).as("malformed at %s", node).isEqualTo(1);
                assertThat(metrics.rejectedCount(RejectReason.FOREIGN)).as("foreign at %s", node).isEqualTo(2);
            });
            assertThat(engines.get(node).snapshot().record("b").orElseThrow().version()).isEqualTo(bVersion);
        }
        assertThat(engines.get("a").record().ports()).extracting(Port::netdev).containsExactly("en1");

        x.close();
        await("x's record gone when it left").atMost(BOUND).untilAsserted(() ->
                assertThat(engines.get("b").snapshot().nodes()).containsExactly("a", "b", "c"));
    }

    @Test
    void withoutTheKeyOrWithAnotherOneNobodyJoinsNorInjectsARecord() throws Exception {
        ClusterKey other = ClusterKey.parse("other key", Base64.getEncoder().encodeToString(
                "another secret, also 32 bytes ..".getBytes(StandardCharsets.US_ASCII)));
        JChannel keyless = bare("y", Optional.empty());
        JChannel wrongKey = bare("z", Optional.of(other));
        send(keyless, new NodeRecord("y", 1, List.of(port("y", "p1"))));
        send(wrongKey, new NodeRecord("z", 1, List.of(port("z", "p1"))));
        // a forged record of a member, sent by each outsider
        send(keyless, new NodeRecord("b", Long.MAX_VALUE, List.of(port("b", "forged"))));
        send(wrongKey, new NodeRecord("b", Long.MAX_VALUE, List.of(port("b", "forged"))));

        // Long enough for discovery, several merge rounds and retransmissions of the lab timing.
        await().during(Duration.ofSeconds(3)).atMost(BOUND).untilAsserted(() -> {
            assertThat(keyless.getView().size()).isEqualTo(1);
            assertThat(wrongKey.getView().size()).isEqualTo(1);
            for (String node : List.of("a", "b", "c")) {
                assertThat(members.get(node).membership().members()).hasSize(3);
                assertThat(engines.get(node).snapshot().nodes()).containsExactly("a", "b", "c");
                assertThat(engines.get(node).snapshot().record("b").orElseThrow().ports()).extracting(Port::netdev).containsExactly("en1");
                assertThat(members.get(node).metrics().receivedCount()).as("records that reached %s's intake", node).isLessThan(20);
            }
        });
        for (String node : List.of("a", "b", "c")) {
            ClusterMetrics metrics = members.get(node).metrics();
            for (RejectReason reason : List.of(RejectReason.MALFORMED, RejectReason.FOREIGN, RejectReason.OWN)) {
                assertThat(metrics.rejectedCount(reason)).as("%s at %s: outsiders' messages never reach the intake", reason, node).isZero();
            }
        }
    }

    @Test
    void aMembersIdentityIsItsEnginesIncarnationWhichItsRecordsCarry() {
        Engine b = engines.get("b");
        await("b's record at a carries b's incarnation").atMost(BOUND).untilAsserted(() ->
                assertThat(engines.get("a").snapshot().record("b").orElseThrow().incarnation()).contains(b.incarnation()));
    }

    @Test
    void aPeerSpeakingANewerProtocolIsReadAndOneSpeakingAProtocolNobodyReadsIsRejectedEachLoggedOncePerMember() throws Exception {
        List<String> lines = new java.util.concurrent.CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                lines.add(record.getMessage());
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger logger = Logger.getLogger(Cluster.class.getName());
        logger.addHandler(capture);
        try {
            JChannel next = bare("n", Optional.of(KEY));
            JChannel future = bare("f", Optional.of(KEY));
            await("n and f are members").atMost(BOUND).until(() -> members.get("a").membership().members().size() == 5);

            for (int version = 1; version <= 3; version++) {
                send(next, new NodeRecord("n", version, List.of(port("n", "en1"))), ClusterProtocol.SIMULATED_NEXT);
                send(future, new NodeRecord("f", version, List.of(port("f", "en1"))), new ClusterProtocol(2, 3, 3));
            }

            for (String node : List.of("a", "b", "c")) {
                await("n's record, without what protocol 1 does not know, at " + node).atMost(BOUND).untilAsserted(() -> {
                    NodeRecord n = engines.get(node).snapshot().record("n").orElseThrow();
                    assertThat(n.version()).isEqualTo(3);
                    assertThat(n.ports()).extracting(Port::netdev).containsExactly("en1");
                    assertThat(members.get(node).metrics().rejectedCount(RejectReason.PROTOCOL)).isEqualTo(3);
                });
                assertThat(engines.get(node).snapshot().nodes()).doesNotContain("f");
            }
            assertThat(lines).filteredOn(l -> l.startsWith("rejected a protocol record from member f")).hasSize(3)
                    .allSatisfy(l -> assertThat(l).contains("it writes protocol 3, which only daemons of protocol 2 and newer read;"
                            + " this daemon reads protocol 1: upgrade this daemon"));
            assertThat(lines).filteredOn(l -> l.startsWith("member n (") && l.contains(" writes protocol ")).hasSize(3)
                    .allSatisfy(l -> assertThat(l).contains("writes protocol 2 (knows 1–2); this daemon reads 1",
                            "port simnext0 of kind \"simulated-next\" left out"));
        } finally {
            logger.removeHandler(capture);
        }
    }
}
