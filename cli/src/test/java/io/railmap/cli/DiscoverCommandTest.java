package io.railmap.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.railmap.matrix.codec.SnapshotCodec;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Port;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DiscoverCommandTest {
    /** The real captures, kept with the daemon's discovery tests. */
    private static final Path MACOS = Path.of("../daemon/src/test/resources/fixtures/macos");

    @TempDir
    Path dir;

    @Test
    void aMacCaptureBecomesARecordWhoseRailsGoByTheRightInterfaces() throws IOException {
        Files.copy(MACOS.resolve("system_profiler_thunderbolt_m5max_macbookpro.json"), dir.resolve("system_profiler.json"));
        Files.copy(MACOS.resolve("networksetup_m5max_macbookpro.txt"), dir.resolve("networksetup.txt"));
        Files.writeString(dir.resolve("rdma_ctl.txt"), "enabled\n");

        Run run = Run.of("discover", "--node", "mbp", "--macos-capture", dir.toString());

        assertThat(run.code()).as(run.err()).isZero();
        NodeRecord record = SnapshotCodec.readRecord("stdout", run.out());
        assertThat(record.node()).isEqualTo("mbp");
        // receptacle 1 -> "Thunderbolt 1" -> en1 is the linked one; receptacle 2 is en6, not en2
        Port linked = record.port("en1").orElseThrow();
        assertThat(linked.rdma()).contains("rdma_en1");
        assertThat(linked.thunderbolt().orElseThrow().rdmaCapable()).isTrue();
        assertThat(record.port("en6").orElseThrow().thunderbolt().orElseThrow().receptacle()).isEqualTo(2);
    }

    @Test
    void aMissingCaptureIsAnInputError() {
        Run run = Run.of("discover", "--node", "mbp", "--macos-capture", dir.resolve("nope").toString());
        assertThat(run.code()).isEqualTo(ExitCodes.INPUT);
        assertThat(run.err()).startsWith("railmap: ").contains("nope");
    }

    @Test
    void thisMachinesOwnSysfsIsReadWhenNothingElseIsSaid() {
        Run run = Run.of("discover", "--node", "here", "--interfaces", "lo");
        assertThat(run.code()).as(run.err()).isZero();
        assertThat(SnapshotCodec.readRecord("stdout", run.out()).port("lo")).isPresent();
    }
}
