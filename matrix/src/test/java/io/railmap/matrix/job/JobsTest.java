package io.railmap.matrix.job;

import static io.railmap.matrix.job.Ranks.jaccl;
import static io.railmap.matrix.job.Ranks.process;
import static io.railmap.matrix.job.Ranks.row;
import static org.assertj.core.api.Assertions.assertThat;

import io.railmap.matrix.model.LocalRank;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** How {@link Jobs} assembles jobs from the nodes' local ranks, and its bounds. */
class JobsTest {
    @Test
    void jacclRanksSharingACoordinatorAreOneJobNamedByIt() {
        Map<String, List<LocalRank>> ranks = Map.of(
                "a", List.of(jaccl(100, 0, "10.0.0.1:32323", row("-|rdma_en6")), jaccl(101, 0, "10.0.0.9:5000", row("-|rdma_en7"))),
                "b", List.of(jaccl(200, 1, "10.0.0.1:32323", row("rdma_en6|-"))));

        Jobs.Assembly assembly = Jobs.assemble(ranks);

        assertThat(assembly.jobs()).extracting(Job::id).containsExactly("jaccl 10.0.0.1:32323", "jaccl 10.0.0.9:5000");
        Job job = assembly.job("jaccl 10.0.0.1:32323").orElseThrow();
        assertThat(job.kind()).isEqualTo(JobKind.JACCL);
        assertThat(job.size()).contains(2);
        assertThat(job.nodes()).containsExactly("a", "b");
        assertThat(job.pids()).containsExactly(100L, 200L);
        assertThat(job.ranks()).extracting(r -> r.rank().orElseThrow()).containsExactly(0, 1);
        assertThat(assembly.ranksLeftOut()).isZero();
    }

    @Test
    void jacclsOwnNamesWinOverMlxs() {
        // MLX 0.31.2+ reads JACCL_COORDINATOR and JACCL_RANK before the MLX_* names mlx.launch sets (jaccl.cpp, Config::from_env)
        LocalRank p = process(7, "MLX_JACCL_COORDINATOR", "10.0.0.1:1", "JACCL_COORDINATOR", "10.0.0.2:2", "MLX_RANK", "0",
                "JACCL_RANK", "1");
        Job job = Jobs.assemble(Map.of("a", List.of(p))).jobs().get(0);
        assertThat(job.id()).isEqualTo("jaccl 10.0.0.2:2");
        assertThat(job.ranks().get(0).rank()).contains(1);
    }

    @Test
    void launcherRanksShareTheirJobIdWhateverTheirSettings() {
        // railmap's own NCCL settings differ per node (each node's NIC names): the job id alone makes the job
        Map<String, List<LocalRank>> ranks = Map.of(
                "g1", List.of(process(10, "NCCL_IB_HCA", "=mlx5_0", "SLURM_JOB_ID", "812", "SLURM_STEP_ID", "0", "SLURM_PROCID", "0")),
                "g2", List.of(process(20, "NCCL_IB_HCA", "=mlx5_1", "SLURM_JOB_ID", "812", "SLURM_STEP_ID", "0", "SLURM_PROCID", "1"),
                        process(21, "UCX_NET_DEVICES", "mlx5_1:1", "PMIX_NAMESPACE", "prterun-g2-77@1", "PMIX_RANK", "3")));

        Jobs.Assembly assembly = Jobs.assemble(ranks);

        assertThat(assembly.jobs()).extracting(Job::id, Job::kind).containsExactly(
                org.assertj.core.groups.Tuple.tuple("pmix prterun-g2-77@1", JobKind.LAUNCHER),
                org.assertj.core.groups.Tuple.tuple("slurm 812.0", JobKind.LAUNCHER));
        assertThat(assembly.job("slurm 812.0").orElseThrow().nodes()).containsExactly("g1", "g2");
        assertThat(assembly.job("pmix prterun-g2-77@1").orElseThrow().ranks().get(0).rank()).contains(3);
    }

    @Test
    void withoutAJobIdTheSameSettingsMakeOneJobAndAProcessWithoutLibrarySettingsNone() {
        Map<String, List<LocalRank>> ranks = Map.of(
                "g1", List.of(process(10, "NCCL_IB_HCA", "=mlx5_0"), process(11, "SLURM_JOB_ID", "5")),
                "g2", List.of(process(20, "NCCL_IB_HCA", "=mlx5_0"), process(21, "NCCL_IB_HCA", "=mlx5_1")));

        List<Job> jobs = Jobs.assemble(ranks).jobs();

        assertThat(jobs).hasSize(2).allMatch(j -> j.kind() == JobKind.SETTINGS && j.id().matches("settings [0-9a-f]{16}"));
        assertThat(jobs).extracting(Job::pids).containsExactlyInAnyOrder(List.of(10L, 20L), List.of(21L));
    }

