package io.railmap.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.railmap.matrix.codec.SnapshotCodec;
import io.railmap.matrix.jaccl.MlxVersion;
import io.railmap.matrix.job.JobCheck;
import io.railmap.matrix.job.JobsJson;
import io.railmap.matrix.job.Ranks;
import io.railmap.matrix.model.LocalRank;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.model.PortState;
import io.railmap.matrix.model.Snapshot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code railmap jobs --snapshot FILE}: two Macs with crossed cables (a:en6–b:en7, a:en7–b:en6) and the ranks their records publish. */
class JobsCommandTest {
    @TempDir
    Path dir;

    private static Port port(String node, String netdev, String far) {
        return new Port(node, netdev, Optional.of("rdma_" + netdev), 1, PortKind.THUNDERBOLT, Optional.of(80.0),
                PortState.ACTIVE, Optional.empty(), List.of(PortRef.parse(far)));
    }


    /** A jaccl rank (coordinator 10.0.0.1:32323) with its devices row: cells "-" (null) or one name. */
    private static LocalRank rank(long pid, int rank, String... row) {
        return Ranks.jaccl(pid, rank, "10.0.0.1:32323", Ranks.row(String.join("|", row)));
    }

    private Path snapshot(LocalRank onA, LocalRank onB) throws Exception {
        Snapshot s = new Snapshot(List.of(
                new NodeRecord("a", 3, List.of(port("a", "en6", "b:en7"), port("a", "en7", "b:en6"))).withRanks(List.of(onA)),
                new NodeRecord("b", 4, List.of(port("b", "en7", "a:en6"), port("b", "en6", "a:en7"))).withRanks(List.of(onB))));
        Path file = dir.resolve("cluster.json");
        Files.writeString(file, SnapshotCodec.write(s));
        return file;
    }

    @Test
    void anAlignedJobIsOneOkLine() throws Exception {
        Run run = Run.of("jobs", "--snapshot", snapshot(rank(4242, 0, "-", "rdma_en6"), rank(4343, 1, "rdma_en7", "-")).toString());

        assertThat(run.code()).as(run.err()).isEqualTo(ExitCodes.OK);
        assertThat(run.out().lines().toList()).containsExactly(
                "JOB                   RANKS  NODES  VERDICT",
                "jaccl 10.0.0.1:32323  0,1    a,b    ok");
    }

    @Test
    void exosFailureIsAnErrorLineThenTheFindingNamingBothCables() throws Exception {
        // each node picked "its" port towards the other on its own: a:en6 and b:en6 are ends of two different cables
        Run run = Run.of("jobs", "--snapshot", snapshot(rank(4242, 0, "-", "rdma_en6"), rank(4343, 1, "rdma_en6", "-")).toString());

        assertThat(run.code()).as(run.err()).isEqualTo(ExitCodes.FINDINGS);
        List<String> lines = run.out().lines().toList();
        assertThat(lines.get(1)).isEqualTo("jaccl 10.0.0.1:32323  0,1    a,b    error");
        assertThat(lines.get(2)).startsWith("error job-rail-mismatch").contains("rank 0 (a, pid 4242) and rank 1 (b, pid 4343)",
                "a:en6\u2013b:en7", "a:en7\u2013b:en6");
    }

    @Test
    void jsonIsTheDocumentOfGetV1JobsWithTheSameVerdictAndFindings() throws Exception {
        Path file = snapshot(rank(4242, 0, "-", "rdma_en6"), rank(4343, 1, "rdma_en6", "-"));
        Run run = Run.of("jobs", "--snapshot", file.toString(), "--json");

        assertThat(run.code()).as(run.err()).isEqualTo(ExitCodes.FINDINGS);
        JsonNode root = new ObjectMapper().readTree(run.out());
        assertThat(root.fieldNames()).toIterable().containsExactly("mlxVersion", "jobs", "ranksLeftOut", "jobsLeftOut");
        JsonNode job = root.get("jobs").get(0);
        assertThat(job.fieldNames()).toIterable().containsExactly("id", "kind", "size", "verdict", "nodes", "ranks", "findings");
        assertThat(job.get("id").asText()).isEqualTo("jaccl 10.0.0.1:32323");
        assertThat(job.get("verdict").asText()).isEqualTo("error");
        assertThat(job.get("ranks").get(1).toString()).isEqualTo("{\"rank\":1,\"node\":\"b\",\"pid\":4343,\"startedMs\":1700000004343}");
        assertThat(job.get("findings").get(0).get("code").asText()).isEqualTo("job-rail-mismatch");
        assertThat(job.get("findings").get(0).get("ports")).hasSize(4);
        // the very bytes the daemon writes for the same snapshot (ApiVerticle's GET /v1/jobs)
        Snapshot read = SnapshotCodec.readSnapshot("cluster.json", Files.readString(file));
        assertThat(run.out()).isEqualTo(JobsJson.render(JobCheck.check(read, MlxVersion.NEWEST), MlxVersion.NEWEST));
        assertThat(Run.of("jobs", "--snapshot", file.toString(), "--format", "json").out()).isEqualTo(run.out());
    }

    @Test
    void noRankIsSaidSo() throws Exception {
        Path file = dir.resolve("none.json");
        Files.writeString(file, SnapshotCodec.write(new Snapshot(List.of(new NodeRecord("a", 1, List.of())))));
        Run run = Run.of("jobs", "--snapshot", file.toString());
        assertThat(run.code()).isZero();
        assertThat(run.out()).isEqualTo("no running job: no record publishes a rank\n");
    }
}
