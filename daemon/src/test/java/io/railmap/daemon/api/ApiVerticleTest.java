package io.railmap.daemon.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.railmap.daemon.engine.Engine;
import io.railmap.matrix.codec.SnapshotCodec;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.model.PortState;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The API on a real HTTP server on loopback, over an engine holding two Macs with crossed cables and
 * a real cluster member that is alone on loopback.
 */
class ApiVerticleTest {
    private static ApiOnLoopback api;
    private static final ObjectMapper JSON = new ObjectMapper();

    private static Port port(String node, String netdev, String far) {
        return new Port(node, netdev, Optional.of("rdma_" + netdev), 1, PortKind.THUNDERBOLT, Optional.of(80.0),
                PortState.ACTIVE, Optional.empty(), List.of(PortRef.parse(far)));
    }

    @BeforeAll
    static void start() throws Exception {
        Engine engine = new Engine("a");
        engine.ports(List.of(port("a", "en6", "b:en7"), port("a", "en7", "b:en6")));
        engine.neighbours(Map.of("en6", List.of(PortRef.parse("b:en7")), "en7", List.of(PortRef.parse("b:en6"))));
        api = ApiOnLoopback.start("api-test", engine, List.of(new NodeRecord("b", 4, List.of(port("b", "en7", "a:en6"), port("b", "en6", "a:en7")))));
    }

    @AfterAll
    static void stop() throws Exception {
        api.close();
    }

    private static HttpResponse<Buffer> get(String uri) throws Exception {
        return api.get(uri);
    }

    private static HttpResponse<Buffer> post(String uri, String body) throws Exception {
        return api.post(uri, Buffer.buffer(body));
    }

    @Test
    void envWritesANodesLibrarySettingsAsTheCliDoesAndRefusesBadQueries() throws Exception {
        HttpResponse<Buffer> text = get("/v1/env?node=a&for=nccl");
        assertThat(text.statusCode()).as(text.bodyAsString()).isEqualTo(200);
        assertThat(text.getHeader("content-type")).startsWith("text/plain");
        // a's two crossed cables to b are rails 0 and 1 of the pair, so both NICs carry a rail id
        assertThat(text.bodyAsString()).startsWith("# nccl\n").contains("NCCL_IB_HCA==rdma_en6:1:", "rdma_en7:1:", "NCCL_CROSS_NIC=0\n");
        JsonNode json = JSON.readTree(get("/v1/env?node=a&for=nccl&format=json").bodyAsString());
        assertThat(json.get("node").asText()).isEqualTo("a");
        assertThat(json.get("libraries").get(0).get("settings").get("NCCL_CROSS_NIC").asText()).isEqualTo("0");

        assertThat(get("/v1/env?node=zz&for=nccl").statusCode()).isEqualTo(404);
        assertThat(get("/v1/env?node=a").statusCode()).isEqualTo(400);
        assertThat(get("/v1/env?node=a&for=nccl&minRateGbps=NaN").statusCode()).isEqualTo(400);
        assertThat(get("/v1/env?node=a&for=nccl&minRateGbps=-1").statusCode()).isEqualTo(400);
        assertThat(get("/v1/env?node=a&for=nccl&minRateGbps=Infinity").bodyAsString()).contains("minRateGbps must be a finite number")
                .doesNotContain("--min-rate-gbps");
        assertThat(get("/v1/env?node=a&for=gloo").bodyAsString()).contains("unknown library", "nccl");
        assertThat(get("/v1/env?node=a&for=nccl&colour=red").statusCode()).isEqualTo(400);
        // only mx reads mxStripe (ModelExpressLibrary.options); false is the default and asks for nothing
        HttpResponse<Buffer> stripe = get("/v1/env?node=a&for=nccl&mxStripe=true");
        assertThat(stripe.statusCode()).isEqualTo(400);
        assertThat(stripe.bodyAsString()).contains("mxStripe is read by mx only").doesNotContain("--mx-stripe");
        assertThat(get("/v1/env?node=a&for=nccl&mxStripe=false").statusCode()).isEqualTo(200);
        assertThat(get("/v1/env?node=a&for=mx&mxStripe=true").bodyAsString()).contains("MX_RDMA_NIC_PIN=stripe");
    }