    @Test
    void ringRanksShareTheirHostfilesDigest() {
        String digest = "3f2a9c0e1b7d4a55" + "0".repeat(48);
        LocalRank a = new LocalRank(5, 1, Map.of("MLX_HOSTFILE", "/tmp/h.json", "MLX_RANK", "0"), Optional.empty(), Optional.of(digest), Optional.empty());
        LocalRank b = new LocalRank(6, 1, Map.of("MLX_HOSTFILE", "/tmp/other-name.json", "MLX_RANK", "1"), Optional.empty(), Optional.of(digest), Optional.empty());
        Job job = Jobs.assemble(Map.of("a", List.of(a), "b", List.of(b))).jobs().get(0);
        assertThat(job.id()).isEqualTo("mlx-ring 3f2a9c0e1b7d4a55");
        assertThat(job.kind()).isEqualTo(JobKind.MLX_RING);
        assertThat(job.nodes()).containsExactly("a", "b");
    }

    @Test
    void theJobsDoNotDependOnTheMapsOrder() {
        Map<String, List<LocalRank>> one = new LinkedHashMap<>();
        Map<String, List<LocalRank>> two = new LinkedHashMap<>();
        List<String> nodes = new ArrayList<>();
        for (int n = 0; n < 40; n++) {
            nodes.add("n" + n);
        }
        for (String node : nodes) {
            one.put(node, List.of(jaccl(1000 + nodes.indexOf(node), nodes.indexOf(node), "c:" + nodes.indexOf(node) % 3, row("-|x"))));
        }
        for (int i = nodes.size() - 1; i >= 0; i--) {
            two.put(nodes.get(i), one.get(nodes.get(i)));
        }
        assertThat(Jobs.assemble(two)).isEqualTo(Jobs.assemble(one));
    }

    @Test
    void jobsPastTheBoundAreCountedNotHeld() {
        Map<String, List<LocalRank>> ranks = new HashMap<>();
        List<LocalRank> local = new ArrayList<>();
        for (int j = 0; j < Jobs.MAX_JOBS + 3; j++) {
            local.add(jaccl(1 + j, 0, "10.0." + j / 256 + "." + j % 256 + ":1", row("-|x")));
        }
        ranks.put("a", local);

        Jobs.Assembly assembly = Jobs.assemble(ranks);

        assertThat(assembly.jobs()).hasSize(Jobs.MAX_JOBS);
        assertThat(assembly.jobsLeftOut()).isEqualTo(3);
        assertThat(assembly.ranksLeftOut()).isEqualTo(3);
        // the first started are kept
        assertThat(assembly.jobs()).flatExtracting(Job::pids).doesNotContain((long) Jobs.MAX_JOBS + 1);
    }

    @Test
    void ranksPastAJobsBoundAreCountedNotHeld() {
        Map<String, List<LocalRank>> ranks = new HashMap<>();
        for (int n = 0; n < Jobs.MAX_RANKS_PER_JOB + 2; n++) {
            ranks.put("n" + n, List.of(jaccl(1 + n, n, "10.0.0.1:1", row("-|x"))));
        }
        Jobs.Assembly assembly = Jobs.assemble(ranks);
        assertThat(assembly.jobs()).singleElement().satisfies(j -> assertThat(j.ranks()).hasSize(Jobs.MAX_RANKS_PER_JOB));
        assertThat(assembly.ranksLeftOut()).isEqualTo(2);
    }

    @Test
    void aRankNumberIsDecimalDigitsBelowTheBound() {
        assertThat(Jobs.rankNumber("0")).contains(0);
        assertThat(Jobs.rankNumber(" 12 ")).contains(12);
        assertThat(Jobs.rankNumber(String.valueOf(Jobs.MAX_RANKS_PER_JOB - 1))).contains(Jobs.MAX_RANKS_PER_JOB - 1);
        for (String bad : List.of("", "-1", "+1", "1e3", "0x10", "99999999999999999999", String.valueOf(Jobs.MAX_RANKS_PER_JOB), "١")) {
            assertThat(Jobs.rankNumber(bad)).as(bad).isEmpty();
        }
    }

    @Test
    void aLongCoordinatorIsCutAndEscapedInTheId() {
        // LocalRank refuses control and invisible characters; a quote and a backslash are escaped, a long value cut
        String coordinator = "\"\\" + "x".repeat(JobVariablesLength.LONG - 2);
        Job job = Jobs.assemble(Map.of("a", List.of(jaccl(1, 0, coordinator, row("-|x"))))).jobs().get(0);
        assertThat(job.id()).startsWith("jaccl \\\"\\\\xx").contains("more)");
        assertThat(job.id().codePointCount(0, job.id().length())).isLessThanOrEqualTo(Jobs.MAX_ID_CHARS + 16);
    }

    /** A coordinator as long as a value may be. */
    private static final class JobVariablesLength {
        static final int LONG = io.railmap.matrix.model.JobVariables.MAX_VALUE_CHARS - 1;
    }
}
