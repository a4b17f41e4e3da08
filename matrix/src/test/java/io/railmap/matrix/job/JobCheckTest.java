package io.railmap.matrix.job;

import static io.railmap.matrix.job.Ranks.jaccl;
import static io.railmap.matrix.job.Ranks.process;
import static io.railmap.matrix.job.Ranks.row;
import static org.assertj.core.api.Assertions.assertThat;

import io.railmap.matrix.Cluster;
import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.jaccl.MlxVersion;
import io.railmap.matrix.model.LocalRank;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.model.PortState;
import io.railmap.matrix.model.Snapshot;
import io.railmap.matrix.topology.Topology;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Verdicts of {@link JobCheck} on running jobs, against the cables as they are now. */
class JobCheckTest {
    private static final String COORDINATOR = "10.0.0.1:32323";
    private static final String JOB = "jaccl " + COORDINATOR;

    /** Two Macs, two straight cables: a:en6–b:en6 and a:en7–b:en7. */
    private static Cluster straight() {
        return new Cluster().cable("a:en6", "b:en6").cable("a:en7", "b:en7");
    }

    private static List<JobVerdict> check(Cluster cluster, Map<String, List<LocalRank>> ranks) {
        return JobCheck.check(Jobs.assemble(ranks).jobs(), Topology.of(cluster.snapshot()), MlxVersion.NEWEST);
    }

    private static JobVerdict single(Cluster cluster, Map<String, List<LocalRank>> ranks) {
        List<JobVerdict> verdicts = check(cluster, ranks);
        assertThat(verdicts).hasSize(1);
        return verdicts.get(0);
    }

    /** Two ranks of a jaccl ring (as railmap matrix and mlx.launch run a file of several wires), a: pid 4242, b: pid 4343. */
    private static Map<String, List<LocalRank>> twoRanks(String rowA, String rowB) {
        return Map.of("a", List.of(Ranks.jacclRing(4242, 0, COORDINATOR, row(rowA))),
                "b", List.of(Ranks.jacclRing(4343, 1, COORDINATOR, row(rowB))));
    }

    @Test
    void anAlignedJacclMeshHasNoFinding() {
        Map<String, List<LocalRank>> ranks = Map.of("a", List.of(jaccl(4242, 0, COORDINATOR, row("-|rdma_en6"))),
                "b", List.of(jaccl(4343, 1, COORDINATOR, row("rdma_en6|-"))));
        JobVerdict v = single(straight(), ranks);
        assertThat(v.findings()).isEmpty();
        assertThat(v.verdict()).isEqualTo("ok");
    }

    @Test
    void anAlignedJacclJobHasNoFinding() {
        JobVerdict v = single(straight(), twoRanks("-|rdma_en6+rdma_en7", "rdma_en6+rdma_en7|-"));
        assertThat(v.job().id()).isEqualTo(JOB);
        assertThat(v.findings()).isEmpty();
        assertThat(v.verdict()).isEqualTo("ok");
    }

    @Test
    void eachDirectionPickedOnItsOwnIsARailMismatchNamingBothCables() {
        // exo PR 2160: rank 0 picks en6 towards b, b picks en7 towards a, both as "rail 0": two different cables
        JobVerdict v = single(straight(), twoRanks("-|rdma_en6", "rdma_en7|-"));

        assertThat(v.verdict()).isEqualTo("error");
        assertThat(v.findings()).singleElement().satisfies(f -> {
            assertThat(f.code()).isEqualTo(Code.JOB_RAIL_MISMATCH);
            assertThat(f.ranks()).containsExactly(0, 1);
            assertThat(f.rail()).contains(0);
            assertThat(f.ports()).contains(PortRef.parse("a:en6"), PortRef.parse("b:en6"), PortRef.parse("a:en7"), PortRef.parse("b:en7"));
            assertThat(f.message()).startsWith("job " + JOB + ", rank 0 (a, pid 4242) and rank 1 (b, pid 4343): ")
                    .contains("a:en6\u2013b:en6", "a:en7\u2013b:en7", "rail 0");
        });
    }

    @Test
    void twoRailsSwappedAtOneEndAreTwoMismatches() {
        JobVerdict v = single(straight(), twoRanks("-|rdma_en6+rdma_en7", "rdma_en7+rdma_en6|-"));
        assertThat(v.findings()).extracting(Finding::code).containsExactly(Code.JOB_RAIL_MISMATCH, Code.JOB_RAIL_MISMATCH);
        assertThat(v.findings()).extracting(f -> f.rail().orElseThrow()).containsExactly(0, 1);
    }

