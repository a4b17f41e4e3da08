package io.railmap.matrix.check;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.railmap.matrix.codec.FormatException;
import io.railmap.matrix.codec.SnapshotCodec;
import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Severity;
import io.railmap.matrix.jaccl.MlxVersion;
import io.railmap.matrix.model.Snapshot;
import io.railmap.matrix.provenance.Provenance;
import io.railmap.matrix.provenance.RecordId;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@link FileCheck} on the hostfile MLX 0.32.1's {@code configure_jaccl_ring} wrote for four Mac Studios. */
class FileCheckTest {
    private static final Path EXAMPLES = Path.of("..", "examples");

    private static Snapshot snapshot() throws Exception {
        return SnapshotCodec.readSnapshot("four-studios-ring.json", Files.readString(EXAMPLES.resolve("snapshots/four-studios-ring.json")));
    }

    private static CheckReport check(String hostfile, MlxVersion version) throws Exception {
        Snapshot snapshot = snapshot();
        return FileCheck.check(snapshot, "hostfile.json", hostfile,
                new CheckOptions(Optional.empty(), Optional.empty(), "--hosts", "--mode", version));
    }

    private static CheckReport checkDevices(String devices, MlxVersion version) throws Exception {
        Snapshot snapshot = SnapshotCodec.readSnapshot("four-studios-ring.json",
                Files.readString(EXAMPLES.resolve("snapshots/four-studios-ring.json")));
        return FileCheck.check(snapshot, "devices.json", devices,
                new CheckOptions(Optional.of(List.of("studio-a", "studio-b")), Optional.empty(), "--hosts", "--mode", version));
    }

    @Test
    void anArrayCellCannotBeParsedBefore0306() throws Exception {
        // v0.30.5 mlx/distributed/jaccl/jaccl.cpp load_device_names: a non-null cell is assigned to a
        // std::string, which throws for any JSON array, even [] or one name; v0.30.6 DeviceFile reads arrays
        String arrays = "[[[], [\"rdma_en2\"]], [[\"rdma_en4\"], null]]";
        CheckReport old = checkDevices(arrays, new MlxVersion(0, 30, 5));
        assertThat(old.findings()).filteredOn(f -> f.code() == Code.NEEDS_NEWER_MLX && f.isError()).singleElement().satisfies(f -> {
            assertThat(f.message()).contains("3 cells", "[0][0], [0][1], [1][0]", "MLX 0.30.5", "0.30.6");
        });
        assertThat(checkDevices(arrays, MlxVersion.RING).hasErrors()).isFalse();
        assertThat(checkDevices("[[null, \"rdma_en2\"], [\"rdma_en4\", null]]", new MlxVersion(0, 30, 5)).hasErrors()).isFalse();
    }

    @Test
    void eachReleasesMlxLaunchReadsItsOwnHostfileForm() throws Exception {
        String written = Files.readString(EXAMPLES.resolve("hostfiles/four-studios-ring.json"));
        // v0.30.5 python/mlx/_distributed_utils/common.py parse_hostfile: enumerate(json.load(f)) then h["ssh"]:
        // an object's keys are strings, so only a bare array of hosts parses
        assertThatThrownBy(() -> check(written, new MlxVersion(0, 30, 5))).isInstanceOf(FormatException.class)
                .hasMessageContaining("only as a bare array of hosts").hasMessageContaining("--backend jaccl");
        // v0.32.0 common.py Hostfile.from_file: data["backend"] and data["envs"] (v0.32.1: data.get)
        String noEnvs = written.replaceFirst("\"envs\"\\s*:\\s*\\[\\s*\\],", "");
        assertThat(noEnvs).isNotEqualTo(written);
        assertThatThrownBy(() -> check(noEnvs, new MlxVersion(0, 32, 0))).isInstanceOf(FormatException.class)
                .hasMessageContaining("no \"envs\"").hasMessageContaining("\"envs\": []");
        assertThat(check(noEnvs, MlxVersion.NEWEST).hasErrors()).isFalse();
        assertThat(check(written, new MlxVersion(0, 32, 0)).hasErrors()).isFalse();
        // a bare array names no backend before 0.30.6: the backend is mlx.launch's --backend, so a mode must be given
        String bare = "[{\"ssh\": \"studio-a\", \"ips\": [\"192.168.1.21\"], \"rdma\": [null, \"rdma_en2\"]},"
                + " {\"ssh\": \"studio-b\", \"rdma\": [\"rdma_en4\", null]}]";
        assertThatThrownBy(() -> check(bare, new MlxVersion(0, 30, 5))).isInstanceOf(FormatException.class)
                .hasMessageContaining("command line only");
        CheckOptions mesh = new CheckOptions(Optional.empty(), Optional.of(Mode.MESH), "--hosts", "--mode", new MlxVersion(0, 30, 5));
        assertThat(FileCheck.check(snapshot(), "h.json", bare, mesh).hasErrors()).isFalse();
        // mlx.launch copies rdma cells into the devices file as they are (v0.30.5 launch.py launch_jaccl,
        // json.dumps([h.rdma for h in hosts])), and v0.30.5 jaccl.cpp load_device_names cannot parse an array
        assertThat(FileCheck.check(snapshot(), "h.json", bare.replace("\"rdma_en2\"", "[\"rdma_en2\"]"), mesh).findings())
                .filteredOn(f -> f.code() == Code.NEEDS_NEWER_MLX).singleElement()
                .satisfies(f -> assertThat(f.message()).contains("1 cell is", "[0][1]"));
    }

