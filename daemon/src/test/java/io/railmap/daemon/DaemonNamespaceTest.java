package io.railmap.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.railmap.daemon.testing.DaemonProcess;
import io.railmap.daemon.testing.NamespacesAvailable;
import io.railmap.daemon.testing.NetnsLab;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.model.PortState;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two real daemons in two network namespaces joined by two crossed veth cables
 * (a:en6–b:en7, a:en7–b:en6): each record names the right far end of each port, and pulling one
 * cable end removes that neighbour on both sides.
 */
@ExtendWith(NamespacesAvailable.class)
class DaemonNamespaceTest {
    private static final Duration FEW_SECONDS = Duration.ofSeconds(15);

    @TempDir
    Path dir;
    private NetnsLab lab;
    private DaemonProcess a;
    private DaemonProcess b;
    private String nsA;
    private String nsB;

    @BeforeEach
    void twoNodesTwoCrossedCables() throws Exception {
        lab = NetnsLab.create();
        nsA = lab.namespace("a");
        nsB = lab.namespace("b");
        lab.cable(nsA, "en6", nsB, "en7");
        lab.cable(nsA, "en7", nsB, "en6");
        a = DaemonProcess.start(lab, nsA, dir, "a", "--interfaces", "en*", "--probe-interval-ms", "250");
        b = DaemonProcess.start(lab, nsB, dir, "b", "--interfaces", "en*", "--probe-interval-ms", "250");
    }

    @AfterEach
    void cleanUp() {
        if (lab != null) {
            lab.close();
        }
    }

    private static List<PortRef> far(NodeRecord record, String port) {
        return record.port(port).map(p -> p.neighbours()).orElse(List.of());
    }

    @Test
    void eachPortNamesTheFarEndOfItsOwnCableAndAPulledCableLeavesBothSides() {
        await("a's and b's records name the far ends").atMost(FEW_SECONDS).pollInterval(Duration.ofMillis(200))
                .ignoreExceptions().untilAsserted(() -> {
                    NodeRecord ra = a.record();
                    NodeRecord rb = b.record();
                    assertThat(far(ra, "en6")).containsExactly(PortRef.parse("b:en7"));
                    assertThat(far(ra, "en7")).containsExactly(PortRef.parse("b:en6"));
                    assertThat(far(rb, "en7")).containsExactly(PortRef.parse("a:en6"));
                    assertThat(far(rb, "en6")).containsExactly(PortRef.parse("a:en7"));
                });

        lab.linkDown(nsA, "en6");

        await("the pulled cable leaves both records").atMost(FEW_SECONDS).pollInterval(Duration.ofMillis(100))
                .ignoreExceptions().untilAsserted(() -> {
                    NodeRecord ra = a.record();
                    NodeRecord rb = b.record();
                    assertThat(far(ra, "en6")).isEmpty();
                    assertThat(ra.port("en6").orElseThrow().state()).isEqualTo(PortState.DOWN);
                    assertThat(far(rb, "en7")).isEmpty();
                    assertThat(far(ra, "en7")).containsExactly(PortRef.parse("b:en6"));
                    assertThat(far(rb, "en6")).containsExactly(PortRef.parse("a:en7"));
                });

        lab.linkUp(nsA, "en6");

        await("the plugged cable returns").atMost(FEW_SECONDS).pollInterval(Duration.ofMillis(200))
                .ignoreExceptions().untilAsserted(() -> assertThat(far(b.record(), "en7")).containsExactly(PortRef.parse("a:en6")));
    }

    @Test
    void aStoppedDaemonSaysGoodbyeSoItsNeighboursForgetItAtOnce() throws Exception {
        // both of b's ports must have heard a before a stops, or a port that never heard it has no goodbye to log
        await().atMost(FEW_SECONDS).pollInterval(Duration.ofMillis(200)).ignoreExceptions().untilAsserted(() -> {
            assertThat(far(b.record(), "en6")).containsExactly(PortRef.parse("a:en7"));
            assertThat(far(b.record(), "en7")).containsExactly(PortRef.parse("a:en6"));
        });

        a.terminate();

        // TTL is 3.5 × 250 ms; the goodbye is faster, and the log says which it was
        await().atMost(FEW_SECONDS).pollInterval(Duration.ofMillis(50))
                .untilAsserted(() -> assertThat(b.record().ports()).allSatisfy(p -> assertThat(p.neighbours()).isEmpty()));
        assertThat(b.log()).contains("neighbour a:en7 lost (goodbye)", "neighbour a:en6 lost (goodbye)");
        assertThat(a.log()).contains("railmapd a stopping");
    }
}
