package io.railmap.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.railmap.daemon.api.HttpLimits;
import io.railmap.daemon.api.MeterLimits;
import io.railmap.daemon.testing.Attacks;
import io.railmap.daemon.testing.DaemonProcess;
import io.railmap.daemon.testing.NamespacesAvailable;
import io.railmap.daemon.testing.NetnsLab;
import io.railmap.daemon.testing.RawConnection;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * One real railmapd in a network namespace, its API reached on its Unix socket, tried as a careless
 * or hostile client would: thousands of made-up method names, hundreds of half-sent requests, a
 * multipart upload, malformed queries. The daemon keeps answering, its metric labels and open
 * connections stay bounded, nothing is written to disk, every error is JSON.
 */
@ExtendWith(NamespacesAvailable.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ApiNamespaceTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final ObjectMapper JSON = new ObjectMapper();
    @TempDir
    static Path dir;
    private NetnsLab lab;
    private DaemonProcess daemon;

    @BeforeAll
    void start() throws Exception {
        lab = NetnsLab.create();
        daemon = DaemonProcess.start(lab, lab.namespace("api"), dir, "a", "--bind", "127.0.0.1", "--cluster-timing", "lab");
        awaitHealthy();
    }

    @AfterAll
    void stop() {
        if (lab != null) {
            lab.close();
        }
    }

    private void awaitHealthy() {
        org.awaitility.Awaitility.await("the daemon answers /healthz").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .ignoreExceptions().until(() -> daemon.get("/healthz").statusCode() == 200);
    }

    private RawConnection connect() throws IOException {
        return RawConnection.unix(daemon.socket());
    }

    /** @return the distinct values of a label in {@code /metrics} */
    private Set<String> labelValues(String label) {
        Matcher m = Pattern.compile("[{,]" + label + "=\"([^\"]*)\"").matcher(daemon.get("/metrics").bodyAsString());
        Set<String> values = new TreeSet<>();
        while (m.find()) {
            values.add(m.group(1));
        }
        return values;
    }

    @Test
    void thousandsOfMadeUpMethodNamesLeaveOneMethodLabelAndTheDaemonAnswering() throws Exception {
        long rssBefore = Attacks.rssKb(daemon.pid());
        Random random = new Random(35_000);
        int flood = 5_000;
        try (RawConnection c = connect()) {
            for (int i = 0; i < flood; i++) {
                String method = "X" + Long.toString(random.nextLong() & Long.MAX_VALUE, 36).toUpperCase(java.util.Locale.ROOT);
                assertThat(c.send(method + " /healthz HTTP/1.1\r\nHost: a\r\n\r\n").read(WAIT).status()).isEqualTo(405);
            }
        }
        assertThat(daemon.get("/healthz").statusCode()).isEqualTo(200);
        Set<String> methods = labelValues("method");
        assertThat(methods).contains(MeterLimits.OTHER_METHOD).hasSizeLessThanOrEqualTo(10);
        assertThat(daemon.get("/metrics").bodyAsString())
                .contains("vertx_http_server_requests_total{code=\"405\",method=\"other\"} " + flood + ".0");
        System.err.println("method flood: " + flood + " distinct methods, method label values " + methods + ", RSS " + rssBefore + " kB before, "
                + Attacks.rssKb(daemon.pid()) + " kB after");
    }

    @Test
    void hundredsOfHalfSentRequestsAreClosedAndANormalRequestStillAnswers() throws Exception {
        int flood = 200;
        List<RawConnection> slow = new ArrayList<>();
        try {
            for (int i = 0; i < flood; i++) {
                slow.add(connect().send("GET /v1/snapshot HTTP/1.1\r\nHost: a\r\nX-Trickle: "));
            }
            // at the cap, the connection that waited longest for its headers makes room for a new one
            assertThat(daemon.get("/healthz").statusCode()).as("a normal request during the flood").isEqualTo(200);
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            for (RawConnection c : slow) {
                assertThat(c.closedWithin(Duration.ofNanos(Math.max(1, deadline - System.nanoTime()))))
                        .as("every half-sent request is closed within the header timeout").isTrue();
            }
        } finally {
            slow.forEach(RawConnection::close);
        }
        assertThat(daemon.get("/healthz").statusCode()).isEqualTo(200);
        String metrics = daemon.get("/metrics").bodyAsString();
        double evicted = counter(metrics, "evicted");
        double timedOut = counter(metrics, "headers-timeout");
        assertThat(evicted + timedOut).isGreaterThanOrEqualTo(flood);
        assertThat(evicted).as("beyond the cap of %d", HttpLimits.DEFAULT_MAX_CONNECTIONS)
                .isGreaterThanOrEqualTo(flood - HttpLimits.DEFAULT_MAX_CONNECTIONS);
    }

    private static double counter(String metrics, String reason) {
        Matcher m = Pattern.compile("railmap_api_connections_closed_total\\{reason=\"" + reason + "\"} ([0-9.E]+)").matcher(metrics);
        assertThat(m.find()).as(reason).isTrue();
        return Double.parseDouble(m.group(1));
    }

    @Test
    void aMultipartUploadIsRefusedAndNoFileAppearsInTheDaemonsWorkingDirectory() throws Exception {
        Path cwd = Path.of("/proc/" + daemon.pid() + "/cwd").toRealPath();
        Path uploads = cwd.resolve("file-uploads");
        boolean existed = Files.exists(uploads);
        long before = existed ? Files.list(uploads).count() : 0;
        String part = "--b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"devices.json\"\r\n\r\n" + "x".repeat(100_000)
                + "\r\n--b--\r\n";
        try (RawConnection c = connect()) {
            RawConnection.Response r = c.send("POST /v1/check?hosts=a HTTP/1.1\r\nHost: a\r\nContent-Type: multipart/form-data; boundary=b\r\n"
                    + "Content-Length: " + part.length() + "\r\n\r\n" + part).read(WAIT);
            assertThat(r.status()).isEqualTo(415);
            assertThat(JSON.readTree(r.body()).get("error").asText()).startsWith("POST /v1/check takes the devices file as the request body");
        }
        assertThat(Files.exists(uploads)).as("%s", uploads).isEqualTo(existed);
        if (existed) {
            assertThat(Files.list(uploads).count()).isEqualTo(before);
        }
    }

    @Test
    void errorAnswersAreJsonWithFittingStatuses() throws Exception {
        Map<String, Integer> requests = Map.of(
                "GET /nowhere", 404,
                "PUT /v1/record", 405,
                "GET /v1/matrix?hosts=%zz", 400,
                "GET /v1/snapshot?since=1", 400,
                "GET /v1/matrix?hosts=a,zed", 404,
                "GET /v1/matrix?hosts=" + "h,".repeat(5_000) + "h", 414);
        for (Map.Entry<String, Integer> e : requests.entrySet()) {
            try (RawConnection c = connect()) {
                RawConnection.Response r = c.send(e.getKey() + " HTTP/1.1\r\nHost: a\r\n\r\n").read(WAIT);
                String shown = e.getKey().substring(0, Math.min(40, e.getKey().length()));
                assertThat(r.status()).as(shown).isEqualTo(e.getValue());
                assertThat(r.header("content-type")).as(shown).isEqualTo("application/json");
                assertThat(JSON.readTree(r.body()).get("error").asText()).as(shown).isNotBlank();
            }
        }
    }
}
