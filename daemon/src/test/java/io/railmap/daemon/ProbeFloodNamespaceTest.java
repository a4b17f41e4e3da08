package io.railmap.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.railmap.daemon.probe.ProbeLimits;
import io.railmap.daemon.testing.Attacks;
import io.railmap.daemon.testing.DaemonProcess;
import io.railmap.daemon.testing.NamespacesAvailable;
import io.railmap.daemon.testing.NetnsLab;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.PortRef;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Attacks on daemons without a cluster key, where anyone on a cable can forge a hello: a and b joined
 * by two crossed cables (a:en6–b:en7, a:en7–b:en6); namespace m, the attacker's host, on a spare
 * cable to a:en8.
 * <ul>
 *   <li>The distinct-far-end flood: m sends 20,000 hellos, each naming another far end with the
 *       longest TTL. a holds at most {@link ProbeLimits#DEFAULT_FAR_ENDS_PER_PORT} of them, its real
 *       cables never expire meanwhile, and its live heap after a full collection grows by less than
 *       {@value #MAX_LIVE_HEAP_GROWTH_KB} kB ({@link Attacks#liveHeapKb}; the probe holds at most about
 *       6 MB whatever arrives, PROBE.md "Bounds"; the bound is loose so that it never flakes). RSS
 *       and live heap are printed.</li>
 *   <li>Without a key an unprivileged user's looped-back forgery still never reaches its own daemon.</li>
 * </ul>
 */
// alone: it judges a's CPU absorbing a flood; a second test JVM beside it would judge the machine (docs/testing.md)
@Tag("alone")
@ExtendWith(NamespacesAvailable.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ProbeFloodNamespaceTest {
    private static final int FLOOD = 20_000;
    /** How much a's live heap may grow through the flood, in kB: 32 MB. */
    private static final long MAX_LIVE_HEAP_GROWTH_KB = 32 * 1024;

    @TempDir
    static Path dir;
    private NetnsLab lab;
    private Attacks attacks;
    private String nsB;
    private String nsM;
    private DaemonProcess a;
    private DaemonProcess b;

    @BeforeAll
    void labWithTwoDaemonsAndAnAttacker() throws Exception {
        lab = NetnsLab.create();
        attacks = new Attacks();
        String nsA = lab.namespace("a");
        nsB = lab.namespace("b");
        nsM = lab.namespace("m");
        lab.cable(nsA, "en6", nsB, "en7");
        lab.cable(nsA, "en7", nsB, "en6");
        lab.cable(nsA, "en8", nsM, "x1");
        a = DaemonProcess.start(lab, nsA, dir, "a", "--interfaces", "en*", "--cluster", "lab");
        b = DaemonProcess.start(lab, nsB, dir, "b", "--interfaces", "en*", "--cluster", "lab");
    }

    @AfterAll
    void cleanUp() throws Exception {
        Attacks.closeAll(lab, attacks, a, b);
    }

    @BeforeEach
    void aHearsItsRealCables() {
        await("a hears b on both cables").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).ignoreExceptions()
                .untilAsserted(() -> assertThat(realFarEnds(a.record())).containsExactly("b:en7", "b:en6"));
    }

    @Test
    void aFloodOfDistinctFarEndsIsBoundedAndTheRealCablesNeverExpire() throws Exception {
        long rssBefore = Attacks.rssKb(a.pid());
        long liveBefore = Attacks.liveHeapKb(a.pid());
        Path template = attacks.file("template", ("{\"cluster\":\"lab\",\"node\":\"forged-%d\",\"port\":\"x1\","
                + "\"mac\":\"02:00:00:00:00:09\",\"incarnation\":1,\"seq\":1,\"management\":\"10.0.0.9:7246\",\"ttlMs\":600000}")
                .getBytes(StandardCharsets.UTF_8));
        Process flood = attacks.start(lab, nsM, false, "flood", "x1", Integer.toString(FLOOD), template.toString());

        List<String> missing = new ArrayList<>();
        int polls = 0;
        while (flood.isAlive() && polls < 600) {
            List<String> real = realFarEnds(a.record());
            if (!real.equals(List.of("b:en7", "b:en6"))) {
                missing.add(real.toString());
            }
            polls++;
            flood.waitFor(50, TimeUnit.MILLISECONDS);
        }
        assertThat(flood.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(flood.exitValue()).as("the flood ran: %s", attacks.log()).isZero();

        NodeRecord after = a.record();
        assertThat(missing).as("moments a's real cables were missing during the flood").isEmpty();
        assertThat(realFarEnds(after)).containsExactly("b:en7", "b:en6");
        assertThat(after.port("en8").orElseThrow().neighbours()).hasSizeLessThanOrEqualTo(ProbeLimits.DEFAULT_FAR_ENDS_PER_PORT);
        assertThat(Attacks.dropped(a, "table-full")).isPositive();
        assertThat(a.log()).containsOnlyOnce("en8 hears as many far ends as the probe holds");
        assertThat(a.get("/healthz").statusCode()).isEqualTo(200);
        long liveAfter = Attacks.liveHeapKb(a.pid());
        System.err.printf("flood of %d distinct far ends: a held %d on en8, dropped %d as table-full; RSS %d -> %d kB;"
                + " live heap %d -> %d kB%n", FLOOD, after.port("en8").orElseThrow().neighbours().size(), Attacks.dropped(a, "table-full"),
                rssBefore, Attacks.rssKb(a.pid()), liveBefore, liveAfter);
        assertThat(liveAfter - liveBefore).as("growth of a's live heap through the flood, kB").isLessThan(MAX_LIVE_HEAP_GROWTH_KB);
    }

    @Test
    void withoutAKeyAnUnprivilegedUsersLoopedBackForgeryNeverReachesItsOwnDaemon() throws Exception {
        byte[] forged = ("{\"cluster\":\"lab\",\"node\":\"a\",\"port\":\"en6\",\"mac\":\"02:00:00:00:00:09\","
                + "\"incarnation\":9223372036854775806,\"seq\":9223372036854775806,\"management\":\"10.0.0.9:7246\",\"ttlMs\":600000}")
                .getBytes(StandardCharsets.UTF_8);
        byte[] datagram = java.nio.ByteBuffer.allocate(8 + forged.length).put(new byte[] {'R', 'M', 'A', 'P', 2, 1})
                .putShort((short) forged.length).put(forged).array();
        Path file = attacks.file("looped", datagram);
        long loopedBefore = Attacks.dropped(b, "looped");
        Process p = attacks.start(lab, nsB, true, "send", "en6", "20", "50", file.toString());

        List<String> heard = new ArrayList<>();
        while (p.isAlive()) {
            b.record().port("en6").ifPresent(port -> port.neighbours().forEach(n -> heard.add(n.toString())));
            p.waitFor(50, TimeUnit.MILLISECONDS);
        }
        assertThat(p.exitValue()).as("the attacker ran: %s", attacks.log()).isZero();
        assertThat(heard).as("far ends b:en6 heard while its own user forged a:en6").containsOnly("a:en7");
        assertThat(Attacks.dropped(b, "looped") - loopedBefore).isGreaterThanOrEqualTo(20);
    }

    private static List<String> realFarEnds(NodeRecord a) {
        List<String> out = new ArrayList<>();
        for (String port : List.of("en6", "en7")) {
            a.port(port).ifPresent(p -> p.neighbours().stream().map(PortRef::toString).forEach(out::add));
        }
        return out;
    }
}
