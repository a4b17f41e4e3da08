package io.railmap.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.railmap.daemon.testing.DaemonProcess;
import io.railmap.daemon.testing.NamespacesAvailable;
import io.railmap.daemon.testing.RankLab;
import io.railmap.matrix.topology.Topology;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Running jobs judged by real daemons: two nodes with two straight cables (a:en1–b:en1, a:en2–b:en2,
 * their ends reported with RDMA devices {@code rdma_en1}, {@code rdma_en2}), stand-in ranks ({@code sleep}
 * with jaccl's settings, each with its own devices file, in its node's namespace). exo's failure (each rank
 * picked its own port towards the other) is {@code job-rail-mismatch} on every daemon's {@code GET /v1/jobs},
 * and its metric within 5 s; the job leaves when its ranks exit; a cable pulled under an aligned job
 * makes it {@code job-stale}.
 */
@ExtendWith(NamespacesAvailable.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JobVerdictsNamespaceTest {
    /** The bound from a job's start to its verdict on every daemon (lab timing): a rank scan every 2 s, a record's way, a rebuild. */
    private static final Duration JUDGED = Duration.ofSeconds(5);
    /** Ranks' leaving and a cable's change, on a busy test machine. */
    private static final Duration BOUND = Duration.ofSeconds(8);
    private static final Duration POLL = Duration.ofMillis(200);
    private static final ObjectMapper JSON = new ObjectMapper();
    /** In every rank's environment beside jaccl's settings: no answer may hold it. */
    private static final String SECRET = "hf_planted-token-7Qx2";

    @TempDir
    static Path dir;
    private RankLab lab;
    private Map<String, DaemonProcess> daemons;

    @BeforeAll
    void labWithTwoDaemons() throws Exception {
        lab = RankLab.create(dir, "10.79.0.", List.of("a", "b"));
        lab.cable("a", "en1", "b", "en1");
        lab.cable("a", "en2", "b", "en2");
        lab.start("jobs", Map.of("a", List.of("--assume-rdma", "en*"), "b", List.of("--assume-rdma", "en*")));
        daemons = lab.daemons();
        await("both daemons see both cables").atMost(Duration.ofSeconds(60)).pollInterval(POLL).ignoreExceptions()
                .until(() -> daemons.values().stream().allMatch(d -> Topology.of(d.snapshot()).cables().size() == 2));
    }

    @AfterAll
    void stop() {
        if (lab != null) {
            lab.close();
        }
    }

    /** Starts rank {@code rank} on {@code node}, its devices file naming {@code device} towards the other rank. */
    private Process rank(String node, int rank, String device) throws Exception {
        String row = rank == 0 ? "[null, \"" + device + "\"]" : "[\"" + device + "\", null]";
        String other = "[null, null]";
        Path devices = Files.writeString(dir.resolve("hosts_" + node + "_" + rank + ".json"),
                "[" + (rank == 0 ? row + ", " + other : other + ", " + row) + "]\n");
        return lab.rank(node, Map.of("MLX_RANK", String.valueOf(rank), "MLX_IBV_DEVICES", devices.toString(),
                "MLX_JACCL_COORDINATOR", "10.79.0.1:5000", "HF_TOKEN", SECRET), "sleep-" + node);
    }

    /** @return the job of the test's coordinator in the daemon's {@code GET /v1/jobs}, or null */
    private static JsonNode job(DaemonProcess d) {
        JsonNode jobs;
        try {
            jobs = JSON.readTree(d.get("/v1/jobs").bodyAsString()).get("jobs");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        for (JsonNode job : jobs) {
            if (job.get("id").asText().equals("jaccl 10.79.0.1:5000")) {
                return job;
            }
        }
        return null;
    }

    @Test
    void eachDirectionPickedOnItsOwnIsFlaggedByEveryDaemonNamingBothCablesAndLeavesWithItsRanks() throws Exception {
        List<Process> ranks = new ArrayList<>();
        try {
            long started = System.nanoTime();
            ranks.add(rank("a", 0, "rdma_en1"));
            ranks.add(rank("b", 1, "rdma_en2"));
            // this test's ranks, by pid: the other test's ranks of the same coordinator may still be in a record for a scan
            java.util.Set<Long> pids = java.util.Set.of(ranks.get(0).pid(), ranks.get(1).pid());
            await("every daemon judges the job of this test's ranks").atMost(JUDGED).pollInterval(POLL).ignoreExceptions()
                    .until(() -> daemons.values().stream().allMatch(d -> {
                        JsonNode job = job(d);
                        if (job == null || !job.get("verdict").asText().equals("error")) {
                            return false;
                        }
                        java.util.Set<Long> seen = new java.util.HashSet<>();
                        job.get("ranks").forEach(r -> seen.add(r.get("pid").asLong()));
                        return seen.equals(pids);
                    }));
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            System.out.println("JobVerdictsNamespaceTest: every daemon flagged the job " + ms + " ms after its ranks started");
            for (DaemonProcess d : daemons.values()) {
                // a process in another network namespace is another node's: each record holds only its own node's rank
                assertThat(d.snapshot().record("a").orElseThrow().ranks()).as(d.node()).extracting(r -> r.pid()).containsExactly(ranks.get(0).pid());
                assertThat(d.snapshot().record("b").orElseThrow().ranks()).as(d.node()).extracting(r -> r.pid()).containsExactly(ranks.get(1).pid());
                JsonNode finding = job(d).get("findings").get(0);
                assertThat(finding.get("code").asText()).as(d.node()).isEqualTo("job-rail-mismatch");
                assertThat(finding.get("message").asText()).as(d.node()).contains("rank 0 (a, pid " + ranks.get(0).pid(),
                        "a:en1\u2013b:en1", "a:en2\u2013b:en2");
                assertThat(d.get("/metrics").bodyAsString()).as(d.node()).contains("railmap_jobs{verdict=\"error\"} 1.0");
                assertThat(d.get("/v1/jobs").bodyAsString()).as(d.node()).doesNotContain(SECRET).doesNotContain("HF_TOKEN");
            }
            for (Process p : ranks) {
                p.destroy();
                assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
            }
            await("the job leaves every daemon").atMost(BOUND).pollInterval(POLL).ignoreExceptions()
                    .until(() -> daemons.values().stream().allMatch(d -> job(d) == null));
        } finally {
            ranks.forEach(Process::destroyForcibly);
        }
    }

    @Test
    void aCablePulledUnderAnAlignedJobMakesItStaleOnEveryDaemon() throws Exception {
        List<Process> ranks = new ArrayList<>();
        try {
            ranks.add(rank("a", 0, "rdma_en2"));
            ranks.add(rank("b", 1, "rdma_en2"));
            await("every daemon finds the aligned job right").atMost(JUDGED).pollInterval(POLL).ignoreExceptions()
                    .until(() -> daemons.values().stream().allMatch(d -> {
                        JsonNode job = job(d);
                        return job != null && job.get("ranks").size() == 2 && job.get("verdict").asText().equals("ok");
                    }));

            Process down = lab.lab().start(lab.ns("a"), List.of("ip", "link", "set", "en2", "down"), dir.resolve("down.err"));
            assertThat(down.waitFor(10, TimeUnit.SECONDS)).isTrue();
            await("every daemon finds the job stale").atMost(BOUND).pollInterval(POLL).ignoreExceptions()
                    .until(() -> daemons.values().stream().allMatch(d -> job(d).get("verdict").asText().equals("error")));
            for (DaemonProcess d : daemons.values()) {
                assertThat(job(d).get("findings")).as(d.node()).anySatisfy(f -> {
                    assertThat(f.get("code").asText()).isEqualTo("job-stale");
                    assertThat(f.get("message").asText()).contains("a:en2");
                });
            }
        } finally {
            ranks.forEach(Process::destroyForcibly);
            Process up = lab.lab().start(lab.ns("a"), List.of("ip", "link", "set", "en2", "up"), dir.resolve("up.err"));
            up.waitFor(10, TimeUnit.SECONDS);
            // the other test needs both cables again, whichever runs first
            await("both daemons see both cables again").atMost(Duration.ofSeconds(60)).pollInterval(POLL).ignoreExceptions()
                    .until(() -> daemons.values().stream().allMatch(d -> Topology.of(d.snapshot()).cables().size() == 2));
            // and no rank of this test's job, whose coordinator the other test's job shares
            await("the job leaves every daemon").atMost(BOUND).pollInterval(POLL).ignoreExceptions()
                    .until(() -> daemons.values().stream().allMatch(d -> job(d) == null));
        }
    }
}
