package io.railmap.daemon.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.railmap.daemon.cluster.ClusterQueries;
import io.railmap.daemon.cluster.Membership;
import io.railmap.daemon.engine.Engine;
import io.railmap.daemon.events.EventLog;
import io.railmap.daemon.testing.RawConnection;
import io.vertx.core.Vertx;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every error answer of the API, on a real HTTP server on loopback, is {@code {"error": "..."}} JSON
 * with a fitting status, sent as raw requests so that Vert.x's own refusals (request line and
 * header limits, malformed requests, unknown methods) are covered as well as the router's.
 */
class ApiErrorsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static Vertx vertx;
    private static int port;
    private static int brokenPort;

    private static int deploy(ClusterQueries membership) throws Exception {
        ApiVerticle api = new ApiVerticle(new Engine("a"), membership, new EventLog(), List::of,
                MeterLimits.apply(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)), HttpLimits.DEFAULTS, "127.0.0.1", 0, Optional.empty());
        vertx.deployVerticle(api).await(10, TimeUnit.SECONDS);
        return api.actualPort();
    }

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        port = deploy(() -> new Membership("test", 1, List.of()));
        brokenPort = deploy(() -> {
            throw new IllegalStateException("a bug, with a secret at io.railmap.Secret.method(Secret.java:1)");
        });
    }

    @AfterAll
    static void stop() throws Exception {
        vertx.close().await(10, TimeUnit.SECONDS);
    }

    /** Sends one raw request on a new connection; returns the answer. */
    private static RawConnection.Response raw(int port, String request) throws Exception {
        try (RawConnection c = RawConnection.tcp(port)) {
            return c.send(request).read(WAIT);
        }
    }

    private static RawConnection.Response get(String target) throws Exception {
        return raw(port, "GET " + target + " HTTP/1.1\r\nHost: a\r\n\r\n");
    }

    private static String error(RawConnection.Response r) throws Exception {
        assertThat(r.header("content-type")).as(r.text()).isEqualTo("application/json");
        JsonNode json = JSON.readTree(r.body());
        assertThat(json.get("error").isTextual()).as(r.text()).isTrue();
        return json.get("error").asText();
    }

    @Test
    void unknownResourceIs404NamingTheResourcesServed() throws Exception {
        RawConnection.Response r = get("/v1/nope");
        assertThat(r.status()).isEqualTo(404);
        assertThat(error(r)).isEqualTo("no resource \"/v1/nope\": the API serves GET /healthz, GET /v1/record, GET /v1/snapshot, "
                + "GET /v1/members, GET /v1/agreement, GET /v1/matrix, GET /v1/env, GET /v1/events, GET /v1/jobs, GET /v1/topology.svg, POST /v1/check, "
                + "GET /metrics, GET /v1/openapi.json, GET /, "
                + "GET /page/*, GET /webjars/*");
    }

    @Test
    void wrongOrMadeUpMethodIs405WithTheAllowedOne() throws Exception {
        RawConnection.Response delete = raw(port, "DELETE /v1/record HTTP/1.1\r\nHost: a\r\n\r\n");
        assertThat(delete.status()).isEqualTo(405);
        assertThat(delete.header("allow")).isEqualTo("GET");
        assertThat(error(delete)).isEqualTo("method \"DELETE\" is not allowed on /v1/record: it takes GET");
        RawConnection.Response madeUp = raw(port, "FROB /v1/check HTTP/1.1\r\nHost: a\r\n\r\n");
        assertThat(madeUp.status()).isEqualTo(405);
        assertThat(error(madeUp)).isEqualTo("method \"FROB\" is not allowed on /v1/check: it takes POST");
    }

    @Test
    void badPercentEncodingIs400() throws Exception {
        for (String target : List.of("/v1/matrix?hosts=%zz", "/v1/matrix?hosts=a%", "/healthz?%")) {
            RawConnection.Response r = get(target);
            assertThat(r.status()).as(target).isEqualTo(400);
            assertThat(error(r)).as(target).contains("is not valid percent-encoding");
        }
    }

    @Test
    void everyResourceRefusesUnknownQueryParameters() throws Exception {
        Map<String, String> refused = Map.of(
                "GET /healthz?verbose=1", "GET /healthz takes no query parameters, not \"verbose\": leave the query string out",
                "GET /v1/record?node=b", "GET /v1/record takes no query parameters, not \"node\": leave the query string out",
                "GET /v1/snapshot?at=1", "GET /v1/snapshot takes no query parameters, not \"at\": leave the query string out",
                "GET /v1/members?all", "GET /v1/members takes no query parameters, not \"all\": leave the query string out",
                "GET /metrics?name[]=x", "GET /metrics takes no query parameters, not \"name[]\": leave the query string out",
                "GET /v1/matrix?colour=red", "unknown query parameter \"colour\" (known: coordinator, devicesPath, equalRingWires, format, "
                        + "hosts, includeDown, ip, maxWires, minRateGbps, mlxVersion, order, rank)",
                "POST /v1/check?hosts=a&verbose=1", "unknown query parameter \"verbose\" (known: hosts, mlxVersion, mode)");
        for (Map.Entry<String, String> e : refused.entrySet()) {
            RawConnection.Response r = raw(port, e.getKey() + " HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\n[]");
            assertThat(r.status()).as(e.getKey()).isEqualTo(400);
            assertThat(error(r)).as(e.getKey()).isEqualTo(e.getValue());
        }
    }

    @Test
    void oversizedBodyIs413AndFormsAre415() throws Exception {
        RawConnection.Response big = raw(port, "POST /v1/check?hosts=a HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\n"
                + "Content-Length: " + (HttpLimits.DEFAULT_MAX_BODY_BYTES + 1) + "\r\n\r\n[");
        assertThat(big.status()).isEqualTo(413);
        assertThat(error(big)).isEqualTo("the request body is larger than 1048576 bytes: a devices file is far smaller");
        RawConnection.Response form = raw(port, "POST /v1/check?hosts=a HTTP/1.1\r\nHost: a\r\n"
                + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 2\r\n\r\n[]");
        assertThat(form.status()).isEqualTo(415);
        assertThat(error(form)).startsWith("POST /v1/check takes the devices file as the request body, not as a form");
    }

    @Test
    void multipartUploadIsRefusedAndLeavesNoFileOnDisk() throws Exception {
        Path uploads = Path.of("file-uploads").toAbsolutePath();
        boolean existed = Files.exists(uploads);
        long before = existed ? Files.list(uploads).count() : 0;
        String part = "--b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"devices.json\"\r\nContent-Type: application/json\r\n\r\n"
                + "[[null, null], [null, null]]\r\n--b--\r\n";
        RawConnection.Response r = raw(port, "POST /v1/check?hosts=a,a HTTP/1.1\r\nHost: a\r\nContent-Type: multipart/form-data; boundary=b\r\n"
                + "Content-Length: " + part.length() + "\r\n\r\n" + part);
        assertThat(r.status()).isEqualTo(415);
        error(r);
        assertThat(Files.exists(uploads)).as("Vert.x's upload directory %s", uploads).isEqualTo(existed);
        if (existed) {
            assertThat(Files.list(uploads).count()).isEqualTo(before);
        }
    }

    @Test
    void overlongRequestLineIs414AndOverlargeHeadersAre431() throws Exception {
        RawConnection.Response line = get("/v1/matrix?hosts=" + "a".repeat(HttpLimits.DEFAULT_MAX_INITIAL_LINE));
        assertThat(line.status()).isEqualTo(414);
        assertThat(error(line)).isEqualTo("the request line is longer than 8192 bytes: ask for fewer hosts or options at once");
        RawConnection.Response headers = raw(port, "GET /healthz HTTP/1.1\r\nHost: a\r\nX-Filler: "
                + "b".repeat(HttpLimits.DEFAULT_MAX_HEADER_BYTES) + "\r\n\r\n");
        assertThat(headers.status()).isEqualTo(431);
        assertThat(error(headers)).isEqualTo("the request headers are larger than 8192 bytes: send fewer or shorter headers");
    }

    @Test
    void malformedRequestIs400AndItsConnectionClosed() throws Exception {
        try (RawConnection c = RawConnection.tcp(port)) {
            RawConnection.Response r = c.send("GET /healthz HTTP/1.1\r\nHost: a\r\nContent-Length: x\r\n\r\n").read(WAIT);
            assertThat(r.status()).isEqualTo(400);
            assertThat(error(r)).startsWith("malformed HTTP request");
            assertThat(c.closedWithin(WAIT)).isTrue();
        }
    }

    @Test
    void internalErrorIs500WithoutItsMessageOrStackTrace() throws Exception {
        RawConnection.Response r = raw(brokenPort, "GET /v1/members HTTP/1.1\r\nHost: a\r\n\r\n");
        assertThat(r.status()).isEqualTo(500);
        assertThat(error(r)).isEqualTo("internal error (IllegalStateException) answering \"GET\" \"/v1/members\"; the daemon's log has the details");
        assertThat(r.body()).doesNotContain("secret", "Secret.java");
    }

    @Test
    void requestTextEchoedInAnErrorIsEscapedAndCut() throws Exception {
        RawConnection.Response escape = get("/v1/matrix?%1b[2J=1");
        assertThat(escape.status()).isEqualTo(400);
        assertThat(error(escape)).startsWith("unknown query parameter \"\\u001B[2J\"").doesNotContain("\u001b");
        RawConnection.Response longPath = get("/v1/" + "x".repeat(5000));
        assertThat(longPath.status()).isEqualTo(404);
        assertThat(error(longPath)).contains("\"/v1/" + "x".repeat(ErrorReplies.SHOWN_CHARS - 4) + "…\"").hasSizeLessThan(400);
    }
}
