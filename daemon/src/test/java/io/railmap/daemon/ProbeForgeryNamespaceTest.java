package io.railmap.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.railmap.daemon.cluster.config.ClusterKey;
import io.railmap.daemon.probe.ProbeCodec;
import io.railmap.daemon.probe.ProbeDatagram;
import io.railmap.daemon.probe.ProbeKey;
import io.railmap.daemon.testing.Attacks;
import io.railmap.daemon.testing.DaemonProcess;
import io.railmap.daemon.testing.NamespacesAvailable;
import io.railmap.daemon.testing.NetnsLab;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.topology.Cable;
import io.railmap.matrix.topology.Topology;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The forgery attacks of issue 8 against two real daemons with a cluster key, in namespaces: a and b
 * joined by two crossed cables (a:en6–b:en7, a:en7–b:en6) and a management bridge; namespace m, the
 * attacker's host, has spare cables to a:en8 and b:en9.
 *
 * <ul>
 *   <li>The swap attack: an unprivileged process (uid 65534) on b sends, on both of b's cable ports,
 *       hellos and goodbyes that would turn the two real cables into a:en6–b:en6 and a:en7–b:en7,
 *       unauthenticated and tagged with a wrong key, with the largest incarnation and TTL. Its
 *       multicast loops back to b's own daemon and crosses the cables to a. No forged cable may ever
 *       appear in either daemon's topology, and the real ones stay.</li>
 *   <li>Replay: the attacker on m captures a's authenticated hellos on a:en8's cable, waits, and sends
 *       them to b over b:en9's cable: b must drop them as replays and never name a:en8 as a far end.</li>
 * </ul>
 */
