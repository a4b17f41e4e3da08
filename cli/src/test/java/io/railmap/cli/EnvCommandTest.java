package io.railmap.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.railmap.matrix.library.Libraries;
import io.railmap.matrix.library.Library;
import org.junit.jupiter.api.Test;

/** {@code railmap env} on the example snapshots of two leaf switches. */
class EnvCommandTest {
    private static final String CLEAN = "../examples/snapshots/two-leaves.json";

    /** {@code --for} takes its names, help and completion from the one registry (Libraries.ALL). */
    @Test
    void everyRegisteredLibraryIsNamedByForsHelpAndWritesItsBlock() {
        String help = Run.of("env", "--help").out().replaceAll("\\s+", " ");
        for (Library library : Libraries.ALL) {
            assertThat(help).contains(library.name());
            Run run = Run.of("env", "--node", "gpu-01", "--for", library.name(), "--snapshot", CLEAN);
            assertThat(run.code()).as(library.name() + ": " + run.err()).isNotEqualTo(ExitCodes.INPUT);
            assertThat(run.out()).as(library.name()).startsWith("# " + library.name() + "\n");
        }
    }

    @Test
    void ncclOnACleanFabricPrintsTheRailsTheManagementInterfaceAndExitsZero() {
        Run run = Run.of("env", "--node", "gpu-01", "--for", "NCCL", "--snapshot", CLEAN);

        assertThat(run.code()).as(run.err()).isZero();
        // the example records carry each RoCE port's RoCE v2 IPv4 GID index (3, as on a ConnectX with IPv4 and IPv6)
        assertThat(run.out().lines().toList()).containsExactly("# nccl",
                "NCCL_IB_HCA==mlx5_0:1:0,mlx5_1:1:1", "NCCL_CROSS_NIC=0", "NCCL_IB_GID_INDEX=3", "NCCL_SOCKET_IFNAME==eno1");
    }

    @Test
    void theJsonCarriesEachLibrarysSettingsAndFindings() throws Exception {
        Run run = Run.of("env", "--node", "gpu-02", "--for", "nccl", "--snapshot", CLEAN, "--json");

        assertThat(run.code()).as(run.err()).isZero();
        JsonNode root = new ObjectMapper().readTree(run.out());
        assertThat(root.get("node").asText()).isEqualTo("gpu-02");
        assertThat(root.get("libraries").get(0).get("library").asText()).isEqualTo("nccl");
        assertThat(root.get("libraries").get(0).get("settings").get("NCCL_IB_HCA").asText()).isEqualTo("=mlx5_0:1:0,mlx5_1:1:1");
        assertThat(root.get("libraries").get(0).get("settings").get("NCCL_IB_GID_INDEX").asText()).isEqualTo("3");
        assertThat(root.get("libraries").get(0).get("findings")).isEmpty();
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

        // only mx reads --mx-stripe (ModelExpressLibrary.options): asked without it, the flag would change nothing
        Run stripe = Run.of("env", "--node", "gpu-01", "--for", "nccl,ucx", "--mx-stripe", "--snapshot", CLEAN);
        assertThat(stripe.code()).isEqualTo(ExitCodes.INPUT);
        assertThat(stripe.err()).contains("--mx-stripe is read by mx only, and the library list (nccl,ucx) does not name it: add mx")
                .doesNotContain("Exception");
        assertThat(Run.of("env", "--node", "gpu-01", "--for", "nccl,mx", "--mx-stripe", "--snapshot", CLEAN).out())
                .contains("MX_RDMA_NIC_PIN=stripe");
    }

    @Test
    void aMinimumRateAboveEveryNicLeavesNoComputeNicAndExitsTwo() {
        Run run = Run.of("env", "--node", "gpu-01", "--for", "nccl", "--min-rate-gbps", "800", "--snapshot", CLEAN);

        assertThat(run.code()).as(run.err()).isEqualTo(ExitCodes.FINDINGS);
        assertThat(run.out()).contains("# error no-rdma-device gpu-01 has no compute NIC").doesNotContain("NCCL_IB_HCA");
    }

