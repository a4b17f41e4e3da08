package io.railmap.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.railmap.daemon.api.ApiVerticle;
import io.railmap.daemon.cluster.Member;
import io.railmap.daemon.cluster.Agreement;
import io.railmap.daemon.cluster.ClusterQueries;
import io.railmap.daemon.cluster.Membership;
import io.railmap.daemon.engine.Engine;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.model.PortState;
import io.vertx.core.Vertx;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The CLI against a real daemon API (in this JVM), over TCP and over a Unix socket. */
class DaemonModeTest {
    @TempDir
    static Path dir;
    private static Vertx vertx;
    private static String http;
    private static String unix;

    private static Port port(String node, String netdev, String far) {
        return new Port(node, netdev, Optional.of("rdma_" + netdev), 1, PortKind.THUNDERBOLT, Optional.of(80.0),
                PortState.ACTIVE, Optional.empty(), List.of(PortRef.parse(far)));
    }

    @BeforeAll
    static void daemon() throws Exception {
        Engine engine = new Engine("a");
        engine.ports(List.of(port("a", "en6", "b:en7"), port("a", "en7", "b:en6")));
        engine.neighbours(Map.of("en6", List.of(PortRef.parse("b:en7")), "en7", List.of(PortRef.parse("b:en6"))));
        engine.accept(new NodeRecord("b", 3, List.of(port("b", "en7", "a:en6"), port("b", "en6", "a:en7"))));
        vertx = Vertx.vertx();
        Path socket = dir.resolve("railmapd.sock");
        // the view a daemon of a two-member cluster would report
        Membership view = new Membership("test", 3, List.of(
                new Member(Optional.of("b"), "10.0.0.2:7800", false, true, OptionalLong.of(3), OptionalLong.of(1500)),
                new Member(Optional.of("a"), "10.0.0.1:7800", true, false, OptionalLong.of(9), OptionalLong.of(20))));
        ClusterQueries cluster = new ClusterQueries() {
            @Override
            public Membership membership() {
                return view;
            }

            @Override
            public Optional<Agreement> agreement() {
                return Optional.of(new Agreement("test", 3, "sha256:" + "0".repeat(64), 2, true, List.of()));
            }
        };
        ApiVerticle api = new ApiVerticle(engine, cluster, new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), "127.0.0.1", 0,
                Optional.of(socket));
        vertx.deployVerticle(api).await(10, TimeUnit.SECONDS);
        http = "http://127.0.0.1:" + api.actualPort();
        unix = "unix:" + socket;
    }

    @AfterAll
    static void stop() throws Exception {
        vertx.close().await(10, TimeUnit.SECONDS);
    }

    @Test
    void agreeSendsHostNamesAsOneQueryValueWhateverTheyHold() {
        Run known = Run.of("agree", "--daemon", http, "--hosts", "a,b");
        assertThat(known.code()).as(known.err()).isZero();
        assertThat(known.out()).contains("records of the hosts: sha256:", "a@", "b@3.");
        // "b&c" is a valid node name: percent-encoded it is one unknown host (404), not hosts=a,b and a parameter c (400)
        Run odd = Run.of("agree", "--daemon", http, "--hosts", "a,b&c");
        assertThat(odd.code()).isEqualTo(ExitCodes.INPUT);
        assertThat(odd.err()).contains("no record for node b&c");
    }

    @Test
    void matrixFromTheDaemonOverTcpAndUnixSocketIsRailAligned() {
        for (String url : List.of(http, unix)) {
            Run run = Run.of("matrix", "--daemon", url, "--hosts", "a,b");
            assertThat(run.code()).as(url + ": " + run.err()).isZero();
            assertThat(run.out()).isEqualTo("[\n  [null, [\"rdma_en6\",\"rdma_en7\"]],\n  [[\"rdma_en7\",\"rdma_en6\"], null]\n]\n");
        }
    }

    @Test
    void checkAgainstTheDaemonFindsTheMismatch() throws Exception {
        Path bad = Files.writeString(dir.resolve("bad.json"), "[[null, [\"rdma_en6\",\"rdma_en7\"]], [[\"rdma_en6\",\"rdma_en7\"], null]]");
        Run run = Run.of("check", bad.toString(), "--daemon", unix, "--hosts", "a,b");
        assertThat(run.code()).isEqualTo(ExitCodes.FINDINGS);
        assertThat(run.out()).contains("error mismatched-rail");
    }

    @Test
    void portsShowsTheDaemonsOwnNodeOrAnotherOne() {
        Run own = Run.of("ports", "--daemon", http);
        assertThat(own.code()).as(own.err()).isZero();
        assertThat(own.out()).startsWith("node a (record version 2, 2 ports)").contains("en6", "b:en7");
        Run other = Run.of("ports", "--daemon", http, "--node", "b");
        assertThat(other.out()).startsWith("node b (record version 3, 2 ports)").contains("a:en6");
        Run unknown = Run.of("ports", "--daemon", http, "--node", "zed");
        assertThat(unknown.code()).isEqualTo(ExitCodes.INPUT);
        assertThat(unknown.err()).contains("holds no record of node zed (it knows a, b)");
    }

    @Test
    void nodesListsTheMembersWithTheirRecords() {
        Run run = Run.of("nodes", "--daemon", unix);
        assertThat(run.code()).as(run.err()).isZero();
        assertThat(run.out()).startsWith("cluster test, view 3, 2 members\n")
                .containsPattern("b +10\\.0\\.0\\.2:7800 +coordinator +3 +1\\.5 s")
                .containsPattern("a +10\\.0\\.0\\.1:7800 +self +9 +0\\.0 s");
        assertThat(Run.of("nodes", "--daemon", http, "--json").out()).contains("\"viewId\" : 3");
    }

    @Test
    void drawFromTheDaemonIsThePictureItsPageServes() throws Exception {
        HttpResponse<String> served = HttpClient.newHttpClient()
                .send(HttpRequest.newBuilder(URI.create(http + "/v1/topology.svg")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(served.statusCode()).isEqualTo(200);
        for (String url : List.of(http, unix)) {
            Path out = dir.resolve("topology-" + url.charAt(0) + ".svg");
            Run run = Run.of("draw", "--daemon", url, "-o", out.toString());
            assertThat(run.code()).as(url + ": " + run.err()).isZero();
            assertThat(Files.readString(out)).isEqualTo(served.body()).contains("data-node=\"a\"", "data-node=\"b\"", "data-cable=\"a:en6 b:en7\"");
        }
    }

    @Test
    void anAbsentDaemonIsItsOwnExitCode() {
        Run run = Run.of("matrix", "--daemon", "unix:" + dir.resolve("nobody.sock"));
        assertThat(run.code()).isEqualTo(ExitCodes.DAEMON);
        assertThat(run.err()).startsWith("railmap: cannot reach railmapd at unix:").contains("is it running?");
        assertThat(Run.of("matrix", "--daemon", http, "--snapshot", "x.json").code()).isEqualTo(ExitCodes.INPUT);
    }
}
