package io.railmap.daemon.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.railmap.daemon.engine.Engine;
import io.railmap.daemon.testing.FreePorts;
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
import java.util.function.UnaryOperator;
import org.jgroups.stack.Protocol;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Anti-entropy in a real cluster: JGroups members in this JVM on loopback, lab timing (a 5 s repair
 * grace), a cluster key. A record message lost to one member is sent again by its owner once the
 * digests have differed for the grace period; a cluster in agreement sends nothing.
 */
class RepairTest {
    private static final String CLUSTER = "repair-test";
    private static final ClusterKey KEY = ClusterKey.parse("test key", Base64.getEncoder().encodeToString(
            "a secret of thirty-two bytes ...".getBytes(StandardCharsets.US_ASCII)));
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    private static final Duration GRACE = Duration.ofMillis(ClusterTiming.LAB.repairGraceMs());
    /** Forming or joining, and for a repair its grace period, on a loaded machine. */
    private static final Duration BOUND = Duration.ofSeconds(20).plus(GRACE);

    private final Map<String, Integer> ports = new LinkedHashMap<>();
    private final Map<String, Engine> engines = new LinkedHashMap<>();
    private final Map<String, Cluster> members = new LinkedHashMap<>();

    @AfterEach
    void close() {
        members.values().forEach(Cluster::close);
    }

    private void start(String node, UnaryOperator<List<Protocol>> stackChange) {
        Engine engine = new Engine(node);
        engine.ports(List.of(new Port(node, "en1", Optional.empty(), 1, PortKind.ETHERNET, Optional.of(100.0), PortState.ACTIVE,
                Optional.empty(), List.of())));
        List<Seed> seeds = ports.values().stream().map(p -> new Seed("127.0.0.1", p)).toList();
        Cluster member = new Cluster(new ClusterConfig(CLUSTER, node, LOOPBACK, ports.get(node), seeds, Optional.of(KEY), ClusterTiming.LAB),
                engine, new SimpleMeterRegistry(), ClusterProtocol.THIS, stackChange);
        engines.put(node, engine);
        members.put(node, member);
        member.start();
    }

    private void awaitEveryoneHoldsEveryRecordAndAgrees() {
        await("every member holds every record and agrees").atMost(BOUND).untilAsserted(() -> {
            for (String node : members.keySet()) {
                assertThat(engines.get(node).snapshot().nodes()).as("records at %s", node).containsExactlyElementsOf(members.keySet());
                assertThat(members.get(node).agreement().orElseThrow().agreed()).as("agreement at %s", node).isTrue();
            }
        });
    }

    private double repairs() {
        return members.values().stream().mapToDouble(m -> m.metrics().repairCount()).sum();
    }

    @Test
    void aRecordLostToOneMemberIsSentAgainByItsOwnerOnceTheDigestsStopChanging() {
        for (String node : List.of("a", "b", "c")) {
            ports.put(node, FreePorts.clusterPort());
        }
        start("a", UnaryOperator.identity());
        start("b", UnaryOperator.identity());
        awaitEveryoneHoldsEveryRecordAndAgrees();
        assertThat(repairs()).as("repairs before c joins").isZero();

        // c loses a's record: a sends it once when c joins, and nothing below c retransmits it
        LosesFirstRecord loses = new LosesFirstRecord("a");
        start("c", protocols -> {
            List<Protocol> out = new ArrayList<>(protocols);
            out.add(loses);
            return out;
        });

        await("c lost a's record").atMost(BOUND).until(() -> loses.lost() == 1);
        awaitEveryoneHoldsEveryRecordAndAgrees();
        // only a holds a's record to send: once, for the one pair of digests (a's, c's without a's record)
        assertThat(members.get("a").metrics().repairCount()).as("a's repairs").isEqualTo(1);
        // b may have sent c its record, and c its own to a and b, if their checks came before a's repair arrived
        assertThat(repairs()).as("repairs in all").isBetween(1.0, 4.0);
    }

    @Test
    void aClusterInAgreementSendsNothingForTwoGracePeriods() {
        for (String node : List.of("a", "b", "c")) {
            ports.put(node, FreePorts.clusterPort());
        }
        for (String node : ports.keySet()) {
            start(node, UnaryOperator.identity());
        }
        awaitEveryoneHoldsEveryRecordAndAgrees();
        Map<String, Double> received = new LinkedHashMap<>();
        members.forEach((node, m) -> received.put(node, m.metrics().receivedCount()));

        await("no record message for two grace periods").during(GRACE.multipliedBy(2)).atMost(GRACE.multipliedBy(2).plusSeconds(10))
                .untilAsserted(() -> members.forEach((node, m) ->
                        assertThat(m.metrics().receivedCount()).as("records received by %s", node).isEqualTo(received.get(node))));
        assertThat(repairs()).as("repairs in all").isZero();
        awaitEveryoneHoldsEveryRecordAndAgrees();
    }
}