    @Test
    void aCrossRailNicOnRoceWithASubnetPerRailIsRoutedBySubnetOnEveryNodeAndOnInfinibandIsAnError(@org.junit.jupiter.api.io.TempDir
            java.nio.file.Path dir) throws Exception {
        String swapped = "../examples/snapshots/two-leaves-swapped.json";
        Run miscabled = Run.of("env", "--node", "gpu-01", "--for", "nccl", "--snapshot", swapped);
        assertThat(miscabled.code()).as(miscabled.err()).isZero();
        assertThat(miscabled.out()).contains("# warning cross-rail [rail 0] mlx5_0:1 (gpu-01:enp65s0f0np0) is on rail 1 (leaf-rail1)",
                "NCCL_IB_HCA==mlx5_0:1:1,mlx5_1:1:0\n", "NCCL_IB_SUBNET_AWARE_ROUTING=1\n");
        // gpu-02's mlx5_0 is paired with gpu-01's by position too: it routes by subnet as well
        assertThat(Run.of("env", "--node", "gpu-02", "--for", "nccl", "--snapshot", swapped).out())
                .contains("NCCL_IB_SUBNET_AWARE_ROUTING=1\n").doesNotContain("cross-rail");

        java.nio.file.Path ib = dir.resolve("ib.json");
        java.nio.file.Files.writeString(ib, java.nio.file.Files.readString(java.nio.file.Path.of(swapped))
                .replace("\"kind\": \"roce\"", "\"kind\": \"infiniband\""));
        Run onIb = Run.of("env", "--node", "gpu-01", "--for", "nccl", "--snapshot", ib.toString());
        assertThat(onIb.code()).isEqualTo(ExitCodes.FINDINGS);
        assertThat(onIb.out()).contains("# error cross-rail [rail 0] mlx5_0:1 (gpu-01:enp65s0f0np0)", "move gpu-01's mlx5_0 cable to leaf-rail0")
                .doesNotContain("NCCL_IB_SUBNET_AWARE_ROUTING");
    }

    @Test
    void everyLibraryOfTheRegistryWritesItsListOfTheCleanFabricsComputeNics() {
        Run run = Run.of("env", "--node", "gpu-03", "--for", "ucx,nixl,mx,nvshmem", "--snapshot", CLEAN);

        assertThat(run.code()).as(run.err()).isZero();
        assertThat(run.out()).contains("# ucx\nUCX_NET_DEVICES=mlx5_0:1,mlx5_1:1\nUCX_MAX_RMA_RAILS=2\nUCX_MAX_RNDV_RAILS=2\nUCX_IB_GID_INDEX=3\n",
                "# nixl\n", "# mx\n", "MX_RDMA_NIC_PIN=mlx5_0:1,mlx5_1:1", "# nvshmem\n", "NVSHMEM_HCA_LIST=mlx5_0:1,mlx5_1:1")
                .doesNotContain("eno1");
    }

    @Test
    void whatConcernsTheNodesComputeNicsIsSaidOnceNotPerLibrary() throws Exception {
        // gpu-01's management NIC eno1 has no RDMA device; with a floor above every NIC, none is left: one error, said once
        Run run = Run.of("env", "--node", "gpu-01", "--for", "ucx,nixl,nvshmem", "--snapshot", CLEAN, "--min-rate-gbps", "800");

        assertThat(run.code()).isEqualTo(ExitCodes.FINDINGS);
        assertThat(run.out()).startsWith("# gpu-01 compute NICs\n# info cable-left-out gpu-01:enp65s0f0np0 (mlx5_0) is no compute NIC")
                .contains("# error no-rdma-device gpu-01 has no compute NIC", "# ucx\n# nixl\n# nvshmem\n");
        assertThat(run.out().lines().filter(l -> l.startsWith("# error")).count()).isEqualTo(1);
        JsonNode root = new ObjectMapper().readTree(Run.of("env", "--node", "gpu-01", "--for", "ucx,nixl", "--snapshot", CLEAN,
                "--min-rate-gbps", "800", "--json").out());
        assertThat(root.get("findings")).hasSize(3);
        assertThat(root.get("findings").get(0).get("ports").toString()).isEqualTo("[\"gpu-01:enp65s0f0np0\"]");
        assertThat(root.get("libraries").get(0).get("findings")).isEmpty();
    }
}