    @Test
    void aJacclVariableInEnvsReplacesWhatMlxLaunchHandsEachRank() throws Exception {
        String written = Files.readString(EXAMPLES.resolve("hostfiles/four-studios-ring.json"));
        assertThat(check(written, MlxVersion.NEWEST).hasErrors()).isFalse();
        // lib/jaccl/jaccl.cpp Config::from_env (0.31.2): JACCL_RANK is read before the MLX_RANK mlx.launch exports per rank
        String pinned = written.replaceFirst("\"envs\"\\s*:\\s*\\[\\s*\\]", "\"envs\": [\"JACCL_RANK=0\"]");
        assertThat(pinned).isNotEqualTo(written);
        assertThat(check(pinned, MlxVersion.NEWEST).findings()).filteredOn(f -> f.code() == Code.OVERRIDDEN_BY_ENVS).singleElement()
                .satisfies(f -> assertThat(f.message()).contains("JACCL_RANK", "MLX_RANK", "remove JACCL_RANK"));
        // MLX 0.31.1 reads no JACCL_* name: the entry does nothing there
        assertThat(check(pinned, new MlxVersion(0, 31, 1)).findings()).noneMatch(f -> f.code() == Code.OVERRIDDEN_BY_ENVS);
    }

    @Test
    void aHostfileMadeFromOtherRecordsIsStaleAndSaysWhatChanged() throws Exception {
        String written = Files.readString(EXAMPLES.resolve("hostfiles/four-studios-ring.json"));
        Snapshot snapshot = SnapshotCodec.readSnapshot("four-studios-ring.json",
                Files.readString(EXAMPLES.resolve("snapshots/four-studios-ring.json")));
        Provenance now = Provenance.of(snapshot.records());
        String current = written.replaceFirst("\"envs\"\\s*:\\s*\\[\\s*\\]", "\"envs\": [\"RAILMAP_TOPOLOGY=" + now.digest()
                + "\", \"RAILMAP_RECORDS=" + now.recordList() + "\"]");
        assertThat(check(current, MlxVersion.NEWEST).findings()).noneMatch(f -> f.code() == Code.STALE_CONFIG);

        RecordId b = now.records().get(1);
        String older = now.recordList().replace(b.toString(), new RecordId(b.node(), b.version() - 1, "0badc0de").toString());
        String stale = written.replaceFirst("\"envs\"\\s*:\\s*\\[\\s*\\]", "\"envs\": [\"RAILMAP_TOPOLOGY=sha256:" + "0".repeat(64)
                + "\", \"RAILMAP_RECORDS=" + older + "\"]");
        CheckReport report = check(stale, MlxVersion.NEWEST);
        assertThat(report.hasErrors()).as("the rails are still right").isFalse();
        assertThat(report.findings()).filteredOn(f -> f.code() == Code.STALE_CONFIG).singleElement().satisfies(f -> {
            assertThat(f.severity()).isEqualTo(Severity.WARNING);
            assertThat(f.message()).contains(b.node() + "'s record changed (version " + (b.version() - 1) + " -> " + b.version() + ")",
                    now.digest());
        });
    }
}
