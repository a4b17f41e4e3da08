package io.railmap.daemon.probe;

import io.railmap.daemon.testing.NetnsLab;
import io.railmap.daemon.testing.NamespacesAvailable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The probe with real sockets: two nodes, each a JVM in its own network namespace, joined by two
 * crossed cables (veth pairs): a:en6 to b:en7 and a:en7 to b:en6. Each node's probe has one
 * receiving socket bound to the wildcard address and joined on both ports, so only the packet can
 * say which port a hello arrived on.
 *
 * <p>Runs wherever namespaces can be made (Linux, as root, with iproute2); elsewhere every test is
 * skipped with the reason.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(NamespacesAvailable.class)
class ProbeNamespaceTest {
    /** Bound on every wait; generous, since a JVM starting on a loaded machine is slow. */
    private static final Duration WAIT = Duration.ofSeconds(30);
    /** TTL 2 s (8 × the lab's 250 ms): long enough that a goodbye can never be mistaken for expiry. */
    private static final double TTL_FACTOR = 8;
    private static final Map<String, List<String>> A_CROSSED = Map.of("en6", List.of("b:en7"), "en7", List.of("b:en6"));
    private static final Map<String, List<String>> B_CROSSED = Map.of("en6", List.of("a:en7"), "en7", List.of("a:en6"));

    private NetnsLab lab;
    private String nsA;
    private String nsB;
    private LabNode a;
    private LabNode b;
    private Path logs;

    @BeforeAll
    void startTheLab() throws IOException {
        logs = Files.createDirectories(Path.of("target", "probe-lab"));
        lab = NetnsLab.create();
        nsA = lab.namespace("a");
        nsB = lab.namespace("b");
        lab.cable(nsA, "en6", nsB, "en7");
        lab.cable(nsA, "en7", nsB, "en6");
        a = node(nsA, "a");
        b = node(nsB, "b");
    }

    @AfterAll
    void endEverythingStarted() {
        try {
            if (a != null) {
                a.close();
            }
        } finally {
            try {
                if (b != null) {
                    b.close();
                }
            } finally {
                if (lab != null) {
                    lab.close();
                }
            }
        }
    }

    /** Every test starts from two running nodes with both cables up. */
    @BeforeEach
    void bothNodesRunAndBothCablesAreUp() throws IOException {
        for (String ns : List.of(nsA, nsB)) {
            lab.linkUp(ns, "en6");
            lab.linkUp(ns, "en7");
        }
        if (!a.alive()) {
            a.close();
            a = node(nsA, "a");
        }
        if (!b.alive()) {
            b.close();
            b = node(nsB, "b");
        }
    }

    @Test
    void eachPortHearsTheFarEndOfItsOwnCable() {
        awaitCrossed();

        assertThat(a.dropped(DropReason.SELF)).as("hellos of a looped back to a").isZero();
        assertThat(b.dropped(DropReason.SELF)).as("hellos of b looped back to b").isZero();
    }

    @Test
    void aLinkTakenDownIsForgottenOnBothSidesAndFoundAgainWhenItComesBack() {
        awaitCrossed();
        int markA = a.mark();
        int markB = b.mark();

        lab.linkDown(nsA, "en6");

        await("a and b forget the cable a:en6-b:en7").atMost(WAIT).untilAsserted(() -> {
            assertThat(a.ports()).isEqualTo(Map.of("en7", List.of("b:en6")));
            assertThat(b.ports()).isEqualTo(Map.of("en6", List.of("a:en7")));
        });
        assertThat(a.eventsSince(markA)).contains("lost en6 b:en7 CARRIER");
        // A veth's far end loses carrier too; had it not, the TTL would have run out.
        assertThat(b.eventsSince(markB)).containsAnyOf("lost en7 a:en6 CARRIER", "lost en7 a:en6 EXPIRED");

        lab.linkUp(nsA, "en6");

        awaitCrossed();
    }

    @Test
    void aHelloFromAnotherClusterIsDroppedAndCounted() {
        awaitCrossed();
        long before = a.dropped(DropReason.CLUSTER);

        b.command("foreign en6 other");

        await("a counts the foreign hello").atMost(WAIT).untilAsserted(() -> {
            a.command("dump");
            assertThat(a.dropped(DropReason.CLUSTER)).isEqualTo(before + 1);
        });
        assertThat(a.ports()).isEqualTo(A_CROSSED);
    }

    @Test
    void aNodeStoppedWithSigtermSaysGoodbyeAndIsForgottenAtOnce() throws InterruptedException {
        awaitCrossed();
        int mark = a.mark();

        b.terminate();

        await("a forgets b").atMost(WAIT).until(() -> a.ports().isEmpty());
        assertThat(a.eventsSince(mark)).containsExactlyInAnyOrder("lost en6 b:en7 GOODBYE", "lost en7 b:en6 GOODBYE");
    }

    @Test
    void aNodeKilledWithoutGoodbyeIsForgottenWhenItsTtlRunsOut() throws InterruptedException {
        awaitCrossed();
        int mark = a.mark();

        b.kill();

        await("a forgets b").atMost(WAIT).until(() -> a.ports().isEmpty());
        assertThat(a.eventsSince(mark)).containsExactlyInAnyOrder("lost en6 b:en7 EXPIRED", "lost en7 b:en6 EXPIRED");
    }

    private void awaitCrossed() {
        await("crossed cables seen from both ends").atMost(WAIT).untilAsserted(() -> {
            assertThat(a.ports()).isEqualTo(A_CROSSED);
            assertThat(b.ports()).isEqualTo(B_CROSSED);
        });
    }

    private LabNode node(String ns, String name) throws IOException {
        return LabNode.start(lab, ns, "lab", name, "en6,en7", TTL_FACTOR, logs.resolve(name + "-" + System.nanoTime() + ".log"));
    }
}
