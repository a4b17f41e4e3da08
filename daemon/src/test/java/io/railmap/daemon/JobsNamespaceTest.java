package io.railmap.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.railmap.daemon.testing.DaemonProcess;
import io.railmap.daemon.testing.NamespacesAvailable;
import io.railmap.daemon.testing.RankLab;
import io.railmap.matrix.model.LocalRank;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Snapshot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two real daemons (a, b) in two namespaces on one management bridge. A stand-in rank, {@code sleep}
 * with MLX settings and a planted secret in its environment, started in a's namespace: it appears in
 * a's record in both daemons' snapshots within a bounded wait (a scan every 2 s, then the record's
 * dissemination); the secret appears in no
 * record, API answer or daemon log; the rank leaves when the process exits. Daemon b runs with
 * {@code --rank-scan-ms off}: the rank started in its namespace is never in its record, and it says so once
 * (that a scanning daemon skips another namespace's process is asserted by {@link JobVerdictsNamespaceTest}).
 */
@ExtendWith(NamespacesAvailable.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JobsNamespaceTest {
    private static final String SECRET = "wJalrXUtnFEMI-planted-K7MDENG";
    /** A scan every 2 s, a scan that may take a while on a busy test machine, and the record's way to the other daemon. */
    private static final Duration BOUND = Duration.ofSeconds(8);
    private static final Duration POLL = Duration.ofMillis(200);

    @TempDir
    static Path dir;
    private RankLab lab;
    private Map<String, DaemonProcess> daemons;

    @BeforeAll
    void labWithTwoDaemons() throws Exception {
        lab = RankLab.create(dir, "10.78.0.", List.of("a", "b"));
        lab.cable("a", "en1", "b", "en1");
        lab.start("lab", Map.of("b", List.of("--rank-scan-ms", "off")));
        daemons = lab.daemons();
        await("both daemons hold both records").atMost(Duration.ofSeconds(60)).pollInterval(POLL).ignoreExceptions()
                .until(() -> daemons.values().stream().allMatch(d -> d.snapshot().records().size() == 2));
    }

    @AfterAll
    void stop() {
        if (lab != null) {
            lab.close();
        }
    }

    private static Optional<LocalRank> rankIn(Snapshot snapshot, String node, long pid) {
        return snapshot.record(node).stream().flatMap(r -> r.ranks().stream()).filter(r -> r.pid() == pid).findFirst();
    }

    @Test
    void aRankStartedInNodeAsNamespaceIsInEveryDaemonsSnapshotWithoutItsSecretAndLeavesWhenItExits() throws Exception {
        Path devices = Files.writeString(dir.resolve("hosts_1_0.json"), "[[null, \"rdma_en1\"], [\"rdma_en1\", null]]\n");
        Process sleep = lab.rank("a", Map.of("MLX_RANK", "0", "MLX_IBV_DEVICES", devices.toString(), "MLX_JACCL_COORDINATOR", "10.78.0.1:5000",
                "AWS_SECRET_ACCESS_KEY", SECRET, "GITHUB_TOKEN", SECRET), "sleep");
        // b scans no process (--rank-scan-ms off): its own rank of the same job is never published
        Process onB = lab.rank("b", Map.of("MLX_RANK", "1", "MLX_IBV_DEVICES", devices.toString(), "MLX_JACCL_COORDINATOR", "10.78.0.1:5000"),
                "sleep-b");
        try {
            long pid = sleep.pid();
            await("the rank is in a's record in every daemon's snapshot").atMost(BOUND).pollInterval(POLL).ignoreExceptions()
                    .until(() -> daemons.values().stream().allMatch(d -> rankIn(d.snapshot(), "a", pid).isPresent()));

            for (DaemonProcess d : daemons.values()) {
                Snapshot snapshot = d.snapshot();
                LocalRank rank = rankIn(snapshot, "a", pid).orElseThrow();
                assertThat(rank.settings()).containsOnlyKeys("MLX_RANK", "MLX_IBV_DEVICES", "MLX_JACCL_COORDINATOR");
                assertThat(rank.devices()).contains(List.of(List.of(), List.of("rdma_en1")));
                assertThat(snapshot.record("b").orElseThrow().ranks()).as("b scans no process").isEmpty();
            }
            NodeRecord a = daemons.get("a").record();
            assertThat(a.ranks()).anyMatch(r -> r.pid() == pid);
            for (DaemonProcess d : daemons.values()) {
                for (String uri : List.of("/v1/snapshot", "/v1/record", "/v1/agreement", "/v1/matrix", "/v1/check", "/v1/env", "/metrics", "/v1/members")) {
                    String body = d.get(uri).bodyAsString();
                    assertThat(body).as(d.node() + " " + uri).doesNotContain(SECRET).doesNotContain("AWS_SECRET").doesNotContain("GITHUB_TOKEN");
                }
                assertThat(d.log()).as(d.node() + "'s log").doesNotContain(SECRET).doesNotContain("AWS_SECRET");
            }
            String offLine = "running jobs are not looked for: --rank-scan-ms off";
            assertThat(daemons.get("b").log().split(offLine, -1)).as("said once in b's log").hasSize(2);
            assertThat(daemons.get("b").log()).doesNotContain("CAP_SYS_PTRACE");
            assertThat(daemons.get("a").log()).doesNotContain(offLine);

            sleep.destroy();
            assertThat(sleep.waitFor(10, TimeUnit.SECONDS)).isTrue();
            await("the rank leaves every daemon's snapshot").atMost(BOUND).pollInterval(POLL).ignoreExceptions()
                    .until(() -> daemons.values().stream().allMatch(d -> rankIn(d.snapshot(), "a", pid).isEmpty()));
        } finally {
            sleep.destroyForcibly();
            onB.destroyForcibly();
        }
    }
}
