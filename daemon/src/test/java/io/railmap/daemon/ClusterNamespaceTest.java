package io.railmap.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.railmap.daemon.testing.DaemonProcess;
import io.railmap.daemon.testing.NamespacesAvailable;
import io.railmap.daemon.testing.NetnsLab;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.model.PortState;
import io.railmap.matrix.model.Snapshot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three real daemons (a, b, c) in three namespaces, each plugged into a management bridge that lives
 * in a namespace of its own, with addresses 10.77.0.1–3/24 and no cluster flags but a shared key:
 * they find each other by multicast and pick their management address themselves. Cables
 * a:en1–b:en1 and b:en2–c:en1 make records name neighbours. Namespaces d and e, on the same bridge,
 * hold outsiders. Every test starts from a healed lab (all daemons running and holding every record)
 * and leaves what it broke for the next one's {@link #healed()} to mend.
 *
 * <p>Bounds state the requirements: a killed daemon is dropped within 3 s, a frozen or cut-off one
 * within 10 s, each plus 1 s for polling and the API round trip.
 */
@ExtendWith(NamespacesAvailable.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClusterNamespaceTest {
    private static final List<String> NODES = List.of("a", "b", "c");
    private static final Duration POLL = Duration.ofMillis(100);
    private static final Duration KILL_BOUND = Duration.ofMillis(3_000 + 1_000);
    private static final Duration FREEZE_BOUND = Duration.ofMillis(10_000 + 1_000);
    private static final Duration SETTLE = Duration.ofSeconds(30);

    @TempDir
    static Path dir;
    private NetnsLab lab;
    private String bridge;
    private final Map<String, String> ns = new LinkedHashMap<>();
    private final Map<String, DaemonProcess> daemons = new LinkedHashMap<>();
    private Path key;

    @BeforeAll
    void labWithThreeDaemons() throws Exception {
        lab = NetnsLab.create();
        bridge = lab.bridge("sw");
        int host = 1;
        for (String node : List.of("a", "b", "c", "d", "e")) {
            ns.put(node, lab.namespace(node));
            lab.plug(bridge, ns.get(node), "mgmt", "10.77.0." + host++ + "/24");
        }
        lab.cable(ns.get("a"), "en1", ns.get("b"), "en1");
        lab.cable(ns.get("b"), "en2", ns.get("c"), "en1");
        key = writeKey("cluster.key", "c2hhcmVkIHNlY3JldCBvZiB0aGUgbGFiJ3MgY2x1c3Rlcg==");
        for (String node : NODES) {
            daemons.put(node, DaemonProcess.start(lab, ns.get(node), dir, node, "--interfaces", "en*", "--probe-interval-ms", "250",
                    "--cluster", "lab", "--cluster-key-file", key.toString()));
        }
    }

    private Path writeKey(String name, String base64) throws Exception {
        Path file = Files.writeString(dir.resolve(name), base64 + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        return file;
    }

    @AfterAll
    void cleanUp() {
        if (lab != null) {
            lab.close();
        }
    }

    /** Thaws, restarts and reconnects whatever an earlier test left broken, then waits for every record everywhere. */
    @BeforeEach
    void healed() throws Exception {
        for (String node : NODES) {
            DaemonProcess d = daemons.get(node);
            d.thaw();
            if (!d.alive()) {
                daemons.put(node, d.restart());
            }
            lab.linkUp(bridge, lab.bridgePort(ns.get(node)));
        }
        await("every daemon holds every record").atMost(SETTLE).pollInterval(POLL).ignoreExceptions().untilAsserted(() -> {
            for (String node : NODES) {
                assertThat(snapshot(node).nodes()).as("snapshot of %s", node).containsExactly("a", "b", "c");
                assertThat(daemons.get(node).memberNodes()).as("members seen by %s", node).containsExactlyInAnyOrder("a", "b", "c");
            }
        });
    }

    private Snapshot snapshot(String node) {
        return daemons.get(node).snapshot();
    }

    private static List<PortRef> far(Snapshot snapshot, String node, String port) {
        return snapshot.record(node).flatMap(r -> r.port(port)).map(p -> p.neighbours()).orElse(List.of());
    }

    @Test
    void everyDaemonHoldsEveryRecordAndAChangeReachesTheOthers() {
        await("c holds a's record naming its cable to b").atMost(SETTLE).pollInterval(POLL).ignoreExceptions().untilAsserted(() -> {
            assertThat(far(snapshot("c"), "a", "en1")).containsExactly(PortRef.parse("b:en1"));
            assertThat(far(snapshot("a"), "c", "en1")).containsExactly(PortRef.parse("b:en2"));
        });

        for (String node : NODES) {
            JsonNode members = daemons.get(node).members();
            assertThat(members.get("cluster").asText()).isEqualTo("lab");
            List<String> coordinators = new ArrayList<>();
            for (JsonNode m : members.get("members")) {
                String name = m.get("node").asText();
                assertThat(m.get("address").asText()).isEqualTo("10.77.0." + (NODES.indexOf(name) + 1) + ":7800");
                assertThat(m.get("self").asBoolean()).as("%s seen by %s is self", name, node).isEqualTo(name.equals(node));
                assertThat(m.get("recordVersion").isIntegralNumber()).isTrue();
                assertThat(m.get("recordAgeMs").asLong()).isNotNegative();
                if (m.get("coordinator").asBoolean()) {
                    coordinators.add(name);
                }
            }
            assertThat(coordinators).as("coordinators seen by %s", node).hasSize(1);
        }

        lab.linkDown(ns.get("a"), "en1");

        await("a's pulled cable reaches c").atMost(SETTLE).pollInterval(POLL).ignoreExceptions().untilAsserted(() -> {
            Snapshot atC = snapshot("c");
            NodeRecord a = atC.record("a").orElseThrow();
            assertThat(a.port("en1").orElseThrow().state()).isEqualTo(PortState.DOWN);
            assertThat(far(atC, "a", "en1")).isEmpty();
            assertThat(far(atC, "b", "en1")).isEmpty();
            assertThat(a.version()).isEqualTo(daemons.get("a").record().version());
        });

        lab.linkUp(ns.get("a"), "en1");

        await("the plugged cable reaches c").atMost(SETTLE).pollInterval(POLL).ignoreExceptions().untilAsserted(() ->
                assertThat(far(snapshot("c"), "a", "en1")).containsExactly(PortRef.parse("b:en1")));
    }

    @Test
    void aKilledDaemonLeavesEverySnapshotWithinThreeSecondsAndReturnsWhenRestarted() throws Exception {
        daemons.get("c").kill();

        await("c's record gone from a and b").atMost(KILL_BOUND).pollInterval(POLL).untilAsserted(() -> {
            assertThat(snapshot("a").nodes()).containsExactly("a", "b");
            assertThat(snapshot("b").nodes()).containsExactly("a", "b");
        });
        assertThat(daemons.get("a").memberNodes()).containsExactlyInAnyOrder("a", "b");

        daemons.put("c", daemons.get("c").restart());

        await("c back everywhere").atMost(SETTLE).pollInterval(POLL).ignoreExceptions().untilAsserted(() -> {
            for (String node : NODES) {
                assertThat(snapshot(node).nodes()).containsExactly("a", "b", "c");
            }
        });
    }

    @Test
    void aFrozenDaemonLeavesEverySnapshotWithinTenSecondsAndMergesBackWhenItWakes() {
        daemons.get("c").freeze();

        await("frozen c's record gone from a and b").atMost(FREEZE_BOUND).pollInterval(POLL).untilAsserted(() -> {
            assertThat(snapshot("a").nodes()).containsExactly("a", "b");
            assertThat(snapshot("b").nodes()).containsExactly("a", "b");
        });

        daemons.get("c").thaw();

        await("c merged back").atMost(SETTLE).pollInterval(POLL).ignoreExceptions().untilAsserted(() -> {
            for (String node : NODES) {
                assertThat(snapshot(node).nodes()).containsExactly("a", "b", "c");
                assertThat(daemons.get(node).memberNodes()).hasSize(3);
            }
        });
        assertThat(daemons.get("a").log()).contains("partitions merged");
    }

    @Test
    void aPartitionHealsByItself() {
        String cPort = lab.bridgePort(ns.get("c"));
        lab.linkDown(bridge, cPort);

        await("both sides drop the other").atMost(FREEZE_BOUND).pollInterval(POLL).untilAsserted(() -> {
            assertThat(snapshot("a").nodes()).containsExactly("a", "b");
            assertThat(snapshot("b").nodes()).containsExactly("a", "b");
            assertThat(snapshot("c").nodes()).containsExactly("c");
            assertThat(daemons.get("c").memberNodes()).containsExactly("c");
        });

        lab.linkUp(bridge, cPort);

        await("every record everywhere again, without a restart").atMost(SETTLE).pollInterval(POLL).untilAsserted(() -> {
            for (String node : NODES) {
                assertThat(snapshot(node).nodes()).containsExactly("a", "b", "c");
                assertThat(daemons.get(node).memberNodes()).hasSize(3);
            }
        });
        assertThat(daemons.values().stream().allMatch(DaemonProcess::alive)).isTrue();
    }

    @Test
    void daemonsWithAnotherKeyOrClusterNameStayOutside() throws Exception {
        Path wrongKey = writeKey("wrong.key", "YW5vdGhlciBzZWNyZXQsIG5vdCB0aGUgbGFiJ3Mgb25l");
        DaemonProcess d = DaemonProcess.start(lab, ns.get("d"), dir, "d", "--cluster", "lab", "--cluster-key-file", wrongKey.toString(),
                "--seeds", "10.77.0.1,10.77.0.2");
        DaemonProcess e = DaemonProcess.start(lab, ns.get("e"), dir, "e", "--cluster", "other", "--cluster-key-file", key.toString(),
                "--seeds", "10.77.0.1");

        await("the outsiders run, each alone").atMost(SETTLE).pollInterval(POLL).ignoreExceptions().untilAsserted(() -> {
            assertThat(d.memberNodes()).containsExactly("d");
            assertThat(e.memberNodes()).containsExactly("e");
        });
        // several merge rounds, in which the outsiders knock at a and b
        await().during(Duration.ofSeconds(4)).atMost(SETTLE).pollInterval(Duration.ofMillis(250)).untilAsserted(() -> {
            for (String node : NODES) {
                assertThat(snapshot(node).nodes()).as("snapshot of %s", node).containsExactly("a", "b", "c");
                assertThat(daemons.get(node).memberNodes()).as("members seen by %s", node).containsExactlyInAnyOrder("a", "b", "c");
            }
            assertThat(d.snapshot().nodes()).containsExactly("d");
            assertThat(e.snapshot().nodes()).containsExactly("e");
        });
        d.close();
        e.close();
    }
}
