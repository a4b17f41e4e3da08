package io.railmap.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code railmap check --env}: env files written by {@code railmap env}, then corrupted, on the two-leaf example. */
class CheckEnvTest {
    private static final String CLEAN = "../examples/snapshots/two-leaves.json";
    /** One NIC on the other leaf: every node then routes by subnet (NCCL_IB_SUBNET_AWARE_ROUTING=1). */
    private static final String SWAPPED = "../examples/snapshots/two-leaves-swapped.json";
    private static final String ALL = "nccl,ucx,nixl,mx,nvshmem";

    @TempDir
    Path dir;

    /** @return the file holding what railmap env prints for gpu-01, with {@code from} replaced by {@code to} */
    private Path env(String from, String to) throws Exception {
        return env(CLEAN, from, to);
    }

    /** @return the file holding what railmap env prints for gpu-01 from the snapshot, with {@code from} replaced by {@code to} */
    private Path env(String snapshot, String from, String to) throws Exception {
        Run env = Run.of("env", "--node", "gpu-01", "--for", ALL, "--snapshot", snapshot);
        assertThat(env.code()).as(env.err()).isZero();
        assertThat(env.out()).contains(from);
        Path file = dir.resolve("gpu-01.env");
        Files.writeString(file, env.out().replace(from, to));
        return file;
    }

    private static Run check(Path file, String snapshot, String... more) {
        String[] args = {"check", "--env", file.toString(), "--node", "gpu-01", "--snapshot", snapshot};
        String[] all = new String[args.length + more.length];
        System.arraycopy(args, 0, all, 0, args.length);
        System.arraycopy(more, 0, all, args.length, more.length);
        return Run.of(all);
    }

    @Test
    void whatRailmapEnvWritesPassesAndNamesWhatWasChecked() throws Exception {
        Run run = check(env("", ""), CLEAN);

        assertThat(run.code()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).contains(": 0 errors, 0 warnings, 0 notes (for gpu-01; checked NCCL_IB_HCA, NCCL_CROSS_NIC, "
                + "NCCL_IB_GID_INDEX, NCCL_SOCKET_IFNAME, UCX_NET_DEVICES, UCX_MAX_RMA_RAILS, UCX_MAX_RNDV_RAILS, UCX_MAX_HCA_PER_GPU, "
                + "UCX_IB_GID_INDEX, "
                + "MX_RDMA_NIC_PIN, MX_RDMA_NIC_PIN_MIN_RATE_GBPS, NVSHMEM_HCA_LIST, NVSHMEM_LIBFABRIC_MAX_NIC_PER_PE)");
    }

    /**
     * NVIDIA/nccl src/graph/search.cc, ncclTopoSearchCheckNet: rail ids are compared only between one node's
     * NICs, so swapped labels (each id still one leaf) are an info and exit 0; one id on both leaves lets a
     * channel enter by one leaf and leave by the other: an error naming both NICs, exit 2.
     */
    @Test
    void aSwappedRailIdIsAnInfoButOneIdOnTwoLeavesIsAnErrorAndExitsTwo() throws Exception {
        Run swapped = check(env("NCCL_IB_HCA==mlx5_0:1:0,mlx5_1:1:1", "NCCL_IB_HCA==mlx5_0:1:1,mlx5_1:1:0"), CLEAN);
        assertThat(swapped.code()).as(swapped.out() + swapped.err()).isZero();
        assertThat(swapped.out()).contains("info renumbered-rail-id NCCL_IB_HCA numbers gpu-01's rails otherwise than railmap")
                .contains(": 0 errors, 0 warnings, 1 note");

        Run run = check(env("NCCL_IB_HCA==mlx5_0:1:0,mlx5_1:1:1", "NCCL_IB_HCA==mlx5_0:1:0,mlx5_1:1:0"), CLEAN, "--json");
        assertThat(run.code()).as(run.err()).isEqualTo(ExitCodes.FINDINGS);
        JsonNode root = new ObjectMapper().readTree(run.out());
        assertThat(root.get("errors").asInt()).isEqualTo(1);
        assertThat(root.get("findings").get(0).get("code").asText()).isEqualTo("wrong-rail-id");
        assertThat(root.get("findings").get(0).get("message").asText()).contains("NCCL_IB_HCA gives rail 0 to mlx5_0:1 (gpu-01:enp65s0f0np0")
                .contains("mlx5_1:1 (gpu-01:enp129s0f0np0").contains("write mlx5_0:1:0,mlx5_1:1:1");
    }

