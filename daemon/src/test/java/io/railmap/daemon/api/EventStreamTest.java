package io.railmap.daemon.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.railmap.daemon.cluster.Membership;
import io.railmap.daemon.engine.Engine;
import io.railmap.daemon.events.EventLog;
import io.railmap.matrix.change.Change;
import io.railmap.matrix.change.ChangeType;
import io.vertx.core.Vertx;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.StandardProtocolFamily;
import java.net.URI;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code GET /v1/events} over a real socket, read by the JDK's HTTP client as any SSE client would. */
class EventStreamTest {
    private static final Duration BOUND = Duration.ofSeconds(10);
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(BOUND).build();
    private final List<Stream<String>> open = new ArrayList<>();
    private Vertx vertx;
    private EventLog events;
    private String base;

    @BeforeEach
    void start() throws Exception {
        vertx = Vertx.vertx();
        events = new EventLog(4, 2, 2);
        ApiVerticle api = new ApiVerticle(new Engine("a"), () -> new Membership("test", 1, List.of()), events, List::of,
                new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), HttpLimits.DEFAULTS, "127.0.0.1", 0, Optional.empty());
        vertx.deployVerticle(api).await(10, TimeUnit.SECONDS);
        base = "http://127.0.0.1:" + api.actualPort();
    }

    @AfterEach
    void stop() throws Exception {
        open.forEach(Stream::close);
        vertx.close().await(10, TimeUnit.SECONDS);
    }

    private static Change lost(int k) {
        return new Change(ChangeType.CABLE_LOST, List.of("a:en" + k, "b:en" + k), "cable a:en" + k + "\u2013b:en" + k + " lost");
    }

    /** @return the stream's lines, after waiting until the daemon has subscribed it */
    private Iterator<String> connect(Optional<String> lastEventId) throws Exception {
        int before = events.streams();
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + "/v1/events")).timeout(BOUND);
        lastEventId.ifPresent(id -> request.header("Last-Event-ID", id));
        HttpResponse<Stream<String>> response = http.send(request.build(), HttpResponse.BodyHandlers.ofLines());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type")).hasValue("text/event-stream; charset=utf-8");
        open.add(response.body());
        await().atMost(BOUND).until(() -> events.streams() == before + 1);
        return response.body().iterator();
    }

    /** @return the next event's lines up to its blank line, comments and retry skipped */
    private static List<String> next(Iterator<String> lines) {
        List<String> event = new ArrayList<>();
        while (lines.hasNext()) {
            String line = lines.next();
            if (line.isEmpty()) {
                if (!event.isEmpty()) {
                    return event;
                }
            } else if (!line.startsWith(":") && !line.startsWith("retry:")) {
                event.add(line);
            }
        }
        throw new AssertionError("the stream ended");
    }

    @Test
    void aClientGetsEachChangeAsAnEventWithAnIdItsTypeAndOneLineOfJson() throws Exception {
        Iterator<String> lines = connect(Optional.empty());
        events.publish(List.of(lost(6)));

        List<String> event = next(lines);
        assertThat(event).hasSize(3);
        assertThat(event.get(0)).matches("id: [0-9a-f]{8}-1");
        assertThat(event.get(1)).isEqualTo("event: cable-lost");
        JsonNode data = new ObjectMapper().readTree(event.get(2).substring("data: ".length()));
        assertThat(data.get("id").asText()).isEqualTo(event.get(0).substring("id: ".length()));
        assertThat(data.get("type").asText()).isEqualTo("cable-lost");
        assertThat(data.get("subjects").toString()).isEqualTo("[\"a:en6\",\"b:en6\"]");
        assertThat(data.get("message").asText()).isEqualTo("cable a:en6\u2013b:en6 lost");
    }

    @Test
    void aClientThatReconnectsWithLastEventIdGetsWhatItMissedAndIsToldWhenItIsGone() throws Exception {
        events.publish(List.of(lost(1), lost(2)));
        String boot = events.lastId().orElseThrow().split("-")[0];

        Iterator<String> resumed = connect(Optional.of(boot + "-1"));
        assertThat(next(resumed)).first().isEqualTo("id: " + boot + "-2");

        // the backlog holds 4: with 7 events in all, 4 to 7 are held, so a client that saw 1 missed 2 and 3
        events.publish(IntStream.range(3, 8).mapToObj(EventStreamTest::lost).toList());
        assertThat(next(resumed)).first().isEqualTo("id: " + boot + "-3");
        open.forEach(Stream::close);
        await().atMost(BOUND).until(() -> events.streams() == 0);
        Iterator<String> late = connect(Optional.of(boot + "-1"));
        List<String> missed = next(late);
        assertThat(missed.get(0)).isEqualTo("event: missed");
        assertThat(missed.get(1)).contains("\"type\":\"missed\"", "2 events after " + boot + "-1 are no longer held (the backlog keeps 4)");
        assertThat(next(late)).first().isEqualTo("id: " + boot + "-4");

        String otherBoot = boot.equals("00000000") ? "00000001" : "00000000";
        Iterator<String> restarted = connect(Optional.of(otherBoot + "-3"));
        assertThat(next(restarted).get(1)).contains("this daemon restarted since event");
    }

    @Test
    void aClientThatStopsReadingIsClosedAndItsStreamFreed() throws Exception {
        // a client with a small receive window that never reads: the daemon's send queue fills and it closes the stream
        try (Socket stuck = new Socket()) {
            stuck.setReceiveBufferSize(4096);
            URI uri = URI.create(base);
            stuck.connect(new InetSocketAddress(uri.getHost(), uri.getPort()), (int) BOUND.toMillis());
            OutputStream request = stuck.getOutputStream();
            request.write(("GET /v1/events HTTP/1.1\r\nHost: " + uri.getAuthority() + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            request.flush();
            await().atMost(BOUND).until(() -> events.streams() == 1);

            String wide = "x".repeat(4096);
            List<Change> batch = IntStream.range(0, 64)
                    .mapToObj(k -> new Change(ChangeType.CABLE_LOST, List.of("a:en" + k, "b:en" + k), wide)).toList();
            await().atMost(BOUND).pollInterval(Duration.ofMillis(20)).until(() -> {
                events.publish(batch);
                return events.streams() == 0;
            });
            // and its connection ends: what was sent drains, then end of stream or a reset, never a wait
            stuck.setSoTimeout((int) BOUND.toMillis());
            InputStream in = stuck.getInputStream();
            byte[] drain = new byte[1 << 16];
            try {
                while (in.read(drain) >= 0) {
                    // drain what the daemon sent before it gave up on this client
                }
            } catch (SocketException reset) {
                assertThat(reset).hasMessageContaining("reset");
            }
        }
        // the freed place serves a reading client
        Iterator<String> lines = connect(Optional.empty());
        events.publish(List.of(lost(6)));
        assertThat(next(lines).get(1)).isEqualTo("event: cable-lost");
    }

    @Test
    void aMalformedIdAndAQueryAreRefusedWithJsonErrors() throws Exception {
        HttpResponse<String> bad = http.send(HttpRequest.newBuilder(URI.create(base + "/v1/events")).header("Last-Event-ID", "x\u00e9")
                .timeout(BOUND).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(new ObjectMapper().readTree(bad.body()).get("error").asText()).contains("Last-Event-ID is not an event id of railmapd");
        HttpResponse<String> query = http.send(HttpRequest.newBuilder(URI.create(base + "/v1/events?since=1")).timeout(BOUND).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(query.statusCode()).isEqualTo(400);
    }

    /**
     * One peer (every client on this host is one: any local user may use any loopback address) holds
     * at most its share (1 here, of 2): its next stream is 503 although a slot is free, and its open
     * stream keeps getting the events.
     */
    @Test
    void aPeerBeyondItsShareIsRefusedAndKeepsWhatItHolds() throws Exception {
        events = new EventLog(4, 2, 1);
        ApiVerticle api = new ApiVerticle(new Engine("a"), () -> new Membership("test", 1, List.of()), events, List::of,
                new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), HttpLimits.DEFAULTS, "127.0.0.1", 0, Optional.empty());
        vertx.deployVerticle(api).await(10, TimeUnit.SECONDS);
        base = "http://127.0.0.1:" + api.actualPort();
        Iterator<String> first = connect(Optional.empty());
        HttpResponse<String> second = http.send(HttpRequest.newBuilder(URI.create(base + "/v1/events")).timeout(BOUND).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(second.statusCode()).isEqualTo(503);
        assertThat(new ObjectMapper().readTree(second.body()).get("error").asText()).isEqualTo(
                "this peer holds 1 event streams, the most one local user or address may (of 2): close one, or try again later");
        events.publish(List.of(lost(6)));
        assertThat(next(first).get(1)).isEqualTo("event: cable-lost");
    }

    /**
     * Every slot taken by another peer and this one, the other holding two more: this peer's new stream
     * takes the place of the other's oldest, which ends with a comment saying why (its client
     * reconnects with Last-Event-ID).
     */
    @Test
    void atTheCapAPeerHoldingTwoFewerTakesTheBusiestPeersOldestStream() throws Exception {
        List<String> replaced = new ArrayList<>();
        events.subscribe(Optional.empty(), "uid other", e -> { }, replaced::add);
        events.subscribe(Optional.empty(), "uid other", e -> { }, replaced::add);
        HttpResponse<Stream<String>> response = http.send(HttpRequest.newBuilder(URI.create(base + "/v1/events")).timeout(BOUND).build(),
                HttpResponse.BodyHandlers.ofLines());
        assertThat(response.statusCode()).isEqualTo(200);
        open.add(response.body());
        Iterator<String> mine = response.body().iterator();
        await().atMost(BOUND).until(() -> events.peers().equals(List.of("uid other", "this host")));
        assertThat(replaced).containsExactly("all 2 event streams were taken and this peer held the most: another peer took this one's "
                + "place; resume with Last-Event-ID");
        events.publish(List.of(lost(6)));
        assertThat(next(mine).get(1)).isEqualTo("event: cable-lost");
    }

    /**
     * Every slot taken, this peer holding as many as the other: the new stream is 503 with a JSON
     * error; the other peer's streams are untouched.
     */
    @Test
    void withEverySlotTakenAndNoPeerHoldingMoreAStreamIsRefused() throws Exception {
        connect(Optional.empty());
        events.subscribe(Optional.empty(), "uid other", e -> { }, why -> { });
        HttpResponse<String> third = http.send(HttpRequest.newBuilder(URI.create(base + "/v1/events")).timeout(BOUND).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(third.statusCode()).isEqualTo(503);
        assertThat(third.headers().firstValue("retry-after")).hasValue("5");
        assertThat(new ObjectMapper().readTree(third.body()).get("error").asText()).isEqualTo(
                "2 event streams are open, the most this daemon serves, and this peer holds as many as any other: close one, or try again later");
        assertThat(events.streams()).isEqualTo(2);
    }

    /**
     * On the Unix socket a peer is its user, as the kernel gives it (SO_PEERCRED), so that local users
     * are told apart; over TCP from this host every client is one peer.
     */
    @Test
    void aUnixSocketPeerIsItsUserAndALocalTcpPeerIsThisHost(@TempDir Path dir) throws Exception {
        Path socket = dir.resolve("api.sock");
        ApiVerticle api = new ApiVerticle(new Engine("a"), () -> new Membership("test", 1, List.of()), events, List::of,
                new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), HttpLimits.DEFAULTS, "127.0.0.1", 0, Optional.of(socket));
        vertx.deployVerticle(api).await(10, TimeUnit.SECONDS);
        connect(Optional.empty());
        try (SocketChannel unix = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            unix.connect(UnixDomainSocketAddress.of(socket));
            unix.write(ByteBuffer.wrap("GET /v1/events HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII)));
            await().atMost(BOUND).until(() -> events.streams() == 2);
            assertThat(events.peers()).containsExactly("this host", "uid " + System.getProperty("user.name"));
        }
    }
}
