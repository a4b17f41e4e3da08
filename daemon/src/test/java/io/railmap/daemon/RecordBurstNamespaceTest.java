package io.railmap.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.railmap.daemon.testing.DaemonProcess;
import io.railmap.daemon.testing.NamespacesAvailable;
import io.railmap.daemon.testing.NetnsLab;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.PortRef;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A merge of 1,000 records must not stop the hellos: two real daemons in namespaces, a and b, joined
 * by two crossed cables (a:en6–b:en7, a:en7–b:en6) and a spare one (a:en8–b:en8, down at first), both
 * at the default hello interval (1 s, a far end forgotten after 3.5 s of silence). Daemon a runs in a
 * {@link BurstNode}, where 1,000 synthetic records arrive through its cluster member's receive path
 * as a merge delivers them, while the spare cable comes up (so that a's probe has neighbour events to
 * hand to the engine during the burst, as when a partition heals). Neither daemon may lose a far end
 * or a cable; a's API answers throughout and its {@code /healthz} stays ok.
 */
// alone: it judges a's CPU absorbing a flood; a second test JVM beside it would judge the machine (docs/testing.md)
@Tag("alone")
@ExtendWith(NamespacesAvailable.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RecordBurstNamespaceTest {
    private static final int BURST = 1_000;
    private static final Duration SETTLE = Duration.ofSeconds(60);
    /** A bound, not an expectation: the records arrive in about a second. */
    private static final Duration BURST_BOUND = Duration.ofMinutes(3);
    /** A topology line that names lost cables: {@code topology: +0, -1 (a:en6–b:en7); ...}. */
    private static final Pattern CABLES_LOST = Pattern.compile("topology: \\+.*?, -[1-9]");
    private static final Pattern LATENESS = Pattern.compile("burst-node: event loops late by at most (\\d+) ms.*");

    @TempDir
    static Path dir;
    private NetnsLab lab;
    private String nsA;
    private DaemonProcess a;
    private DaemonProcess b;

    @BeforeAll
    void twoDaemonsWithCrossedCables() throws Exception {
        lab = NetnsLab.create();
        String bridge = lab.bridge("sw");
        nsA = lab.namespace("a");
        String nsB = lab.namespace("b");
        lab.plug(bridge, nsA, "mgmt", "10.78.0.1/24");
        lab.plug(bridge, nsB, "mgmt", "10.78.0.2/24");
        lab.cable(nsA, "en6", nsB, "en7");
        lab.cable(nsA, "en7", nsB, "en6");
        lab.cable(nsA, "en8", nsB, "en8");
        lab.linkDown(nsA, "en8");
        Path key = Files.writeString(dir.resolve("cluster.key"), "YnVyc3Qgb2YgYSB0aG91c2FuZCByZWNvcmRzIHRlc3Q=\n");
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));
        String[] common = {"--interfaces", "en*", "--cluster", "burst", "--cluster-key-file", key.toString(), "--seeds",
            "10.78.0.1,10.78.0.2"};
        b = DaemonProcess.start(lab, nsB, dir, "b", with(common, "--bind", "10.78.0.2"));
        a = DaemonProcess.start(lab, nsA, dir, "a", BurstNode.class, with(common, "--bind", "10.78.0.1"));
    }

    private static String[] with(String[] common, String... more) {
        List<String> all = new ArrayList<>(List.of(common));
        all.addAll(List.of(more));
        return all.toArray(String[]::new);
    }

    @AfterAll
    void cleanUp() {
        if (lab != null) {
            lab.close();
        }
    }

    private static List<PortRef> far(NodeRecord record, String port) {
        return record.port(port).map(p -> p.neighbours()).orElse(List.of());
    }

    @Test
    void noFarEndExpiresAndNoCableFlapsWhileAThousandRecordsArrive() {
        await("both daemons hold both records and hear both crossed cables").atMost(SETTLE).ignoreExceptions().untilAsserted(() -> {
            for (DaemonProcess d : List.of(a, b)) {
                assertThat(d.snapshot().nodes()).as("records held by %s", d.node()).containsExactly("a", "b");
            }
            assertThat(far(a.record(), "en6")).containsExactly(PortRef.parse("b:en7"));
            assertThat(far(a.record(), "en7")).containsExactly(PortRef.parse("b:en6"));
            assertThat(far(b.record(), "en6")).containsExactly(PortRef.parse("a:en7"));
            assertThat(far(b.record(), "en7")).containsExactly(PortRef.parse("a:en6"));
            assertThat(a.log()).contains("topology: ").contains("2 cables among 2 nodes");
        });
        a.tell("lateness"); // the loops' lateness is measured from here
        await("a reports how late its event loops ran while starting").atMost(SETTLE).until(() -> LATENESS.matcher(a.log()).find());
        int markA = a.log().length();
        int markB = b.log().length();

        a.tell("burst " + BURST + " 4");
        lab.linkUp(nsA, "en8");

        List<String> unanswered = new ArrayList<>();
        await("the records arrive at a").atMost(BURST_BOUND).pollInterval(Duration.ofMillis(250)).until(() -> {
            // the API answers all along, and a is healthy
            for (String uri : List.of("/healthz", "/metrics")) {
                try {
                    int status = a.get(uri).statusCode();
                    if (status != 200) {
                        unanswered.add(uri + " " + status);
                    }
                } catch (IllegalStateException e) {
                    unanswered.add(e.getMessage());
                }
            }
            return a.log().substring(markA).contains("burst-node: " + BURST + " records arrived");
        });
        assertThat(a.log().substring(markA)).contains("records arrived in").contains(" 0 rejected");
        await("a holds every record, its topology has them all, and the spare cable is found at both ends").atMost(SETTLE)
                .ignoreExceptions().untilAsserted(() -> {
                    assertThat(a.snapshot().records()).hasSize(BURST + 2);
                    assertThat(a.log().substring(markA)).contains("among " + (BURST + 2) + " nodes");
                    assertThat(far(a.record(), "en8")).containsExactly(PortRef.parse("b:en8"));
                    assertThat(far(b.record(), "en8")).containsExactly(PortRef.parse("a:en8"));
                });
        a.tell("lateness");
        await("a reports how late its event loops ran").atMost(SETTLE).until(() -> LATENESS.matcher(a.log().substring(markA)).find());

        // a far end that went silent during the burst is forgotten within 3.5 s of its last hello
        await("no far end lost and no cable lost, for longer than a far end lives").during(Duration.ofSeconds(5)).atMost(SETTLE)
                .pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
                    for (DaemonProcess d : List.of(a, b)) {
                        String since = d.log().substring(d == a ? markA : markB);
                        assertThat(since).as("log of %s", d.node()).doesNotContain(" lost (");
                        assertThat(CABLES_LOST.matcher(since).find()).as("log of %s names a lost cable:%n%s", d.node(), since).isFalse();
                    }
                });
        assertThat(unanswered).as("a's /healthz and /metrics during the burst").isEmpty();
        Matcher late = LATENESS.matcher(a.log().substring(markA));
        while (late.find()) {
            System.out.println("RecordBurstNamespaceTest: " + late.group());
        }
    }
}