    @Test
    void aMissingHcaAndANanRateAreErrors() throws Exception {
        Path file = env("UCX_NET_DEVICES=mlx5_0:1,mlx5_1:1", "UCX_NET_DEVICES=mlx5_0:1,mlx5_7:1");
        Files.writeString(file, "export MX_RDMA_NIC_PIN_MIN_RATE_GBPS=\"nan\"\n", StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.APPEND);
        Run run = check(file, CLEAN);

        assertThat(run.code()).as(run.err()).isEqualTo(ExitCodes.FINDINGS);
        assertThat(run.out()).contains("error unknown-hca UCX_NET_DEVICES names mlx5_7:1, which gpu-01 does not have")
                .contains("error bad-setting MX_RDMA_NIC_PIN_MIN_RATE_GBPS \"nan\" is not a finite number");
    }

    @Test
    void aSlowSideNicInAStripeListIsAnError() throws Exception {
        ObjectMapper mapper = new ObjectMapper();
        ObjectNode snapshot = (ObjectNode) mapper.readTree(Path.of(CLEAN).toFile());
        ArrayNode ports = (ArrayNode) snapshot.get("records").get(0).get("ports");
        ObjectNode side = ports.get(1).deepCopy();
        side.put("netdev", "enp1s0f0").put("rdma", "mlx5_2").put("rateGbps", 25.0).putNull("switchPort");
        side.putArray("addresses").add("172.16.0.1");
        ports.add(side);
        Path slow = dir.resolve("slow.json");
        mapper.writeValue(slow.toFile(), snapshot);

        Path file = env("NVSHMEM_HCA_LIST=mlx5_0:1,mlx5_1:1", "NVSHMEM_HCA_LIST=mlx5_0:1,mlx5_1:1,mlx5_2:1");
        Run run = check(file, slow.toString());

        assertThat(run.code()).as(run.err()).isEqualTo(ExitCodes.FINDINGS);
        assertThat(run.out()).contains("error side-nic-in-list NVSHMEM_HCA_LIST names mlx5_2:1 (mlx5_2:1, gpu-01:enp1s0f0), a side NIC");
        // with the floor railmap env was given, the 25 Gb/s NIC is a compute NIC
        Run floor = check(file, slow.toString(), "--min-rate-gbps", "25");
        assertThat(floor.code()).as(floor.out() + floor.err()).isZero();
    }

    @Test
    void aBadFileExitsOneNamingTheLine() throws Exception {
        Path binary = dir.resolve("binary.env");
        Files.write(binary, new byte[] {'A', '=', '1', '\n', 0x7f, 'E', 'L', 'F', 0, 1});
        Path huge = dir.resolve("huge.env");
        Files.writeString(huge, "# ok\nNCCL_IB_HCA=" + "m".repeat(100_000) + "\n");
        Path quote = dir.resolve("quote.env");
        Files.writeString(quote, "NCCL_IB_HCA='=mlx5_0:1:0\n");

        for (Object[] c : new Object[][] {{binary, "line 2 column 5: a NUL character makes this no text file"},
                {huge, "line 2 column 4097: the line is longer than 4096"}, {quote, "line 1 column 13: the quote ' is not closed"}}) {
            Run run = check((Path) c[0], CLEAN);
            assertThat(run.code()).as(run.err()).isEqualTo(ExitCodes.INPUT);
            assertThat(run.err()).contains((String) c[1]).doesNotContain("Exception");
            assertThat(run.err().strip().lines()).hasSize(1);
        }
    }