    @Test
    void agreementSaysWhatEveryMemberHoldsAndTheDigestConfigsCarry() throws Exception {
        HttpResponse<Buffer> r = get("/v1/agreement?hosts=a,b");
        assertThat(r.statusCode()).isEqualTo(200);
        JsonNode answer = JSON.readTree(r.bodyAsString());
        // a cluster of one: this daemon is every member, so it agrees with itself
        assertThat(answer.get("agreed").asBoolean()).isTrue();
        assertThat(answer.get("records").asInt()).isEqualTo(2);
        assertThat(answer.get("members")).singleElement().satisfies(m -> {
            assertThat(m.get("self").asBoolean()).isTrue();
            assertThat(m.get("digest").asText()).isEqualTo(answer.get("digest").asText());
        });
        JsonNode plan = JSON.readTree(get("/v1/matrix?hosts=a,b&format=json").bodyAsString());
        assertThat(answer.get("hostsDigest").asText()).isEqualTo(plan.get("topology").get("digest").asText());
        assertThat(answer.get("hostsRecords").toString()).isEqualTo(plan.get("topology").get("records").toString());
        assertThat(JSON.readTree(get("/v1/agreement").bodyAsString()).get("hostsDigest").isNull()).isTrue();
        assertThat(get("/v1/agreement?hosts=a,zz").statusCode()).isEqualTo(404);
        assertThat(get("/v1/agreement?colour=red").statusCode()).isEqualTo(400);
    }

    @Test
    void recordAndSnapshot() throws Exception {
        NodeRecord record = SnapshotCodec.readRecord("response", get("/v1/record").bodyAsString());
        assertThat(record.node()).isEqualTo("a");
        assertThat(record.version()).isEqualTo(2);
        assertThat(SnapshotCodec.readSnapshot("response", get("/v1/snapshot").bodyAsString()).nodes()).containsExactly("a", "b");
        assertThat(JSON.readTree(get("/healthz").bodyAsString()).get("status").asText()).isEqualTo("ok");
    }

    @Test
    void membersListsEachMemberWithItsAddressAndTheAgeOfItsRecord() throws Exception {
        JsonNode members = JSON.readTree(get("/v1/members").bodyAsString());
        assertThat(members.get("cluster").asText()).isEqualTo("api-test");
        assertThat(members.get("viewId").isIntegralNumber()).isTrue();
        assertThat(members.get("members")).hasSize(1);
        JsonNode a = members.get("members").get(0);
        assertThat(a.get("node").asText()).isEqualTo("a");
        assertThat(a.get("address").asText()).matches("127\\.0\\.0\\.1:[0-9]+");
        assertThat(a.get("self").asBoolean()).isTrue();
        assertThat(a.get("coordinator").asBoolean()).isTrue();
        assertThat(a.get("recordVersion").asLong()).isEqualTo(2);
        assertThat(a.get("recordAgeMs").isIntegralNumber()).isTrue();
        assertThat(a.get("recordAgeMs").asLong()).isGreaterThanOrEqualTo(0);
        java.util.List<String> fields = new java.util.ArrayList<>();
        a.fieldNames().forEachRemaining(fields::add);
        assertThat(fields).containsExactly("node", "address", "self", "coordinator", "recordVersion", "recordAgeMs");
    }

    @Test
    void matrixInEveryFormat() throws Exception {
        HttpResponse<Buffer> jaccl = get("/v1/matrix?hosts=a,b");
        assertThat(jaccl.statusCode()).isEqualTo(200);
        assertThat(jaccl.bodyAsString()).isEqualTo("[\n  [null, [\"rdma_en6\",\"rdma_en7\"]],\n  [[\"rdma_en7\",\"rdma_en6\"], null]\n]\n");

        JsonNode json = JSON.readTree(get("/v1/matrix?hosts=b,a&format=json&order=ring").bodyAsString());
        assertThat(json.get("ranks").toString()).isEqualTo("[\"b\",\"a\"]");
        assertThat(json.get("ring").asBoolean()).isTrue();

        assertThat(get("/v1/matrix?format=env&coordinator=10.0.0.1:4000&rank=0").bodyAsString()).contains("MLX_JACCL_RING=1");
        assertThat(get("/v1/matrix?format=launch&ip=a=10.0.0.1").bodyAsString()).contains("\"backend\" : \"jaccl-ring\"");
        assertThat(get("/v1/matrix?format=dot").bodyAsString()).startsWith("graph railmap {");
        assertThat(get("/v1/matrix?maxWires=1").bodyAsString()).isEqualTo("[\n  [null, \"rdma_en6\"],\n  [\"rdma_en7\", null]\n]\n");
    }

    /** Each format reads its own parameters (Formats, FormatOption): one it does not read is refused, never ignored. */
    @Test
    void aParameterTheFormatDoesNotReadIsRefusedNamingWhoReadsIt() throws Exception {
        HttpResponse<Buffer> rank = get("/v1/matrix?format=json&rank=0");
        assertThat(rank.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(rank.bodyAsString()).get("error").asText()).isEqualTo("rank does not apply to format json: only env read it; leave it out");
        HttpResponse<Buffer> order = get("/v1/matrix?format=ring-hosts&maxWires=2");
        assertThat(order.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(order.bodyAsString()).get("error").asText()).startsWith("maxWires does not apply to format ring-hosts: only jaccl, env,");
        assertThat(get("/v1/matrix?format=launch&ip=a=10.0.0.1&maxWires=1").statusCode()).isEqualTo(200);
    }

