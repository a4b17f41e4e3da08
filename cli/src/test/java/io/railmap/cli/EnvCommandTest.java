package io.railmap.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** {@code railmap env} on the example snapshots of two leaf switches. */
class EnvCommandTest {
    private static final String CLEAN = "../examples/snapshots/two-leaves.json";

    @Test
    void ncclOnACleanFabricPrintsTheRailsTheManagementInterfaceAndExitsZero() {
        Run run = Run.of("env", "--node", "gpu-01", "--for", "NCCL", "--snapshot", CLEAN);

        assertThat(run.code()).as(run.err()).isZero();
        // the example records carry no gidIndex, so NCCL_IB_GID_INDEX is left to NCCL with a warning
        assertThat(run.out().lines().toList()).containsExactly("# nccl",
                "# warning mixed-gid-index NCCL_IB_GID_INDEX left out: the RoCE v2 IPv4 GID index of gpu-01's compute NICs is not one"
                        + " number (mlx5_0:1 unknown, mlx5_1:1 unknown); NCCL picks per NIC (ncclIbGetGidIndex)",
                "NCCL_IB_HCA==mlx5_0:1:0,mlx5_1:1:1", "NCCL_CROSS_NIC=0", "NCCL_SOCKET_IFNAME==eno1");
    }

    @Test
    void theJsonCarriesEachLibrarysSettingsAndFindings() throws Exception {
        Run run = Run.of("env", "--node", "gpu-02", "--for", "nccl", "--snapshot", CLEAN, "--json");

        assertThat(run.code()).as(run.err()).isZero();
        JsonNode root = new ObjectMapper().readTree(run.out());
        assertThat(root.get("node").asText()).isEqualTo("gpu-02");
        assertThat(root.get("libraries").get(0).get("library").asText()).isEqualTo("nccl");
        assertThat(root.get("libraries").get(0).get("settings").get("NCCL_IB_HCA").asText()).isEqualTo("=mlx5_0:1:0,mlx5_1:1:1");
        assertThat(root.get("libraries").get(0).get("findings")).singleElement()
                .satisfies(f -> assertThat(f.get("code").asText()).isEqualTo("mixed-gid-index"));
    }

    @Test
    void anUnknownLibraryAnUnknownNodeAndABadRateAreUsageErrorsThatSayWhatToGive() {
        Run library = Run.of("env", "--node", "gpu-01", "--for", "nccl,mpi", "--snapshot", CLEAN);
        assertThat(library.code()).isEqualTo(ExitCodes.INPUT);
        assertThat(library.err()).contains("unknown library \"mpi\": give one of nccl").doesNotContain("Exception");

        Run node = Run.of("env", "--node", "gpu-99", "--for", "nccl", "--snapshot", CLEAN);
        assertThat(node.code()).isEqualTo(ExitCodes.INPUT);
        assertThat(node.err()).contains("gpu-99");

        for (String rate : new String[] {"NaN", "-1", "Infinity"}) {
            Run bad = Run.of("env", "--node", "gpu-01", "--for", "nccl", "--min-rate-gbps", rate, "--snapshot", CLEAN);
            assertThat(bad.code()).as(rate).isEqualTo(ExitCodes.INPUT);
            assertThat(bad.err()).as(rate).contains("--min-rate-gbps").doesNotContain("Exception");
        }
    }

    @Test
    void aMinimumRateAboveEveryNicLeavesNoComputeNicAndExitsTwo() {
        Run run = Run.of("env", "--node", "gpu-01", "--for", "nccl", "--min-rate-gbps", "800", "--snapshot", CLEAN);

        assertThat(run.code()).as(run.err()).isEqualTo(ExitCodes.FINDINGS);
        assertThat(run.out()).contains("# error no-rdma-device gpu-01 has no compute NIC").doesNotContain("NCCL_IB_HCA");
    }
}
