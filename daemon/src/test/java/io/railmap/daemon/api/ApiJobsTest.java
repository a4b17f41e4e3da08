package io.railmap.daemon.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.railmap.daemon.engine.Engine;
import io.railmap.matrix.job.Ranks;
import io.railmap.matrix.model.LocalRank;
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
 * {@code GET /v1/jobs} on a real HTTP server on loopback: two Macs with crossed cables (a:en6–b:en7,
 * a:en7–b:en6), this node's rank in its own record and b's in b's record, as the daemons publish them.
 */
class ApiJobsTest {
    private static ApiOnLoopback api;
    private static Engine engine;
    private static final ObjectMapper JSON = new ObjectMapper();

    private static Port port(String node, String netdev, String far) {
        return new Port(node, netdev, Optional.of("rdma_" + netdev), 1, PortKind.THUNDERBOLT, Optional.of(80.0),
                PortState.ACTIVE, Optional.empty(), List.of(PortRef.parse(far)));
    }


    /** A jaccl rank (coordinator 10.0.0.1:32323) with its devices row: cells "-" (null) or one name. */
    private static LocalRank rank(long pid, int rank, String... row) {
        return Ranks.jaccl(pid, rank, "10.0.0.1:32323", Ranks.row(String.join("|", row)));
    }

    @BeforeAll
    static void start() throws Exception {
        engine = new Engine("a");
        engine.ports(List.of(port("a", "en6", "b:en7"), port("a", "en7", "b:en6")));
        engine.neighbours(Map.of("en6", List.of(PortRef.parse("b:en7")), "en7", List.of(PortRef.parse("b:en6"))));
        // exo PR 2160: a picks en6 towards b, b picks en6 towards a, each on its own: a:en6 and b:en6 are ends of two cables
        engine.ranks(List.of(rank(4242, 0, "-", "rdma_en6")));
        NodeRecord b = new NodeRecord("b", 4, List.of(port("b", "en7", "a:en6"), port("b", "en6", "a:en7")))
                .withRanks(List.of(rank(4343, 1, "rdma_en6", "-")));
        api = ApiOnLoopback.start("api-jobs-test", engine, List.of(b));
    }

    @AfterAll
    static void stop() throws Exception {
        api.close();
    }

    @Test
    void eachJobHasItsRanksNodesVerdictAndFindingsNamingBothCables() throws Exception {
        HttpResponse<Buffer> r = api.get("/v1/jobs");
        assertThat(r.statusCode()).isEqualTo(200);
        JsonNode root = JSON.readTree(r.bodyAsString());
        assertThat(root.get("mlxVersion").asText()).isNotEmpty();
        assertThat(root.get("ranksLeftOut").asInt()).isZero();
        JsonNode job = root.get("jobs").get(0);
        assertThat(root.get("jobs")).hasSize(1);
        assertThat(job.get("id").asText()).isEqualTo("jaccl 10.0.0.1:32323");
        assertThat(job.get("kind").asText()).isEqualTo("jaccl");
        assertThat(job.get("size").asInt()).isEqualTo(2);
        assertThat(job.get("verdict").asText()).isEqualTo("error");
        assertThat(job.get("nodes").toString()).isEqualTo("[\"a\",\"b\"]");
        assertThat(job.get("ranks").toString()).contains("\"pid\":4242", "\"pid\":4343", "\"node\":\"b\"");
        JsonNode finding = job.get("findings").get(0);
        assertThat(finding.get("code").asText()).isEqualTo("job-rail-mismatch");
        assertThat(finding.get("rail").asInt()).isZero();
        assertThat(finding.get("ports").toString()).contains("a:en6", "b:en7", "a:en7", "b:en6");
        assertThat(finding.get("message").asText()).contains("rank 0 (a, pid 4242)", "rank 1 (b, pid 4343)");
        // the settings of a process are not shown: only what places its rank
        assertThat(r.bodyAsString()).doesNotContain("MLX_IBV_DEVICES", "hosts_");
    }

    @Test
    void takesNoQuery() throws Exception {
        assertThat(api.get("/v1/jobs?all").statusCode()).isEqualTo(400);
    }
}
