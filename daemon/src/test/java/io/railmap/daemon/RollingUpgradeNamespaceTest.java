package io.railmap.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.railmap.daemon.testing.DaemonProcess;
import io.railmap.daemon.testing.NamespacesAvailable;
import io.railmap.daemon.testing.NetnsLab;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.model.PortState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A rolling upgrade with real daemons: three nodes a, b, c in namespaces on a management bridge,
 * cabled in a ring (a:en1–b:en1, b:en2–c:en1, c:en2–a:en2), start on this version's protocol; then b
 * and c are restarted, one at a time, as "N+1" daemons: the test hook {@code -Drailmap.test.protocol=next}
 * makes a daemon write protocol 2 with fields and a port that protocol 1 does not know. Every daemon,
 * old or new, keeps every record and the same rail-aligned matrix throughout. Each restart is also a
 * restart with "the clock behind": the new run's record versions start again below the old run's,
 * and its record replaces the old one everywhere.
 */
@ExtendWith(NamespacesAvailable.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RollingUpgradeNamespaceTest {
    private static final List<String> NODES = List.of("a", "b", "c");
    private static final List<String> NEXT = List.of("-Drailmap.test.protocol=next");
    private static final Duration POLL = Duration.ofMillis(100);
    private static final Duration SETTLE = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The ring's matrix for ranks a, b, c (json format: cells always arrays): every cell one cable, the same at both ends. */
    private static final String MATRIX = "[[[],[\"rdma_en1\"],[\"rdma_en2\"]],[[\"rdma_en1\"],[],[\"rdma_en2\"]],"
            + "[[\"rdma_en2\"],[\"rdma_en1\"],[]]]";

    @TempDir
    static Path dir;
    private NetnsLab lab;
    private final Map<String, String> ns = new LinkedHashMap<>();
    private final Map<String, DaemonProcess> daemons = new LinkedHashMap<>();

    @BeforeAll
    void labOfThreeDaemonsOfThisVersion() throws Exception {
        lab = NetnsLab.create();
        String bridge = lab.bridge("sw");
        int host = 1;
        for (String node : NODES) {
            ns.put(node, lab.namespace(node));
            lab.plug(bridge, ns.get(node), "mgmt", "10.77.0." + host++ + "/24");
        }
        lab.cable(ns.get("a"), "en1", ns.get("b"), "en1");
        lab.cable(ns.get("b"), "en2", ns.get("c"), "en1");
        lab.cable(ns.get("c"), "en2", ns.get("a"), "en2");
        Path key = Files.writeString(dir.resolve("cluster.key"), "dXBncmFkZXMgcm9sbCwgcmVjb3JkcyBzdGF5IGluIGV2ZXJ5IG1hdHJpeA==\n");
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));
        for (String node : NODES) {
            daemons.put(node, DaemonProcess.start(lab, ns.get(node), dir, node, "--interfaces", "en*", "--assume-rdma", "en*",
                    "--probe-interval-ms", "250", "--cluster", "upgrade", "--cluster-key-file", key.toString()));
        }
    }

    @AfterAll
    void cleanUp() {
        if (lab != null) {
            lab.close();
        }
    }

    private JsonNode matrix(String node) throws Exception {
        return JSON.readTree(daemons.get(node).get("/v1/matrix?hosts=a,b,c&order=given&format=json").bodyAsString());
    }

    /** Waits until every daemon holds every node's current record and computes the ring's matrix from them. */
    private void everyRecordInEveryMatrix(String when) {
        await(when + ": every record in every daemon's matrix").atMost(SETTLE).pollInterval(POLL).ignoreExceptions().untilAsserted(() -> {
            Map<String, NodeRecord> own = new LinkedHashMap<>();
            for (String node : NODES) {
                own.put(node, daemons.get(node).record());
            }
            for (String node : NODES) {
                assertThat(daemons.get(node).snapshot().records()).as("records held by %s", node).containsExactlyElementsOf(own.values());
                assertThat(matrix(node).get("devices").toString()).as("matrix of %s", node).isEqualTo(MATRIX);
            }
        });
    }

    private void flap(String node, String port, PortRef far) {
        DaemonProcess d = daemons.get(node);
        lab.linkDown(ns.get(node), port);
        await(node + ":" + port + " down").atMost(SETTLE).pollInterval(POLL).ignoreExceptions().untilAsserted(() ->
                assertThat(d.record().port(port).orElseThrow().state()).isEqualTo(PortState.DOWN));
        lab.linkUp(ns.get(node), port);
        await(node + ":" + port + " hears " + far + " again").atMost(SETTLE).pollInterval(POLL).ignoreExceptions().untilAsserted(() ->
                assertThat(d.record().port(port).orElseThrow().neighbours()).containsExactly(far));
    }

    private static String rejected(DaemonProcess d, String reason) {
        return d.get("/metrics").bodyAsString().lines()
                .filter(l -> l.startsWith("railmap_cluster_records_rejected_total{") && l.contains("reason=\"" + reason + "\""))
                .findFirst().orElseThrow();
    }

    @Test
    void daemonsOfThisProtocolAndTheNextShareOneClusterAndEveryMatrixThroughARollingUpgrade() throws Exception {
        everyRecordInEveryMatrix("all on protocol 1");
        // b's first run changes its record a few times more than a fresh start will
        flap("b", "en2", PortRef.parse("c:en1"));
        flap("b", "en2", PortRef.parse("c:en1"));
        NodeRecord firstRun = daemons.get("b").record();

        daemons.put("b", daemons.get("b").restart(NEXT));
        everyRecordInEveryMatrix("b upgraded");

        NodeRecord secondRun = daemons.get("b").record();
        assertThat(secondRun.incarnation()).isPresent().isNotEqualTo(firstRun.incarnation());
        assertThat(secondRun.version()).as("the new run's version, lower than the old run's and taken all the same")
                .isLessThan(firstRun.version());
        assertThat(daemons.get("b").log()).contains("-Drailmap.test.protocol: speaking a simulated protocol 2 (reads 1–2)");
        for (String old : List.of("a", "c")) {
            assertThat(daemons.get(old).log()).as("log of %s", old).contains("member b (10.77.0.2:7800) writes protocol 2 (knows 1–2);"
                    + " this daemon reads 1 and takes its records without what it does not know: $.record.simulatedNext: unknown field ignored;");
        }

        daemons.put("c", daemons.get("c").restart(NEXT));
        everyRecordInEveryMatrix("b and c upgraded");

        assertThat(daemons.get("a").log()).contains("member c (10.77.0.3:7800) writes protocol 2 (knows 1–2)");
        for (String node : NODES) {
            DaemonProcess d = daemons.get(node);
            assertThat(rejected(d, "protocol")).as("at %s", node).endsWith(" 0.0");
            assertThat(rejected(d, "malformed")).as("at %s", node).endsWith(" 0.0");
        }
    }
}