    /**
     * The issue's file: what railmap env writes, saved with CRLF line ends. A shell that sources it sets
     * each value with a trailing CR (UCX_NET_DEVICES' last device then names no device): one error per
     * line that sets a variable, naming the line and what sh sets; exit 2. The variables are checked as
     * the file shows them, so nothing else is reported.
     */
    @Test
    void crlfLineEndsAreAnErrorPerLineThatSetsAVariable() throws Exception {
        Path file = env("", "");
        String text = Files.readString(file);
        Files.writeString(file, text.replace("\n", "\r\n"));
        long setting = text.lines().filter(l -> !l.isBlank() && !l.startsWith("#")).count();
        int ucxLine = text.lines().toList().indexOf(text.lines().filter(l -> l.startsWith("UCX_NET_DEVICES=")).findFirst().orElseThrow()) + 1;

        Run run = check(file, CLEAN);

        assertThat(run.code()).as(run.err()).isEqualTo(ExitCodes.FINDINGS);
        assertThat(run.out().lines().filter(l -> l.startsWith("error invisible-character line "))).hasSize((int) setting);
        assertThat(run.out()).contains("error invisible-character line " + ucxLine + ": UCX_NET_DEVICES's line ends in a carriage return"
                + " (a CRLF line end): sh's '.' keeps it, setting UCX_NET_DEVICES=\"mlx5_0:1,mlx5_1:1\\r\"")
                .contains(": " + setting + " errors, 0 warnings, 0 notes");
    }

    @Test
    void envWithoutNodeOrWithAnotherFileIsAUsageError() throws Exception {
        Path file = env("", "");
        Run noNode = Run.of("check", "--env", file.toString(), "--snapshot", CLEAN);
        assertThat(noNode.code()).isEqualTo(ExitCodes.INPUT);
        assertThat(noNode.err()).contains("--env needs --node");

        Run both = Run.of("check", "devices.json", "--env", file.toString(), "--node", "gpu-01", "--snapshot", CLEAN);
        assertThat(both.code()).isEqualTo(ExitCodes.INPUT);
        assertThat(both.err()).contains("--env checks an env file alone: leave out FILE");
        Run hosts = Run.of("check", "--env", file.toString(), "--node", "gpu-01", "--hosts", "gpu-01,gpu-02", "--snapshot", CLEAN);
        assertThat(hosts.code()).isEqualTo(ExitCodes.INPUT);
        assertThat(hosts.err()).contains("leave out --hosts");

        Run unknown = Run.of("check", "--env", file.toString(), "--node", "gpu-99", "--snapshot", CLEAN);
        assertThat(unknown.code()).isEqualTo(ExitCodes.INPUT);
        assertThat(unknown.err()).contains("gpu-99").doesNotContain("Exception");

        Run missing = Run.of("check", "--env", dir.resolve("none.env").toString(), "--node", "gpu-01", "--snapshot", CLEAN);
        assertThat(missing.code()).isEqualTo(ExitCodes.INPUT);
        assertThat(missing.err()).contains("env file").contains("does not exist");
    }

    @Test
    void aWrongGidIndexAndASocketIfnameOfNoNetdevAreErrors() throws Exception {
        Path file = env("NCCL_IB_GID_INDEX=3", "NCCL_IB_GID_INDEX=1");
        Files.writeString(file, Files.readString(file).replace("NCCL_SOCKET_IFNAME==eno1", "NCCL_SOCKET_IFNAME==eno9"));
        Run run = check(file, CLEAN);

        assertThat(run.code()).as(run.out() + run.err()).isEqualTo(ExitCodes.FINDINGS);
        assertThat(run.out()).contains("error wrong-gid-index NCCL_IB_GID_INDEX=1, but the RoCE v2 IPv4 GID of mlx5_0:1 is at index 3")
                .contains("error unknown-device NCCL_SOCKET_IFNAME \"=eno9\" matches no netdev of gpu-01").contains("write =eno1");
    }