    @Test
    void aCablePulledUnderAnAlignedJobMakesItStale() {
        Map<String, List<LocalRank>> ranks = twoRanks("-|rdma_en6+rdma_en7", "rdma_en6+rdma_en7|-");
        // pulled: both ends lose carrier and their far end
        Cluster pulled = straight();
        for (String end : List.of("a:en6", "b:en6")) {
            pulled.put(Cluster.port(PortRef.parse(end), Optional.of(100.0), PortState.DOWN, List.of()));
        }

        JobVerdict v = single(pulled, ranks);

        assertThat(v.verdict()).isEqualTo("error");
        assertThat(v.findings()).filteredOn(Finding::isError).extracting(Finding::code).containsOnly(Code.JOB_STALE);
        assertThat(v.findings()).filteredOn(f -> f.code() == Code.JOB_STALE).first().satisfies(f -> {
            assertThat(f.rail()).contains(0);
            assertThat(f.message()).startsWith("job " + JOB + ", rank 0 (a, pid 4242) and rank 1 (b, pid 4343): ").contains("a:en6");
        });
    }

    @Test
    void aCableDownUnderAnAlignedJobMakesItStale() {
        Cluster down = straight().state("b:en7", PortState.DOWN);
        JobVerdict v = single(down, twoRanks("-|rdma_en6+rdma_en7", "rdma_en6+rdma_en7|-"));
        assertThat(v.findings()).filteredOn(Finding::isError).singleElement().satisfies(f -> {
            assertThat(f.code()).isEqualTo(Code.JOB_STALE);
            assertThat(f.rail()).contains(1);
            assertThat(f.message()).contains("b:en7", "down");
        });
    }

    @Test
    void aDeviceThatIsGoneMakesTheJobStale() {
        JobVerdict v = single(straight(), twoRanks("-|rdma_en9", "rdma_en6|-"));
        assertThat(v.findings()).extracting(Finding::code).contains(Code.JOB_STALE);
        assertThat(v.findings()).filteredOn(f -> f.code() == Code.JOB_STALE).first()
                .satisfies(f -> assertThat(f.message()).contains("rdma_en9", "no RDMA device of a"));
    }

    @Test
    void aPortCabledToAThirdNodeIsARailMismatch() {
        Cluster three = straight().cable("a:en8", "c:en8");
        JobVerdict v = single(three, twoRanks("-|rdma_en8", "rdma_en6|-"));
        assertThat(v.findings()).filteredOn(Finding::isError).extracting(Finding::code).containsExactly(Code.JOB_RAIL_MISMATCH);
        assertThat(v.findings().get(0).message()).contains("a:en8", "c:en8");
    }

    @Test
    void aMissingRankIsIncompleteAndTheMatrixIsNotChecked() {
        JobVerdict v = single(straight(), Map.of("a", List.of(jaccl(4242, 0, COORDINATOR, row("-|rdma_en6")))));
        assertThat(v.findings()).singleElement().satisfies(f -> {
            assertThat(f.code()).isEqualTo(Code.JOB_INCOMPLETE);
            assertThat(f.message()).contains("found 1 of its 2 ranks", "rank 1 not found", "rank 0 (a, pid 4242)");
        });
    }

    @Test
    void twoProcessesClaimingOneRankAreIncomplete() {
        Map<String, List<LocalRank>> ranks = Map.of(
                "a", List.of(jaccl(4242, 0, COORDINATOR, row("-|rdma_en6"))),
                "b", List.of(jaccl(4343, 0, COORDINATOR, row("rdma_en6|-")), jaccl(4344, 1, COORDINATOR, row("rdma_en6|-"))));
        JobVerdict v = single(straight(), ranks);
        assertThat(v.findings()).extracting(Finding::code).containsOnly(Code.JOB_INCOMPLETE);
        assertThat(v.findings()).anySatisfy(f -> assertThat(f.message()).contains("rank 0 is claimed by 2 processes",
                "(a, pid 4242)", "(b, pid 4343)"));
    }

    @Test
    void rowsOfDifferentLengthsOrNoRowOrNoNumberAreIncomplete() {
        LocalRank noRow = new LocalRank(4343, 1, Map.of("MLX_RANK", "1", "MLX_JACCL_COORDINATOR", COORDINATOR), Optional.empty(),
                Optional.empty());
        assertThat(single(straight(), Map.of("a", List.of(jaccl(4242, 0, COORDINATOR, row("-|rdma_en6"))), "b", List.of(noRow)))
                .findings()).anySatisfy(f -> assertThat(f.message()).contains("rank 1 (b, pid 4343) has no devices row"));
        assertThat(single(straight(), twoRanks("-|rdma_en6", "rdma_en6|-|-")).findings())
                .anySatisfy(f -> assertThat(f.message()).contains("devices row has 2 cells but another rank's has 3"));
        LocalRank noNumber = Ranks.process(4343, "MLX_RANK", "one", "MLX_JACCL_COORDINATOR", COORDINATOR);
        assertThat(single(straight(), Map.of("a", List.of(jaccl(4242, 0, COORDINATOR, row("-|rdma_en6"))), "b", List.of(noNumber)))
                .findings()).extracting(Finding::code).containsOnly(Code.JOB_INCOMPLETE);
    }

