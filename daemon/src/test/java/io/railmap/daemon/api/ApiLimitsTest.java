package io.railmap.daemon.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.railmap.daemon.cluster.Membership;
import io.railmap.daemon.engine.Engine;
import io.railmap.daemon.events.EventLog;
import io.railmap.daemon.testing.RawConnection;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The API's bounds on a real HTTP server on loopback, with small limits so that each shows in a
 * moment: connections per listener, the header, answer and idle deadlines, computations at once.
 * {@code /v1/members} is made to wait on a latch where a test needs a request that stays in progress.
 */
class ApiLimitsTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String MEMBERS = "GET /v1/members HTTP/1.1\r\nHost: a\r\n\r\n";
    private static final String HEALTH = "GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n";
    private final CountDownLatch release = new CountDownLatch(1);
    private final java.util.concurrent.Semaphore entered = new java.util.concurrent.Semaphore(0);
    private final List<RawConnection> connections = new ArrayList<>();
    private Vertx vertx;
    private PrometheusMeterRegistry registry;
    private int port;

    @BeforeEach
    void vertx() {
        vertx = Vertx.vertx();
        registry = MeterLimits.apply(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
    }

    @AfterEach
    void close() throws Exception {
        release.countDown();
        connections.forEach(RawConnection::close);
        vertx.close().await(10, TimeUnit.SECONDS);
    }

    private void deploy(HttpLimits limits) throws Exception {
        ApiVerticle api = new ApiVerticle(new Engine("a"), () -> {
            entered.release();
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return new Membership("test", 1, List.of());
        }, new EventLog(), List::of, registry, limits, "127.0.0.1", 0, Optional.empty());
        vertx.deployVerticle(api).await(10, TimeUnit.SECONDS);
        port = api.actualPort();
    }

    private RawConnection connect() throws Exception {
        RawConnection c = RawConnection.tcp(port);
        connections.add(c);
        return c;
    }

    private double closed(String reason) {
        return registry.counter(ConnectionGuard.CLOSED, "reason", reason).count();
    }

    @Test
    void halfSentHeadersAreClosedAfterTheHeaderTimeoutWhileWholeRequestsAreAnswered() throws Exception {
        deploy(HttpLimits.DEFAULTS.withTimeouts(300, 30_000));
        RawConnection slow = connect().send("GET /healthz HTTP/1.1\r\nHost: a\r\nX-Slow: ");
        assertThat(connect().send(HEALTH).read(WAIT).status()).isEqualTo(200);
        assertThat(slow.closedWithin(WAIT)).isTrue();
        assertThat(closed("headers-timeout")).isEqualTo(1);
    }

    @Test
    void aKeptAliveConnectionIsGivenBackAfterTheHeaderTimeoutAndSaysSo() throws Exception {
        deploy(HttpLimits.DEFAULTS.withTimeouts(2_000, 30_000));
        RawConnection c = connect();
        RawConnection.Response first = c.send(HEALTH).read(WAIT);
        assertThat(first.header("keep-alive")).isEqualTo("timeout=1");
        assertThat(c.send(HEALTH).read(WAIT).status()).as("a second request on the same connection").isEqualTo(200);
        assertThat(c.closedWithin(WAIT)).isTrue();
        assertThat(closed("idle")).isEqualTo(1);
        assertThat(closed("headers-timeout")).isZero();
    }

    @Test
    void atTheCapTheHalfSentConnectionWaitingLongestMakesRoomBeforeAKeptAliveOne() throws Exception {
        deploy(HttpLimits.DEFAULTS.withMaxConnections(4));
        RawConnection keptAlive = connect();
        assertThat(keptAlive.send(HEALTH).read(WAIT).status()).isEqualTo(200);
        List<RawConnection> slow = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            // accepted in the order connected, on the verticle's one event loop
            slow.add(connect().send("GET /healthz HTTP/1.1\r\nHost: a\r\n"));
        }
        assertThat(connect().send(HEALTH).read(WAIT).status()).as("a new connection at the cap").isEqualTo(200);
        assertThat(slow.get(0).closedWithin(WAIT)).as("the oldest half-sent connection").isTrue();
        assertThat(slow.get(1).closedWithin(Duration.ofMillis(200))).as("a younger one").isFalse();
        assertThat(keptAlive.send(HEALTH).read(WAIT).status()).as("the older, kept-alive connection").isEqualTo(200);
        assertThat(closed("evicted")).isEqualTo(1);
    }

    @Test
    void atTheCapWithEveryConnectionBusyANewOneIsClosedAtOnce() throws Exception {
        deploy(HttpLimits.DEFAULTS.withMaxConnections(2));
        RawConnection a = connect().send(MEMBERS);
        RawConnection b = connect().send(MEMBERS);
        assertThat(entered.tryAcquire(2, 10, TimeUnit.SECONDS)).as("both requests are being computed").isTrue();
        RawConnection refused = connect();
        assertThat(refused.closedWithin(WAIT)).isTrue();
        assertThat(closed("cap")).isEqualTo(1);
        release.countDown();
        assertThat(a.read(WAIT).status()).isEqualTo(200);
        assertThat(b.read(WAIT).status()).isEqualTo(200);
    }

    @Test
    void beyondTheComputationsAtOnceARequestIsAnswered503AtOnce() throws Exception {
        deploy(new HttpLimits(8, 8192, 8192, 1 << 20, 5_000, 30_000, 30, 1));
        RawConnection computing = connect().send(MEMBERS);
        assertThat(entered.tryAcquire(1, 10, TimeUnit.SECONDS)).as("the first request is being computed").isTrue();
        RawConnection.Response busy = connect().send(MEMBERS).read(WAIT);
        assertThat(busy.status()).isEqualTo(503);
        assertThat(busy.header("retry-after")).isEqualTo("1");
        assertThat(new ObjectMapper().readTree(busy.body()).get("error").asText())
                .isEqualTo("1 requests are being computed, the most at once: try again in a second");
        release.countDown();
        assertThat(computing.read(WAIT).status()).isEqualTo(200);
        assertThat(connect().send(MEMBERS).read(WAIT).status()).as("once the computation is done").isEqualTo(200);
    }

    @Test
    void aRequestNotAnsweredInTimeIsAnswered503AndItsConnectionClosed() throws Exception {
        deploy(HttpLimits.DEFAULTS.withTimeouts(5_000, 300));
        RawConnection c = connect().send(MEMBERS);
        RawConnection.Response r = c.read(WAIT);
        assertThat(r.status()).isEqualTo(503);
        assertThat(new ObjectMapper().readTree(r.body()).get("error").asText())
                .isEqualTo("\"GET\" \"/v1/members\" was not answered within 300 ms (its body arrived too slowly, or computing the answer "
                        + "took too long); try again");
        assertThat(c.closedWithin(WAIT)).isTrue();
        assertThat(closed("answer-timeout")).isEqualTo(1);
    }

    @Test
    void aBodyTricklingInIsCutOffAtTheAnswerTimeout() throws Exception {
        deploy(HttpLimits.DEFAULTS.withTimeouts(5_000, 300));
        RawConnection c = connect().send("POST /v1/check?hosts=a HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\n"
                + "Content-Length: 1000\r\n\r\n[[");
        assertThat(c.read(WAIT).status()).isEqualTo(503);
        assertThat(c.closedWithin(WAIT)).isTrue();
    }
}