    @Test
    void fewerUcxRailsThanNicsIsAWarningAndAboveTheLaneLimitAnError() throws Exception {
        Run fewer = check(env("UCX_MAX_RMA_RAILS=2", "UCX_MAX_RMA_RAILS=1"), CLEAN);
        assertThat(fewer.code()).as(fewer.out() + fewer.err()).isZero();
        assertThat(fewer.out()).contains("warning list-limit UCX_MAX_RMA_RAILS=1, but UCX is given 2 compute NICs");

        Run above = check(env("UCX_MAX_RNDV_RAILS=2", "UCX_MAX_RNDV_RAILS=inf"), CLEAN);
        assertThat(above.code()).as(above.out() + above.err()).isEqualTo(ExitCodes.FINDINGS);
        assertThat(above.out()).contains("error bad-setting UCX_MAX_RNDV_RAILS \"inf\" is 4294967295, above UCX's 64 lanes");
    }

    /**
     * openucx/ucx src/ucp/core/ucp_context.c, MAX_HCA_PER_GPU (ucs_config_sscanf_ulunits: auto, inf or %lu):
     * auto registers GPU memory on the nearest HCAs only, a word UCX does not read stops it.
     */
    @Test
    void maxHcaPerGpuAutoIsAWarningAndAWordUcxDoesNotReadAnError() throws Exception {
        Run auto = check(env("UCX_MAX_HCA_PER_GPU=inf", "UCX_MAX_HCA_PER_GPU=auto"), CLEAN);
        assertThat(auto.code()).as(auto.out() + auto.err()).isZero();
        assertThat(auto.out()).contains("warning list-limit UCX_MAX_HCA_PER_GPU=auto, but UCX_NET_DEVICES gives UCX 2 compute NICs"
                + " (mlx5_0:1,mlx5_1:1)").contains("write UCX_MAX_HCA_PER_GPU=inf");

        Run word = check(env("UCX_MAX_HCA_PER_GPU=inf", "UCX_MAX_HCA_PER_GPU=all"), CLEAN);
        assertThat(word.code()).as(word.out() + word.err()).isEqualTo(ExitCodes.FINDINGS);
        assertThat(word.out()).contains("error bad-setting UCX_MAX_HCA_PER_GPU \"all\" is not auto, inf or a whole number");
    }

    @Test
    void subnetAwareRoutingLeftOutOnACrossRailFabricIsAWarningSayingWhy() throws Exception {
        Run run = check(env(SWAPPED, "NCCL_IB_SUBNET_AWARE_ROUTING=1", "# NCCL_IB_SUBNET_AWARE_ROUTING=1"), SWAPPED);

        assertThat(run.code()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).contains("warning subnet-routing-off NCCL_IB_SUBNET_AWARE_ROUTING is not set, but NCCL pairs a NIC"
                + " of gpu-01, by position, with a NIC on another rail");
        Run kept = check(env(SWAPPED, "", ""), SWAPPED);
        assertThat(kept.out()).as(kept.err()).contains(": 0 errors, 0 warnings");
    }

    @Test
    void anUnquotedGlobIsExitOneNamingLineAndColumn() throws Exception {
        Path file = env("UCX_NET_DEVICES=mlx5_0:1,mlx5_1:1", "UCX_NET_DEVICES=mlx5_[0-1]:1");
        int line = Files.readString(file).lines().toList().indexOf("UCX_NET_DEVICES=mlx5_[0-1]:1") + 1;
        Run run = check(file, CLEAN);

        assertThat(run.code()).isEqualTo(ExitCodes.INPUT);
        assertThat(run.err()).contains("line " + line + " column 22: '[' unquoted is shell syntax").contains("quote the value")
                .doesNotContain("Exception");
        Files.writeString(file, Files.readString(file).replace("mlx5_[0-1]:1", "'mlx5_[0-1]:1'"));
        Run quoted = check(file, CLEAN);
        assertThat(quoted.code()).as(quoted.out() + quoted.err()).isZero();
    }
}
