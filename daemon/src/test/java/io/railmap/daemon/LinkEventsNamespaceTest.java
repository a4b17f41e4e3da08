package io.railmap.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.railmap.daemon.testing.DaemonProcess;
import io.railmap.daemon.testing.NamespacesAvailable;
import io.railmap.daemon.testing.NetnsLab;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Port;
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
 * Two real daemons in namespaces joined by two cables (a:en6–b:en6, a:en7–b:en7) that poll
 * discovery only once a minute ({@code --link-poll-ms 60000 --link-recheck-ms 60000}) and whose
 * far ends outlive their last hello by 70 s ({@code --probe-interval-ms 20000}): a pulled cable
 * still leaves both records within seconds, because each daemon learns of the carrier change from
 * the kernel ({@code ip monitor}); and a monitor that is killed is started again and catches up
 * with what changed while it was away.
 */
@ExtendWith(NamespacesAvailable.class)
class LinkEventsNamespaceTest {
    /** Well below the minute of the polls and the 70 s TTL of a far end. */
    private static final Duration BY_EVENT = Duration.ofSeconds(15);
    /** The first hellos: fast start sends one every 5 s (a quarter of the interval). */
    private static final Duration FIRST_HELLOS = Duration.ofSeconds(45);
    private static final String[] SLOW = {"--interfaces", "en*", "--probe-interval-ms", "20000", "--link-poll-ms", "60000",
        "--link-recheck-ms", "60000"};

    @TempDir
    Path dir;
    private NetnsLab lab;
    private DaemonProcess a;
    private DaemonProcess b;
    private String nsA;
    private String nsB;

    @BeforeEach
    void twoNodesTwoCables() throws Exception {
        lab = NetnsLab.create();
        nsA = lab.namespace("a");
        nsB = lab.namespace("b");
        lab.cable(nsA, "en6", nsB, "en6");
        lab.cable(nsA, "en7", nsB, "en7");
        a = DaemonProcess.start(lab, nsA, dir, "a", SLOW);
        b = DaemonProcess.start(lab, nsB, dir, "b", SLOW);
        await("both cables in both records").atMost(FIRST_HELLOS).pollInterval(Duration.ofMillis(200)).ignoreExceptions()
                .untilAsserted(() -> {
                    for (String port : List.of("en6", "en7")) {
                        assertThat(far(a.record(), port)).containsExactly(PortRef.parse("b:" + port));
                        assertThat(far(b.record(), port)).containsExactly(PortRef.parse("a:" + port));
                    }
                });
    }

    @AfterEach
    void cleanUp() {
        if (lab != null) {
            lab.close();
        }
    }

    private static List<PortRef> far(NodeRecord record, String port) {
        return record.port(port).map(Port::neighbours).orElse(List.of());
    }

    private static PortState state(DaemonProcess d, String port) {
        return d.record().port(port).orElseThrow().state();
    }

    @Test
    void aPulledCableLeavesBothRecordsByEventLongBeforeAnyPollAndComesBackByEvent() {
        assertThat(a.log()).contains("link events read from ip -o monitor link address");

        lab.linkDown(nsB, "en6");

        await("a:en6 without carrier and b:en6 down, both without the far end").atMost(BY_EVENT).pollInterval(Duration.ofMillis(100))
                .ignoreExceptions().untilAsserted(() -> {
                    assertThat(state(a, "en6")).isEqualTo(PortState.DOWN);
                    assertThat(state(b, "en6")).isEqualTo(PortState.DOWN);
                    assertThat(far(a.record(), "en6")).isEmpty();
                    assertThat(far(b.record(), "en6")).isEmpty();
                });
        assertThat(far(a.record(), "en7")).containsExactly(PortRef.parse("b:en7"));

        lab.linkUp(nsB, "en6");

        await("en6 up again on both sides").atMost(BY_EVENT).pollInterval(Duration.ofMillis(100)).ignoreExceptions()
                .untilAsserted(() -> {
                    assertThat(state(a, "en6")).isNotEqualTo(PortState.DOWN);
                    assertThat(state(b, "en6")).isNotEqualTo(PortState.DOWN);
                });
    }

    @Test
    void aKilledMonitorIsStartedAgainAndCatchesUpWithWhatChangedMeanwhile() {
        ProcessHandle monitor = ProcessHandle.of(a.pid()).orElseThrow().children()
                .filter(p -> p.info().commandLine().orElse("").contains("monitor link address")).findFirst().orElseThrow();

        monitor.destroyForcibly();
        // while no monitor listens (it is started again after a back-off of a second): no event for this
        lab.linkDown(nsA, "en7");

        await("a:en7 down, seen by the poll made when the monitor runs again").atMost(BY_EVENT).pollInterval(Duration.ofMillis(100))
                .ignoreExceptions().untilAsserted(() -> assertThat(state(a, "en7")).isEqualTo(PortState.DOWN));
        assertThat(a.log()).contains("link events unavailable: ip -o monitor link address exited", "link events read again from ip -o monitor");
        assertThat(ProcessHandle.of(a.pid()).orElseThrow().children()
                .filter(p -> p.info().commandLine().orElse("").contains("monitor link address")).count()).isEqualTo(1);
    }
}
