package io.railmap.daemon.cluster;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.railmap.daemon.cluster.config.ClusterConfig;
import io.railmap.daemon.cluster.config.ClusterKey;
import io.railmap.daemon.cluster.config.ClusterTiming;
import io.railmap.daemon.cluster.config.Seed;
import io.railmap.daemon.engine.Engine;
import io.railmap.daemon.testing.FreePorts;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.PortState;
import java.net.InetAddress;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.jgroups.stack.Protocol;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Members of one cluster in this JVM, for tests of the cluster code: each a real {@link Cluster}
 * (JGroups on loopback, lab timing, every member a seed) with an {@link Engine} holding one port.
 * Ports are chosen up front, so that every member, even one started later, lists every other as a
 * seed. Close it after each test.
 */
final class LoopbackMembers implements AutoCloseable {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    private final String cluster;
    private final Optional<ClusterKey> key;
    private final Map<String, Integer> ports = new LinkedHashMap<>();
    private final Map<String, Engine> engines = new LinkedHashMap<>();
    private final Map<String, Cluster> members = new LinkedHashMap<>();

    /**
     * @param cluster the cluster's name
     * @param key     the cluster key, if any
     * @param nodes   every node that may be started, in order
     */
    LoopbackMembers(String cluster, Optional<ClusterKey> key, List<String> nodes) {
        this.cluster = cluster;
        this.key = key;
        nodes.forEach(node -> ports.put(node, FreePorts.clusterPort()));
    }

    /** Starts a node's member with the daemon's own stack. */
    Cluster start(String node) {
        return start(node, UnaryOperator.identity());
    }

    /** Starts a node's member with its JGroups stack changed (a protocol that loses a message, say). */
    Cluster start(String node, UnaryOperator<List<Protocol>> stackChange) {
        Engine engine = new Engine(node);
        engine.ports(List.of(port(node, 100.0)));
        List<Seed> seeds = ports.values().stream().map(p -> new Seed("127.0.0.1", p)).toList();
        Cluster member = new Cluster(new ClusterConfig(cluster, node, LOOPBACK, ports.get(node), seeds, key, ClusterTiming.LAB),
                engine, new SimpleMeterRegistry(), ClusterProtocol.THIS, stackChange);
        engines.put(node, engine);
        members.put(node, member);
        member.start();
        return member;
    }

    /** Changes a started node's record: its one port's rate goes from 100 to 200 Gb/s or back. */
    void changeRecord(String node) {
        Engine engine = engines.get(node);
        double now = engine.record().ports().get(0).rateGbps().orElse(100.0);
        engine.ports(List.of(port(node, now == 100.0 ? 200.0 : 100.0)));
    }

    private static Port port(String node, double rateGbps) {
        return new Port(node, "en1", Optional.empty(), 1, PortKind.ETHERNET, Optional.of(rateGbps), PortState.ACTIVE, Optional.empty(), List.of());
    }

    /** @return the started members by node, in the order they started */
    Map<String, Cluster> members() {
        return members;
    }

    /** Waits, at most {@code bound}, until every started member holds every started member's record and agrees. */
    void awaitEveryoneHoldsEveryRecordAndAgrees(Duration bound) {
        await("every member holds every record and agrees").atMost(bound).untilAsserted(() -> {
            for (String node : members.keySet()) {
                assertThat(engines.get(node).snapshot().nodes()).as("records at %s", node).containsExactlyElementsOf(members.keySet());
                assertThat(members.get(node).agreement().orElseThrow().agreed()).as("agreement at %s", node).isTrue();
            }
        });
    }

    @Override
    public void close() {
        members.values().forEach(Cluster::close);
    }
}
