package io.railmap.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.railmap.cli.client.EventFollower;
import io.railmap.daemon.api.ApiVerticle;
import io.railmap.daemon.api.HttpLimits;
import io.railmap.daemon.cluster.Membership;
import io.railmap.daemon.engine.Engine;
import io.railmap.daemon.events.EventLog;
import io.railmap.matrix.change.Change;
import io.railmap.matrix.change.ChangeType;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code railmap watch} against a real API over TCP and a Unix socket, fed by the daemon's event log. */
class WatchCommandTest {
    private static final Duration BOUND = Duration.ofSeconds(15);
    @TempDir
    static Path dir;
    private static Vertx vertx;
    private static EventLog events;
    private static String http;
    private static String unix;

    @BeforeAll
    static void daemon() throws Exception {
        vertx = Vertx.vertx();
        events = new EventLog();
        ApiVerticle api = new ApiVerticle(new Engine("a"), () -> new Membership("test", 1, List.of()), events, List::of,
                new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), HttpLimits.DEFAULTS, "127.0.0.1", 0,
                Optional.of(dir.resolve("railmapd.sock")));
        vertx.deployVerticle(api).await(10, TimeUnit.SECONDS);
        http = "http://127.0.0.1:" + api.actualPort();
        unix = "unix:" + dir.resolve("railmapd.sock");
    }

    @AfterAll
    static void stop() throws Exception {
        vertx.close().await(10, TimeUnit.SECONDS);
    }

    private static Change change(ChangeType type, String... subjects) {
        return new Change(type, List.of(subjects), type.externalName() + " " + String.join(" ", subjects));
    }

    /** Runs watch in the background, publishes once it has subscribed, and returns what it printed. */
    private static Run watch(List<Change> publish, String... args) throws Exception {
        // the stream of a watch that ended may still be open a moment on the daemon's side
        await("earlier streams closed").atMost(BOUND).until(() -> events.streams() == 0);
        CompletableFuture<Run> running = CompletableFuture.supplyAsync(() -> Run.of(args));
        await("watch subscribes").atMost(BOUND).until(() -> events.streams() == 1 || running.isDone());
        events.publish(publish);
        return running.get(BOUND.toSeconds(), TimeUnit.SECONDS);
    }

    @Test
    void watchPrintsOneLinePerEventOfTheTypesAskedAndStopsAfterCount() throws Exception {
        for (String url : List.of(http, unix)) {
            Run run = watch(List.of(change(ChangeType.PORT_DOWN, "a:en6"), change(ChangeType.CABLE_LOST, "a:en6", "b:en7"),
                            change(ChangeType.CABLE_ADDED, "a:en6", "b:en7")),
                    "watch", "--daemon", url, "--type", "cable-lost,cable-added", "--count", "2");
            assertThat(run.code()).as(run.err()).isZero();
            assertThat(run.out()).isEqualTo("cable-lost: cable-lost a:en6 b:en7\ncable-added: cable-added a:en6 b:en7\n");
        }
    }

    @Test
    void jsonIsTheEventsDataOneObjectPerLine() throws Exception {
        Run run = watch(List.of(change(ChangeType.MEMBER_JOINED, "c")), "watch", "--daemon", http, "--json", "--count", "1");
        assertThat(run.code()).as(run.err()).isZero();
        var data = new ObjectMapper().readTree(run.out());
        assertThat(data.get("type").asText()).isEqualTo("member-joined");
        assertThat(data.get("subjects").toString()).isEqualTo("[\"c\"]");
        assertThat(data.get("id").asText()).matches("[0-9a-f]{8}-[0-9]+");
    }

    /**
     * A stream that drops is followed again by itself: the watch reconnects with {@code Last-Event-ID}
     * (WHATWG HTML, "Server-sent events": the last event ID a reconnecting client sends), so an event
     * published while the daemon was away is replayed from the backlog and printed once. Without the
     * header the new stream would start from now on and never print it.
     */
    @Test
    void watchReconnectsAfterItsStreamDropsAndResumesAfterTheLastEvent() throws Exception {
        Vertx own = Vertx.vertx();
        try {
            EventLog log = new EventLog();
            log.publish(List.of(change(ChangeType.MEMBER_JOINED, "z")));
            String seen = log.lastId().orElseThrow();
            ApiVerticle first = api(log, 0);
            String deployment = own.deployVerticle(first).await(10, TimeUnit.SECONDS);
            int port = first.actualPort();
            CompletableFuture<Run> running = CompletableFuture.supplyAsync(() -> Run.of("watch", "--daemon",
                    "http://127.0.0.1:" + port, "--after", seen, "--count", "2"));
            await("watch subscribes").atMost(BOUND).until(() -> log.streams() == 1 || running.isDone());
            log.publish(List.of(change(ChangeType.CABLE_LOST, "a:en6", "b:en7")));
            String lost = log.lastId().orElseThrow();
            // the daemon goes away, closing the stream; what happens meanwhile must reach the watch later
            own.undeploy(deployment).await(10, TimeUnit.SECONDS);
            await("stream closed").atMost(BOUND).until(() -> log.streams() == 0);
            log.publish(List.of(change(ChangeType.CABLE_ADDED, "a:en6", "b:en7")));
            own.deployVerticle(api(log, port)).await(10, TimeUnit.SECONDS);
            Run run = running.get(BOUND.toSeconds(), TimeUnit.SECONDS);
            assertThat(run.code()).as(run.err()).isZero();
            assertThat(run.out()).isEqualTo("cable-lost: cable-lost a:en6 b:en7\ncable-added: cable-added a:en6 b:en7\n");
            assertThat(run.err()).contains("; trying again in " + EventFollower.RETRY_MS + " ms")
                    .containsPattern("reconnected to railmapd at http://127\\.0\\.0\\.1:" + port + ", resuming after ("
                            + Pattern.quote(seen) + "|" + Pattern.quote(lost) + ")\n");
        } finally {
            own.close().await(10, TimeUnit.SECONDS);
        }
    }

    private static ApiVerticle api(EventLog log, int port) {
        return new ApiVerticle(new Engine("a"), () -> new Membership("test", 1, List.of()), log, List::of,
                new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), HttpLimits.DEFAULTS, "127.0.0.1", port, Optional.empty());
    }

    @Test
    void badFlagsAndAnAbsentDaemonSayWhatIsWrong() {
        Run type = Run.of("watch", "--daemon", http, "--type", "cable-gone");
        assertThat(type.code()).isEqualTo(ExitCodes.INPUT);
        assertThat(type.err()).startsWith("railmap: --type \"cable-gone\" is not an event type: give member-left, member-joined,");
        Run count = Run.of("watch", "--daemon", http, "--count", "0");
        assertThat(count.code()).isEqualTo(ExitCodes.INPUT);
        Run absent = Run.of("watch", "--daemon", "unix:" + dir.resolve("nobody.sock"));
        assertThat(absent.code()).isEqualTo(ExitCodes.DAEMON);
        assertThat(absent.err()).startsWith("railmap: cannot reach railmapd at unix:").contains("is it running?");
    }
}