    @Test
    void badRequestsSayWhatWasWrong() throws Exception {
        for (String uri : List.of("/v1/matrix?minRateGbps=NaN", "/v1/matrix?maxWires=x", "/v1/matrix?format=xml",
                "/v1/matrix?colour=red", "/v1/matrix?format=env", "/v1/matrix?hosts=a,,b", "/v1/matrix?order=spiral")) {
            HttpResponse<Buffer> r = get(uri);
            assertThat(r.statusCode()).as(uri).isEqualTo(400);
            assertThat(JSON.readTree(r.bodyAsString()).get("error").asText()).as(uri).isNotBlank();
        }
        HttpResponse<Buffer> unknown = get("/v1/matrix?hosts=a,zed");
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(JSON.readTree(unknown.bodyAsString()).get("unknown").toString()).isEqualTo("[\"zed\"]");
    }

    @Test
    void checkReportsAMismatchedRail() throws Exception {
        HttpResponse<Buffer> r = post("/v1/check?hosts=a,b", "[[null, [\"rdma_en6\",\"rdma_en7\"]], [[\"rdma_en6\",\"rdma_en7\"], null]]");
        assertThat(r.statusCode()).isEqualTo(200);
        JsonNode json = JSON.readTree(r.bodyAsString());
        // rail 0 is an error; rail 1 a warning: jaccl runs this file as a mesh, which opens wire 0 only, and a ring
        // forced from outside (MLX_JACCL_RING) would fail on it (docs/check.md, the modes)
        assertThat(json.get("errors").asInt()).isEqualTo(1);
        List<String> findings = new java.util.ArrayList<>();
        json.get("findings").forEach(f -> findings.add(f.get("severity").asText() + " " + f.get("code").asText()));
        assertThat(findings).startsWith("error mismatched-rail").contains("warning mismatched-rail");
        assertThat(json.get("findings").get(0).get("code").asText()).isEqualTo("mismatched-rail");
        assertThat(json.get("findings").get(0).get("ports").get(0).asText()).isEqualTo("a:en6");

        HttpResponse<Buffer> malformed = post("/v1/check?hosts=a,b", "[[null, 3]]");
        assertThat(malformed.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(malformed.bodyAsString()).get("error").asText()).startsWith("request body: at $[0][1]");
        assertThat(post("/v1/check", "[]").statusCode()).isEqualTo(400);
        HttpResponse<Buffer> twice = post("/v1/check?hosts=a,b&hosts=b,a", "[[null, null], [null, null]]");
        assertThat(twice.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(twice.bodyAsString()).get("error").asText()).contains("\"hosts\" is given more than once");
        assertThat(post("/v1/check?hosts=a,b&mode=spiral", "[]").statusCode()).isEqualTo(400);
    }

    @Test
    void checkTakesAnMlxLaunchHostfileThatNamesItsHosts() throws Exception {
        String good = "{\"backend\": \"jaccl-ring\", \"envs\": [], \"hosts\": ["
                + "{\"ssh\": \"a.local\", \"ips\": [\"10.0.0.1\"], \"rdma\": [null, [\"rdma_en6\", \"rdma_en7\"]]},"
                + "{\"ssh\": \"b.local\", \"ips\": [\"10.0.0.2\"], \"rdma\": [[\"rdma_en7\", \"rdma_en6\"], null]}]}";
        HttpResponse<Buffer> r = post("/v1/check", good);
        assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(200);
        JsonNode json = JSON.readTree(r.bodyAsString());
        assertThat(json.get("ranks").toString()).isEqualTo("[\"a\",\"b\"]");
        assertThat(json.get("mode").asText()).isEqualTo("ring");
        assertThat(json.get("errors").asInt()).isZero();
        assertThat(json.get("hostfile").toString()).isEqualTo("{\"file\":\"request body\",\"backend\":\"jaccl-ring\","
                + "\"hosts\":[\"a.local\",\"b.local\"],\"modeFrom\":\"backend\"}");

        // b lists its cables in its own order: both rails join two different cables
        JsonNode swapped = JSON.readTree(post("/v1/check?hosts=a,b", good.replace("[\"rdma_en7\", \"rdma_en6\"]", "[\"rdma_en6\", \"rdma_en7\"]"))
                .bodyAsString());
        assertThat(swapped.get("errors").asInt()).isEqualTo(2);
        assertThat(swapped.get("findings").get(0).get("code").asText()).isEqualTo("mismatched-rail");

        HttpResponse<Buffer> unknown = post("/v1/check", good.replace("b.local", "mac2"));
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(JSON.readTree(unknown.bodyAsString()).get("error").asText())
                .startsWith("request body: at $.hosts[1].ssh: \"mac2\" (rank 1) is no node railmap knows (known: a, b)")
                .contains("give hosts= with the node of each host");
        assertThat(post("/v1/check?hosts=a,b", good.replace("b.local", "mac2")).statusCode()).isEqualTo(200);

        HttpResponse<Buffer> noIps = post("/v1/check", good.replace("[\"10.0.0.1\"]", "[]"));
        assertThat(noIps.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(noIps.bodyAsString()).get("error").asText()).startsWith("request body: at $.hosts[0].ips: rank 0")
                .contains("\"Rank 0 should have an IP reachable from all other ranks\"");
        HttpResponse<Buffer> noBackend = post("/v1/check", good.replace("\"backend\": \"jaccl-ring\", ", ""));
        assertThat(noBackend.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(noBackend.bodyAsString()).get("error").asText()).contains("or give mode= to check");
        assertThat(JSON.readTree(post("/v1/check?mode=mesh", good).bodyAsString()).get("hostfile").get("modeFrom").asText()).isEqualTo("given");
        HttpResponse<Buffer> disagree = post("/v1/check?hosts=b,a", good);
        assertThat(disagree.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(disagree.bodyAsString()).get("error").asText()).startsWith("hosts= does not agree with request body");

        HttpResponse<Buffer> devices = post("/v1/check", "[[null, \"rdma_en6\"], [\"rdma_en7\", null]]");
        assertThat(devices.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(devices.bodyAsString()).get("error").asText()).startsWith("hosts= is required with a jaccl devices file");
        HttpResponse<Buffer> latin1 = api.post("/v1/check", Buffer.buffer(new byte[] {'[', (byte) 0xe9, ']'}));
        assertThat(latin1.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(latin1.bodyAsString()).get("error").asText()).startsWith("the request body is not UTF-8 text");
    }

