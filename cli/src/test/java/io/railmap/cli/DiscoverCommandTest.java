package io.railmap.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.railmap.matrix.codec.SnapshotCodec;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Port;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DiscoverCommandTest {
    /** The real captures, kept with the daemon's discovery tests. */
    private static final Path MACOS = Path.of("../discovery/src/test/resources/fixtures/macos");

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
        assertThat(record.rdmaEnabled()).contains(true);
    }

    /** --assume-rdma names rdma_<netdev> for selected ports without a device, and says on standard error that it is for labs. */
    @Test
    void assumedRdmaDevicesComeWithAWarning() throws IOException {
        Files.copy(MACOS.resolve("system_profiler_thunderbolt_m5max_macbookpro.json"), dir.resolve("system_profiler.json"));
        Files.copy(MACOS.resolve("networksetup_m5max_macbookpro.txt"), dir.resolve("networksetup.txt"));
        Files.writeString(dir.resolve("rdma_ctl.txt"), "disabled\n");

        Run run = Run.of("discover", "--node", "mbp", "--macos-capture", dir.toString(), "--assume-rdma", "en1");

        assertThat(run.code()).as(run.err()).isZero();
        NodeRecord record = SnapshotCodec.readRecord("stdout", run.out());
        assertThat(record.rdmaEnabled()).contains(false);
        assertThat(record.port("en1").orElseThrow().rdma()).contains("rdma_en1");
        assertThat(record.port("en6").orElseThrow().rdma()).isEmpty();
        assertThat(run.err()).contains("railmap: warning: --assume-rdma en1: ", "labs and tests only");
    }

    @Test
    void aMissingCaptureIsAnInputError() {
        Run run = Run.of("discover", "--node", "mbp", "--macos-capture", dir.resolve("nope").toString());
        assertThat(run.code()).isEqualTo(ExitCodes.INPUT);
        assertThat(run.err()).startsWith("railmap: ").contains("nope");
    }

    /**
     * This machine's own sysfs and addresses; where a default route's interface has an IPv4 address
     * ({@code ip route}, {@code ip addr}), that is the management address.
     */
    @Test
    void thisMachinesOwnSysfsIsReadWhenNothingElseIsSaid() throws Exception {
        Run run = Run.of("discover", "--node", "here", "--interfaces", "lo");
        assertThat(run.code()).as(run.err()).isZero();
        NodeRecord record = SnapshotCodec.readRecord("stdout", run.out());
        assertThat(record.port("lo").orElseThrow().addresses()).contains("127.0.0.1");
        Matcher route = Pattern.compile("default via \\S+ dev (\\S+)").matcher(ip("route", "show", "default"));
        Matcher address = Pattern.compile("inet ([0-9.]+)/").matcher(route.find()
                ? ip("-o", "-4", "addr", "show", "dev", route.group(1)) : "");
        if (address.find()) {
            assertThat(record.management()).contains(address.group(1));
        }
    }

    private static String ip(String... args) throws IOException, InterruptedException {
        List<String> command = new java.util.ArrayList<>(List.of("ip"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(p.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        return out;
    }
}