@ExtendWith(NamespacesAvailable.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ProbeForgeryNamespaceTest {
    private static final String KEY = "Zm9yZ2VyeSBzdWl0ZTogdGhlIGxhYidzIGNsdXN0ZXIga2V5";
    private static final Duration SETTLE = Duration.ofSeconds(40);
    private static final List<Cable> REAL = List.of(cable("a:en6", "b:en7"), cable("a:en7", "b:en6"));
    private static final List<Cable> FORGED = List.of(cable("a:en6", "b:en6"), cable("a:en7", "b:en7"));

    @TempDir
    static Path dir;
    private NetnsLab lab;
    private Attacks attacks;
    private String nsA;
    private String nsB;
    private String nsM;
    private DaemonProcess a;
    private DaemonProcess b;

    @BeforeAll
    void labWithTwoKeyedDaemonsAndAnAttacker() throws Exception {
        lab = NetnsLab.create();
        attacks = new Attacks();
        String bridge = lab.bridge("sw");
        nsA = lab.namespace("a");
        nsB = lab.namespace("b");
        nsM = lab.namespace("m");
        lab.plug(bridge, nsA, "mgmt", "10.78.0.1/24");
        lab.plug(bridge, nsB, "mgmt", "10.78.0.2/24");
        lab.cable(nsA, "en6", nsB, "en7");
        lab.cable(nsA, "en7", nsB, "en6");
        lab.cable(nsA, "en8", nsM, "x1");
        lab.cable(nsB, "en9", nsM, "x2");
        Path key = Files.writeString(dir.resolve("cluster.key"), KEY + "\n");
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));
        a = DaemonProcess.start(lab, nsA, dir, "a", flags("10.78.0.1", key));
        b = DaemonProcess.start(lab, nsB, dir, "b", flags("10.78.0.2", key));
    }

    private static String[] flags(String bind, Path key) {
        return new String[] {"--interfaces", "en*", "--probe-interval-ms", "100", "--cluster", "lab", "--cluster-timing", "lab",
            "--bind", bind, "--seeds", "10.78.0.1,10.78.0.2", "--cluster-key-file", key.toString()};
    }

    @AfterAll
    void cleanUp() throws Exception {
        Attacks.closeAll(lab, attacks, a, b);
    }

    @BeforeEach
    void bothDaemonsSeeTheRealCables() {
        await("both daemons see the two real cables").atMost(SETTLE).pollInterval(Duration.ofMillis(200)).ignoreExceptions()
                .untilAsserted(() -> {
                    assertThat(cables(a)).containsAll(REAL);
                    assertThat(cables(b)).containsAll(REAL);
                });
    }

    @Test
    void anUnprivilegedUsersSwapAttackNeverConfirmsACableThatDoesNotExist() throws Exception {
        long loopedBefore = Attacks.dropped(b, "looped");
        List<Path> onEn6 = forged("en6", List.of(hello("a", "en6", 600_000), hello("a", "en7", 0), hello("b", "en7", 600_000),
                hello("b", "en6", 0)));
        List<Path> onEn7 = forged("en7", List.of(hello("a", "en7", 600_000), hello("a", "en6", 0), hello("b", "en6", 600_000),
                hello("b", "en7", 0)));
        Process p6 = attacks.start(lab, nsB, true, send("en6", onEn6));
        Process p7 = attacks.start(lab, nsB, true, send("en7", onEn7));

        List<String> seen = new ArrayList<>();
        long polls = 0;
        while (p6.isAlive() || p7.isAlive()) {
            for (DaemonProcess d : List.of(a, b)) {
                List<Cable> now = cables(d);
                now.stream().filter(FORGED::contains).forEach(c -> seen.add(d.node() + " saw " + c));
            }
            polls++;
            p6.waitFor(100, TimeUnit.MILLISECONDS);
        }
        assertThat(p6.exitValue()).as("the attacker ran: %s", attacks.log()).isZero();
        assertThat(p7.exitValue()).isZero();
        assertThat(polls).isGreaterThan(5);
        assertThat(seen).as("forged cables seen during the attack").isEmpty();
        assertThat(cables(a)).containsAll(REAL).doesNotContainAnyElementsOf(FORGED);
        assertThat(cables(b)).containsAll(REAL).doesNotContainAnyElementsOf(FORGED);
        assertThat(Attacks.dropped(b, "looped") - loopedBefore).as("b's own copies of the forgeries").isPositive();
        assertThat(Attacks.dropped(a, "unauthenticated")).as("a heard the untagged forgeries").isPositive();
        assertThat(Attacks.dropped(a, "bad-tag")).as("a heard the forgeries tagged with another key").isPositive();
    }

    @Test
    void capturedHellosSentAgainLaterAreDroppedAsReplays() throws Exception {
        Path captured = attacks.directory("captured");
        Process capture = attacks.start(lab, nsM, false, "capture", "x1", "5", "20", captured.toString());
        assertThat(capture.waitFor(20, TimeUnit.SECONDS)).isTrue();
        List<Path> hellos;
        try (Stream<Path> files = Files.list(captured)) {
            hellos = files.sorted().toList();
        }
        assertThat(hellos).as("a's hellos heard on its spare cable: %s", attacks.log()).isNotEmpty();
        // the captures are real, authenticated hellos of a:en8
        ProbeDatagram first = ProbeCodec.decode(Files.readAllBytes(hellos.get(0)), Optional.of(probeKey()));
        assertThat(first.farEnd()).isEqualTo(PortRef.parse("a:en8"));

        // a keeps sending on three ports, 10 a second each: wait until its counter is far past the capture
        long sentBefore = sent(a);
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200)).until(() -> sent(a) > sentBefore + 200);
        long replaysBefore = Attacks.dropped(b, "replay");
        Process replay = attacks.start(lab, nsM, false, send("x2", hellos));
        List<String> seen = new ArrayList<>();
        while (replay.isAlive()) {
            b.record().port("en9").ifPresent(p -> p.neighbours().forEach(n -> seen.add(n.toString())));
            replay.waitFor(100, TimeUnit.MILLISECONDS);
        }

        assertThat(replay.exitValue()).isZero();
        assertThat(seen).as("far ends b:en9 heard during the replay").isEmpty();
        assertThat(Attacks.dropped(b, "replay") - replaysBefore).isGreaterThanOrEqualTo(hellos.size());
    }

    private static String[] send(String port, List<Path> files) {
        List<String> args = new ArrayList<>(List.of("send", port, "30", "50"));
        files.forEach(f -> args.add(f.toString()));
        return args.toArray(String[]::new);
    }

    /** Each forgery twice: without a tag, and tagged with a key that is not the cluster's. */
    private List<Path> forged(String port, List<ProbeDatagram> hellos) throws Exception {
        ProbeKey wrong = ProbeKey.derive(ClusterKey.parse("wrong", "d3Jvbmcga2V5IG9mIGFuIGF0dGFja2VyIDAxMjM0NTY3"));
        List<Path> files = new ArrayList<>();
        for (int i = 0; i < hellos.size(); i++) {
            files.add(attacks.file(port + "-" + i + "-plain", ProbeCodec.encode(hellos.get(i), Optional.empty())));
            files.add(attacks.file(port + "-" + i + "-tagged", ProbeCodec.encode(hellos.get(i), Optional.of(wrong))));
        }
        return files;
    }

    private static ProbeDatagram hello(String node, String port, long ttlMs) {
        return new ProbeDatagram("lab", node, port, Optional.of("rdma_" + port), "02:00:00:00:00:09", Long.MAX_VALUE - 1,
                Long.MAX_VALUE - 1, "10.78.0.9:7246", ttlMs);
    }

    private static ProbeKey probeKey() {
        return ProbeKey.derive(ClusterKey.parse("lab key", KEY));
    }

    private static long sent(DaemonProcess d) {
        return d.get("/metrics").bodyAsString().lines().filter(l -> l.startsWith("railmap_probe_sent_total{"))
                .mapToLong(l -> (long) Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }

    private static List<Cable> cables(DaemonProcess d) {
        return Topology.of(d.snapshot()).cables();
    }

    private static Cable cable(String x, String y) {
        return new Cable(PortRef.parse(x), PortRef.parse(y));
    }
}