    @Test
    void withoutTheRingVariableTwoWiresAreAMeshThatUsesOneAndTheChecksWarningIsTheJobs() {
        // jaccl runs the mesh for a valid mesh without MLX_JACCL_RING: the check's warning keeps its code, with the job named
        Map<String, List<LocalRank>> ranks = Map.of("a", List.of(jaccl(1, 0, COORDINATOR, row("-|rdma_en6+rdma_en7"))),
                "b", List.of(jaccl(2, 1, COORDINATOR, row("rdma_en6+rdma_en7|-"))));
        JobVerdict v = single(straight(), ranks);
        assertThat(v.verdict()).isEqualTo("warning");
        assertThat(v.findings()).singleElement().satisfies(f -> {
            assertThat(f.code()).isEqualTo(Code.EXTRA_WIRES_UNUSED);
            assertThat(f.message()).startsWith("job " + JOB + ", rank 0 (a, pid 1) and rank 1 (b, pid 2): ");
        });
    }

    @Test
    void aNodeWithoutARecordNowIsStale() {
        Map<String, List<LocalRank>> ranks = Map.of("a", List.of(jaccl(4242, 0, COORDINATOR, row("-|rdma_en6"))),
                "gone", List.of(jaccl(4343, 1, COORDINATOR, row("rdma_en6|-"))));
        assertThat(single(straight(), ranks).findings()).singleElement().satisfies(f -> {
            assertThat(f.code()).isEqualTo(Code.JOB_STALE);
            assertThat(f.message()).contains("node gone has no record now");
        });
    }

    @Test
    void launcherSettingsAreCheckedPerNodeAndAGoneDeviceIsStale() {
        Cluster cluster = straight();
        Map<String, List<LocalRank>> ranks = Map.of(
                "a", List.of(process(10, "NCCL_IB_HCA", "=rdma_en6,rdma_en7", "SLURM_JOB_ID", "812", "SLURM_STEP_ID", "0", "SLURM_PROCID", "0")),
                "b", List.of(process(20, "NCCL_IB_HCA", "=mlx5_9", "SLURM_JOB_ID", "812", "SLURM_STEP_ID", "0", "SLURM_PROCID", "1"),
                        process(21, "NCCL_IB_HCA", "=mlx5_9", "SLURM_JOB_ID", "812", "SLURM_STEP_ID", "0", "SLURM_PROCID", "2")));

        JobVerdict v = single(cluster, ranks);

        assertThat(v.job().id()).isEqualTo("slurm 812.0");
        assertThat(v.findings()).filteredOn(Finding::isError).singleElement().satisfies(f -> {
            assertThat(f.code()).isEqualTo(Code.JOB_STALE);
            assertThat(f.ranks()).containsExactly(1, 2);
            assertThat(f.message()).startsWith("job slurm 812.0, rank 1 (b, pid 20) and rank 2 (b, pid 21): ").contains("mlx5_9");
        });
    }

    @Test
    void aRingJobIsUncheckedAndSaysWhy() {
        String digest = "ab".repeat(32);
        LocalRank r = new LocalRank(5, 1, Map.of("MLX_HOSTFILE", "/tmp/h.json", "MLX_RANK", "0"), Optional.empty(), Optional.of(digest));
        JobVerdict v = single(straight(), Map.of("a", List.of(r)));
        assertThat(v.verdict()).isEqualTo("unchecked");
        assertThat(v.findings()).singleElement().satisfies(f -> assertThat(f.code()).isEqualTo(Code.JOB_UNCHECKED));
    }

    @Test
    void aSnapshotsRecordsCarryTheRanksTheJobsAreMadeOf() {
        // exo's failure as the daemons publish it: each node's record holds its rank
        Snapshot plain = straight().snapshot();
        Snapshot snapshot = new Snapshot(plain.records().stream().map(r -> r.withRanks(List.of(r.node().equals("a")
                ? jaccl(4242, 0, COORDINATOR, row("-|rdma_en6")) : jaccl(4343, 1, COORDINATOR, row("rdma_en7|-"))))).toList());

        JobCheck.Report report = JobCheck.check(snapshot, MlxVersion.NEWEST);

        assertThat(report.verdicts()).singleElement().satisfies(v -> {
            assertThat(v.job().id()).isEqualTo(JOB);
            assertThat(v.verdict()).isEqualTo("error");
            assertThat(v.findings()).extracting(Finding::code).containsExactly(Code.JOB_RAIL_MISMATCH);
        });
        assertThat(report.ranksLeftOut()).isZero();
        assertThat(JobCheck.check(plain, MlxVersion.NEWEST).verdicts()).isEmpty();
    }

    @Test
    void everyVerdictWordIsListed() {
        assertThat(JobVerdict.VERDICTS).containsExactly("error", "warning", "unchecked", "ok");
    }

    /** Unused port constructor kept honest: Cluster.port names rdma_<netdev>. */
    @Test
    void clusterPortsAreNamedByTheirRdmaDevice() {
        Port p = Cluster.port(PortRef.parse("a:en6"), Optional.empty(), PortState.ACTIVE, List.of());
        assertThat(p.rdma()).contains("rdma_en6");
    }
}
