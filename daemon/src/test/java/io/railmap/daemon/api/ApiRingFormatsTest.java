package io.railmap.daemon.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.railmap.daemon.engine.Engine;
import io.railmap.matrix.codec.SnapshotCodec;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.Snapshot;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /v1/matrix?format=ring-launch|ring-hosts} on a real HTTP server on loopback, over an engine
 * holding examples/snapshots/four-studios-ring-ips.json: four Macs in a ring of Thunderbolt cables whose
 * ends carry IPv4 addresses (cable k: 192.168.k.1 and .2), this daemon being studio-a.
 */
class ApiRingFormatsTest {
    private static ApiOnLoopback api;
    private static final ObjectMapper JSON = new ObjectMapper();

    @BeforeAll
    static void start() throws Exception {
        Path file = Path.of("../examples/snapshots/four-studios-ring-ips.json");
        Snapshot ring = SnapshotCodec.readSnapshot(file.toString(), Files.readString(file));
        NodeRecord self = ring.records().stream().filter(r -> r.node().equals("studio-a")).findFirst().orElseThrow();
        Engine engine = new Engine("studio-a", self.management());
        engine.ports(self.ports(), Optional.of(true));
        Map<String, List<io.railmap.matrix.model.PortRef>> heard = new HashMap<>();
        for (Port p : self.ports()) {
            heard.put(p.netdev(), p.neighbours());
        }
        engine.neighbours(heard);
        api = ApiOnLoopback.start("api-ring-test", engine, ring.records().stream().filter(r -> !r.node().equals("studio-a")).toList());
    }

    @AfterAll
    static void stop() throws Exception {
        api.close();
    }

    private static HttpResponse<Buffer> get(String uri) throws Exception {
        return api.get(uri);
    }

    /** The same hostfile as {@code railmap matrix --format ring-launch} on that snapshot (MatrixRingHostfileTest). */
    @Test
    void ringLaunchIsTheHostfileOfEachHostsCableEndsInRingOrder() throws Exception {
        HttpResponse<Buffer> reply = get("/v1/matrix?format=ring-launch");

        assertThat(reply.statusCode()).as(reply.bodyAsString()).isEqualTo(200);
        assertThat(reply.getHeader("Content-Type")).startsWith("application/json");
        JsonNode root = JSON.readTree(reply.bodyAsString());
        assertThat(root.get("backend").asText()).isEqualTo("ring");
        List<String> hosts = new ArrayList<>();
        root.get("hosts").forEach(h -> hosts.add(h.get("ssh").asText() + " " + h.get("ips")));
        assertThat(hosts).containsExactly("studio-a [\"192.168.2.1\",\"192.168.3.1\"]", "studio-b [\"192.168.0.2\",\"192.168.1.2\"]",
                "studio-c [\"192.168.4.2\",\"192.168.5.2\"]", "studio-d [\"192.168.6.2\",\"192.168.7.2\"]");
    }

    /** ring-hosts starts at the first host given, with mlx.launch's ring ports (32323 + r·W + i). */
    @Test
    void ringHostsFollowsTheHostsGiven() throws Exception {
        HttpResponse<Buffer> reply = get("/v1/matrix?format=ring-hosts&hosts=studio-c,studio-a,studio-b,studio-d");

        assertThat(reply.statusCode()).as(reply.bodyAsString()).isEqualTo(200);
        JsonNode root = JSON.readTree(reply.bodyAsString());
        assertThat(root).hasSize(4);
        assertThat(root.get(0).get(0).asText()).startsWith("192.168.").endsWith(":32323");
        assertThat(root.get(3).get(1).asText()).endsWith(":32330");
    }

    /** Hosts with no ring of cables between them: 422, the sentence, and the hosts that cannot be placed, in both formats. */
    @Test
    void noRingThroughTheHostsIs422WithTheUnplaceableHosts() throws Exception {
        for (String format : List.of("ring-launch", "ring-hosts")) {
            HttpResponse<Buffer> reply = get("/v1/matrix?format=" + format + "&hosts=studio-a,studio-c");

            assertThat(reply.statusCode()).as(format).isEqualTo(422);
            assertThat(reply.getHeader("Content-Type")).startsWith("application/json");
            JsonNode error = JSON.readTree(reply.bodyAsString());
            assertThat(error.get("error").asText()).as(format).contains("no TCP ring", "no cable between studio-a, studio-c")
                    .doesNotContain("Exception");
            assertThat(error.get("unplaceable")).as(format).isNotEmpty();
            error.get("unplaceable").forEach(n -> assertThat(n.asText()).isIn("studio-a", "studio-c"));
        }
    }
}