    @Test
    void metricsArePrometheusText() throws Exception {
        HttpResponse<Buffer> r = get("/metrics");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.getHeader("content-type")).startsWith("text/plain");
    }

    @Test
    void theTopologySvgIsThePictureRailmapDrawsOfTheRecordsHeld() throws Exception {
        HttpResponse<Buffer> r = get("/v1/topology.svg");
        assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(200);
        assertThat(r.getHeader("content-type")).isEqualTo("image/svg+xml; charset=utf-8");
        assertThat(r.bodyAsString()).startsWith("<svg xmlns=\"http://www.w3.org/2000/svg\"")
                .contains("data-node=\"a\"", "data-node=\"b\"", "data-cable=\"a:en6 b:en7\"", "data-cable=\"a:en7 b:en6\"");
        assertThat(get("/v1/topology.svg?hosts=a").statusCode()).isEqualTo(400);
        assertThat(post("/v1/topology.svg", "").statusCode()).isEqualTo(405);
    }

    @Test
    void thePageAndD3AreServedFromTheClasspathReadOnlyAndNothingElseIs() throws Exception {
        HttpResponse<Buffer> page = get("/");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.getHeader("content-type")).startsWith("text/html");
        assertThat(page.getHeader("content-security-policy")).contains("default-src 'self'");
        // the WebJar's path in the page is the one served (Maven writes d3's version into it)
        String d3 = page.bodyAsString().replaceAll("(?s).*<script src=\"(webjars/d3/[^\"]+)\".*", "$1");
        assertThat(d3).matches("webjars/d3/[0-9.]+/dist/d3.min.js");
        HttpResponse<Buffer> library = get("/" + d3);
        assertThat(library.statusCode()).isEqualTo(200);
        assertThat(library.getHeader("content-type")).contains("javascript");
        assertThat(library.bodyAsString()).contains("d3js.org");
        HttpResponse<Buffer> script = get("/page/page.js");
        assertThat(script.statusCode()).isEqualTo(200);
        assertThat(script.bodyAsString()).contains("v1/topology.svg", "v1/events");
        assertThat(get("/page/page.css").getHeader("content-type")).startsWith("text/css");

        for (String outside : List.of("/page/", "/page/../../../../etc/passwd", "/page/%2e%2e/%2e%2e/etc/passwd", "/webjars/",
                "/page/nothing.js", "/index.html", "/railmap-page/page.js", "/webjars/../railmap-page/page.js")) {
            HttpResponse<Buffer> r = get(outside);
            assertThat(r.statusCode()).as(outside).isIn(400, 404);
            assertThat(JSON.readTree(r.bodyAsString()).get("error").asText()).as(outside).isNotEmpty();
        }
        HttpResponse<Buffer> posted = post("/", "x");
        assertThat(posted.statusCode()).isEqualTo(405);
        assertThat(posted.getHeader("allow")).isEqualTo("GET");
        assertThat(post("/page/page.js", "x").getHeader("allow")).isEqualTo("GET");
        assertThat(get("/?x=1").statusCode()).isEqualTo(400);
    }
}
