package io.railmap.daemon.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.railmap.daemon.cluster.Cluster;
import io.railmap.daemon.cluster.config.ClusterConfig;
import io.railmap.daemon.cluster.config.ClusterTiming;
import io.railmap.daemon.engine.Engine;
import io.railmap.daemon.events.EventLog;
import io.railmap.daemon.testing.FreePorts;
import io.railmap.daemon.testing.RawConnection;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code /healthz} of a real API over a watch of real Vert.x event loops and a real cluster member
 * alone on loopback, with 100 ms ticks: an event loop blocked on purpose, or a member no longer
 * connected, turns it 503 with a problem naming the part; healthy again, 200.
 */
class HealthWatchTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final ObjectMapper JSON = new ObjectMapper();
    private final CountDownLatch unblock = new CountDownLatch(1);
    private Vertx vertx;
    private Cluster cluster;
    private HealthWatch watch;
    private int port;

    @BeforeEach
    void start() throws Exception {
        Engine engine = new Engine("a");
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        cluster = new Cluster(new ClusterConfig("health-test", "a", InetAddress.getLoopbackAddress(), FreePorts.clusterPort(), List.of(),
                Optional.empty(), ClusterTiming.LAB), engine, registry);
        cluster.start();
        vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(2));
        // stuck after 20 unanswered ticks (2 s), not 5: a loaded test machine stalls a healthy loop for half a second
        watch = new HealthWatch(vertx, cluster, 100, 20);
        ApiVerticle api = new ApiVerticle(engine, cluster::membership, new EventLog(), watch::problems, registry, HttpLimits.DEFAULTS, "127.0.0.1", 0,
                Optional.empty());
        vertx.deployVerticle(api).await(10, TimeUnit.SECONDS);
        port = api.actualPort();
    }

    @AfterEach
    void stop() throws Exception {
        unblock.countDown();
        watch.close();
        vertx.close().await(10, TimeUnit.SECONDS);
        cluster.close();
    }

    private JsonNode health(int expectedStatus) throws Exception {
        try (RawConnection c = RawConnection.tcp(port)) {
            RawConnection.Response r = c.send("GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n").read(WAIT);
            assertThat(r.status()).as(r.text()).isEqualTo(expectedStatus);
            return JSON.readTree(r.body());
        }
    }

    @Test
    void aBlockedEventLoopMakesHealthz503UntilItRunsAgain() throws Exception {
        await().atMost(WAIT).until(() -> watch.problems().isEmpty());
        assertThat(health(200).get("status").asText()).isEqualTo("ok");

        // with two loops handed out in turn, a context made after the API's runs on the other loop
        Context victim = vertx.getOrCreateContext();
        AtomicReference<String> blocked = new AtomicReference<>();
        victim.runOnContext(v -> {
            blocked.set(Thread.currentThread().getName());
            try {
                unblock.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });

        await().atMost(WAIT).pollInterval(Duration.ofMillis(50)).until(() -> !watch.problems().isEmpty());
        JsonNode unhealthy = health(503);
        assertThat(unhealthy.get("status").asText()).isEqualTo("unhealthy");
        assertThat(unhealthy.get("node").asText()).isEqualTo("a");
        assertThat(unhealthy.get("problems")).hasSize(1);
        assertThat(unhealthy.get("problems").get(0).asText())
                .matches("event loop [01] \\(" + blocked.get() + "\\) has not answered a check for [0-9.]+ s: a handler is blocking it");

        unblock.countDown();
        await().atMost(WAIT).pollInterval(Duration.ofMillis(50)).until(() -> watch.problems().isEmpty());
        JsonNode healthy = health(200);
        assertThat(healthy.get("status").asText()).isEqualTo("ok");
        assertThat(healthy.has("problems")).isFalse();
    }

    @Test
    void aClusterMemberThatIsNoLongerConnectedMakesHealthz503() throws Exception {
        await().atMost(WAIT).until(() -> watch.problems().isEmpty());
        cluster.close();
        await().atMost(WAIT).pollInterval(Duration.ofMillis(50)).until(() -> !watch.problems().isEmpty());
        assertThat(health(503).get("problems").toString())
                .contains("the cluster member is not connected (its JGroups channel was closed or never connected)");
    }
}
