package io.railmap.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.railmap.daemon.api.ApiVerticle;
import io.railmap.daemon.api.HttpLimits;
import io.railmap.daemon.cluster.Membership;
import io.railmap.daemon.engine.Engine;
import io.railmap.daemon.events.ChangeFeed;
import io.railmap.daemon.events.EventLog;
import io.railmap.daemon.node.Rebuilds;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.model.PortState;
import io.vertx.core.Vertx;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code railmap matrix --watch -o FILE --on-change CMD} as a process of its own against a real API
 * whose engine, change feed and event log are wired as in railmapd: one write at start, one rewrite
 * per change of the file (none for a change that leaves it as it is), the command after each, never a
 * partial file, and a clean end on SIGINT.
 */
class WatchRewriteTest {
    private static final Duration BOUND = Duration.ofSeconds(20);
    @TempDir
    Path dir;
    private Vertx vertx;
    private Rebuilds rebuilds;
    private Engine engine;
    private String http;

    private static Port port(String node, String netdev, String... far) {
        return new Port(node, netdev, Optional.of("rdma_" + netdev), 1, PortKind.THUNDERBOLT, Optional.of(80.0), PortState.ACTIVE,
                Optional.empty(), Stream.of(far).map(PortRef::parse).toList());
    }

    @BeforeEach
    void daemon() throws Exception {
        engine = new Engine("a");
        EventLog events = new EventLog();
        ChangeFeed feed = new ChangeFeed(events);
        rebuilds = new Rebuilds(() -> feed.observe(engine.snapshot()));
        engine.onChange(rebuilds::request);
        engine.ports(List.of(port("a", "en6", "b:en7"), port("a", "en7", "b:en6"), port("a", "en8")));
        engine.neighbours(Map.of("en6", List.of(PortRef.parse("b:en7")), "en7", List.of(PortRef.parse("b:en6"))));
        engine.accept(new NodeRecord("b", 3, List.of(port("b", "en7", "a:en6"), port("b", "en6", "a:en7"))));
        vertx = Vertx.vertx();
        ApiVerticle api = new ApiVerticle(engine, () -> new Membership("test", 1, List.of()), events, List::of,
                new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), HttpLimits.DEFAULTS, "127.0.0.1", 0, Optional.empty());
        vertx.deployVerticle(api).await(10, TimeUnit.SECONDS);
        http = "http://127.0.0.1:" + api.actualPort();
    }

    @AfterEach
    void stop() throws Exception {
        rebuilds.close();
        vertx.close().await(10, TimeUnit.SECONDS);
    }

    private static List<String> lines(Path file) throws Exception {
        return Files.exists(file) ? Files.readAllLines(file) : List.of();
    }

    @Test
    void theFileFollowsTheCablesOneRewritePerChangeAndSigintEndsItCleanly() throws Exception {
        Path devices = dir.resolve("devices.json");
        Path ran = dir.resolve("ran.log");
        Path err = dir.resolve("err.log");
        Process p = new ProcessBuilder(CliProcess.shell("exec \"$@\"", List.of(), "matrix", "--daemon", http, "--hosts", "a,b", "--watch",
                "-o", devices.toString(), "--on-change", "wc -c < " + devices + " >> " + ran))
                .redirectError(err.toFile()).redirectOutput(dir.resolve("out.log").toFile()).start();
        try {
            await("the first write and its command").atMost(BOUND).until(() -> lines(ran).size() == 1);
            assertThat(Files.readString(devices)).isEqualTo("[\n  [null, [\"rdma_en6\",\"rdma_en7\"]],\n  [[\"rdma_en7\",\"rdma_en6\"], null]\n]\n");
            assertThat(Files.readString(err)).contains("railmap: following railmapd at " + http, "railmap: wrote " + devices);

            // a change that leaves the matrix as it is (a port that is no rail goes down): no rewrite
            engine.ports(List.of(port("a", "en6", "b:en7"), port("a", "en7", "b:en6"), port("a", "en8").withState(PortState.DOWN)));
            // then the cable a:en7-b:en6 is pulled: one rewrite, the command once more
            engine.ports(List.of(port("a", "en6", "b:en7"), port("a", "en7", "b:en6").withState(PortState.DOWN),
                    port("a", "en8").withState(PortState.DOWN)));
            engine.neighbours(Map.of("en6", List.of(PortRef.parse("b:en7"))));
            engine.accept(new NodeRecord("b", 4, List.of(port("b", "en7", "a:en6"), port("b", "en6").withState(PortState.DOWN))));
            await("the rewrite after the pull").atMost(BOUND).until(() -> lines(ran).size() == 2);
            assertThat(Files.readString(devices)).isEqualTo("[\n  [null, \"rdma_en6\"],\n  [\"rdma_en7\", null]\n]\n");
            assertThat(Files.readString(err)).contains("railmap: rewrote " + devices + ": ", "cable a:en7\u2013b:en6 lost");
            assertThat(lines(ran).get(1).strip()).isEqualTo(String.valueOf(Files.size(devices)));

            Process kill = new ProcessBuilder("kill", "-INT", String.valueOf(p.pid())).start();
            assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
            assertThat(p.waitFor(BOUND.toSeconds(), TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).isEqualTo(130);
            assertThat(Files.readString(err, StandardCharsets.UTF_8)).doesNotContain("Exception", "\tat ");
            assertThat(lines(ran)).hasSize(2);
            try (Stream<Path> left = Files.list(dir)) {
                assertThat(left.map(f -> f.getFileName().toString())).containsExactlyInAnyOrder("devices.json", "ran.log", "err.log", "out.log");
            }
        } finally {
            p.destroyForcibly();
        }
    }

    @Test
    void watchWithoutADaemonOrAFileOrOnChangeAloneIsAnError() {
        Run snapshot = Run.of("matrix", "--snapshot", "../examples/snapshots/two-leaves.json", "--watch", "-o", dir.resolve("x").toString());
        assertThat(snapshot.code()).isEqualTo(ExitCodes.INPUT);
        assertThat(snapshot.err()).startsWith("railmap: --watch follows a daemon's changes: give --daemon URL or --lab NODE, not --snapshot");
        Run stdout = Run.of("env", "--daemon", http, "--node", "a", "--for", "nccl", "--watch");
        assertThat(stdout.code()).isEqualTo(ExitCodes.INPUT);
        assertThat(stdout.err()).startsWith("railmap: --watch rewrites a file: give -o FILE");
        Run alone = Run.of("matrix", "--daemon", http, "--on-change", "true");
        assertThat(alone.code()).isEqualTo(ExitCodes.INPUT);
        assertThat(alone.err()).startsWith("railmap: --on-change runs after each rewrite of --watch: give --watch too");
    }
}
