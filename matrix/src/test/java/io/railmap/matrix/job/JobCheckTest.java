package io.railmap.matrix.job;

import static io.railmap.matrix.job.Ranks.jaccl;
import static io.railmap.matrix.job.Ranks.process;
import static io.railmap.matrix.job.Ranks.ring;
import static io.railmap.matrix.job.Ranks.ringWithoutEntry;
import static io.railmap.matrix.job.Ranks.row;
import static org.assertj.core.api.Assertions.assertThat;

import io.railmap.matrix.Cluster;
import io.railmap.matrix.address.Wired;
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
                Optional.empty(), Optional.empty());
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

    /** The id of the ring jobs of {@link Ranks#ring}. */
    private static final String RING = "mlx-ring 3f2a9c0e1b7d4a55";

    /** a–b–c in a ring, one cable per edge, each a /30 of its own: x.1 at the first node, x.2 at the second. */
    private static Wired triangle() {
        return new Wired("a", "b", "c").cable("a:e0", "10.0.0.1/30", "b:f0", "10.0.0.2/30")
                .cable("b:e1", "10.0.1.1/30", "c:f1", "10.0.1.2/30")
                .cable("c:e2", "10.0.2.1/30", "a:f2", "10.0.2.2/30");
    }

    private static JobVerdict single(Wired wired, Map<String, List<LocalRank>> ranks) {
        List<JobVerdict> verdicts = JobCheck.check(Jobs.assemble(ranks).jobs(), wired.topology(), MlxVersion.NEWEST);
        assertThat(verdicts).hasSize(1);
        return verdicts.get(0);
    }

    @Test
    void anAlignedRingJobHasNoFinding() {
        // rank r listens on its end of the cable to rank r-1 (ring.cpp: rank r-1 connects to each of rank r's addresses)
        Map<String, List<LocalRank>> ranks = Map.of("a", List.of(ring(10, "0", 3, "10.0.2.2:5000")),
                "b", List.of(ring(20, "1", 3, "10.0.0.2:5001")), "c", List.of(ring(30, "2", 3, "10.0.1.2:5002")));

        JobVerdict v = single(triangle(), ranks);

        assertThat(v.job().id()).isEqualTo(RING);
        assertThat(v.job().size()).contains(3);
        assertThat(v.findings()).isEmpty();
        assertThat(v.verdict()).isEqualTo("ok");
    }

    @Test
    void twoWiresOnOneSubnetAreASharedSubnetErrorNamingBothCables() {
        // the lab's case and a Mac's: every port of a and b in 169.254.0.0/16, both a-b cables listed
        Wired macs = new Wired("a", "b").cable("a:en2", "169.254.200.1/16", "b:en4", "169.254.200.2/16")
                .cable("a:en3", "169.254.200.3/16", "b:en5", "169.254.200.4/16");
        Map<String, List<LocalRank>> ranks = Map.of("a", List.of(ring(4242, "0", 2, "169.254.200.1:5000", "169.254.200.3:5001")),
                "b", List.of(ring(4343, "1", 2, "169.254.200.2:5002", "169.254.200.4:5003")));

        JobVerdict v = single(macs, ranks);

        assertThat(v.verdict()).isEqualTo("error");
        assertThat(v.findings()).extracting(Finding::code).containsOnly(Code.SHARED_SUBNET);
        assertThat(v.findings()).filteredOn(f -> f.message().contains("MLX_HOSTFILE[1][0]")).singleElement().satisfies(f -> {
            assertThat(f.ranks()).containsExactly(0, 1);
            assertThat(f.rail()).contains(0);
            assertThat(f.ports()).contains(PortRef.parse("a:en2"), PortRef.parse("a:en3"));
            assertThat(f.message()).isEqualTo("job " + RING + ", rank 0 (a, pid 4242) and rank 1 (b, pid 4343): MLX_HOSTFILE[1][0]"
                    + " \"169.254.200.2\": a connection from a to 169.254.200.2 (b:en4, on cable a:en2\u2013b:en4) may leave a by any of"
                    + " a:en2, a:en3, which all hold 169.254.0.0/16: the kernel takes the first of equal routes, so the wire may travel"
                    + " cable a:en3\u2013b:en5; give each cable a subnet of its own (railmap addresses)");
        });
    }

    @Test
    void aWireToANodeThatIsNoRingNeighbourIsARailMismatchAndAnAddressNoPortHasIsStale() {
        // b lists its end of the cable to c: a (rank 0) connects to it over no cable of its own
        Map<String, List<LocalRank>> ranks = Map.of("a", List.of(ring(10, "0", 3, "10.0.2.2:5000")),
                "b", List.of(ring(20, "1", 3, "10.0.1.1:5001")), "c", List.of(ring(30, "2", 3, "10.9.9.9:5002")));

        JobVerdict v = single(triangle(), ranks);

        assertThat(v.verdict()).isEqualTo("error");
        assertThat(v.findings()).filteredOn(f -> f.code() == Code.JOB_RAIL_MISMATCH).singleElement().satisfies(f -> {
            assertThat(f.ranks()).containsExactly(0, 1);
            assertThat(f.ports()).containsExactly(PortRef.parse("b:e1"), PortRef.parse("c:f1"));
            assertThat(f.message()).startsWith("job " + RING + ", rank 0 (a, pid 10) and rank 1 (b, pid 20): MLX_HOSTFILE[1][0]"
                    + " \"10.0.1.1\" is b:e1's, which is cabled to c:f1, not to a");
        });
        assertThat(v.findings()).filteredOn(f -> f.code() == Code.JOB_STALE).singleElement()
                .satisfies(f -> assertThat(f.message()).startsWith("job " + RING + ", rank 1 (b, pid 20) and rank 2 (c, pid 30):"
                        + " MLX_HOSTFILE[2][0] \"10.9.9.9\" is no address of c's ports"));
    }

    @Test
    void aMissingRingRankIsIncompleteAndTheHostfileIsNotChecked() {
        Map<String, List<LocalRank>> ranks = Map.of("a", List.of(ring(10, "0", 3, "10.9.9.9:5000")),
                "b", List.of(ring(20, "1", 3, "10.0.0.2:5001")));

        JobVerdict v = single(triangle(), ranks);

        assertThat(v.findings()).singleElement().satisfies(f -> {
            assertThat(f.code()).isEqualTo(Code.JOB_INCOMPLETE);
            assertThat(f.message()).isEqualTo("job " + RING + ": found 2 of its 3 ranks; rank 2 not found (not started, ended, or on a node"
                    + " whose daemon does not publish its ranks); found rank 0 (a, pid 10) and rank 1 (b, pid 20)");
        });
    }

    @Test
    void theRankNumberIsMlxRankReadAsTheRingBackendReadsItAndOnePastTheFileIsIncomplete() {
        // ring.cpp init: std::atoi(MLX_RANK), so " 1x" is rank 1 (the entry the rank published is entry 1)
        Map<String, List<LocalRank>> ranks = Map.of("a", List.of(ring(10, "0", 2, "10.0.0.1:5000")),
                "b", List.of(ring(20, " 1x", 2, "10.0.0.2:5001")), "c", List.of(ringWithoutEntry(30, "2")));

        JobVerdict v = single(triangle(), ranks);

        assertThat(v.job().ranks()).extracting(JobRank::rank).containsExactly(Optional.of(0), Optional.of(1), Optional.of(2));
        assertThat(v.findings()).singleElement().satisfies(f -> {
            assertThat(f.code()).isEqualTo(Code.JOB_INCOMPLETE);
            assertThat(f.message()).isEqualTo("job " + RING + ": rank 2 (c, pid 30) is past the job's 2 ranks (its hostfile has 2"
                    + " entries): the ring backend refuses it");
        });
    }

    @Test
    void aRankThatPublishedNoEntryLeavesTheJobUncheckedAndSaysWhy() {
        Map<String, List<LocalRank>> ranks = Map.of("a", List.of(ring(10, "0", 2, "10.0.0.1:5000")), "b", List.of(ringWithoutEntry(20, "1")));

        JobVerdict v = single(triangle(), ranks);

        assertThat(v.verdict()).isEqualTo("unchecked");
        assertThat(v.findings()).singleElement().satisfies(f -> {
            assertThat(f.code()).isEqualTo(Code.JOB_UNCHECKED);
            assertThat(f.ranks()).containsExactly(1);
            assertThat(f.message()).startsWith("job " + RING + ", rank 1 (b, pid 20): published no entry of the hostfile MLX_HOSTFILE"
                    + " names").contains("host name", "--mode mlx-ring");
        });
        JobVerdict none = single(triangle(), Map.of("a", List.of(ringWithoutEntry(10, "0"))));
        assertThat(none.findings()).extracting(Finding::code).containsExactly(Code.JOB_UNCHECKED);
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
