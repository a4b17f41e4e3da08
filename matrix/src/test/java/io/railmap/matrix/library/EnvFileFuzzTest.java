package io.railmap.matrix.library;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.railmap.matrix.Fuzzing;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.model.Names;
import io.railmap.matrix.model.PortState;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Fuzzes what {@code railmap check --env FILE} reads ({@link EnvFile#parse}): any text gives
 * variables or an {@link IllegalArgumentException} of one line naming the file; every key is a
 * shell name and no value holds a line break or a CR (a hidden character is a finding, and the
 * value is read without it). The variables are then checked against a node's
 * cables as the command checks them ({@link EnvCheck#check}, on a node of four 400 Gb/s NICs, one
 * down, a slow one and a management NIC): findings, never an exception, each message one line without
 * a control character. Seeds: what {@code railmap env} writes for that node for every library, and
 * the hand-written shapes (export, quotes, comments, CRLF, NCCL's {@code ^} and {@code =} prefixes,
 * UCX's {@code all}).
 */
class EnvFileFuzzTest {
    private static final String FILE = "nccl.env";
    private static final Pattern KEY = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final NodeNics NODE = StripeNode.named("g1").nic("mlx5_0", 1, 400).nic("mlx5_1", 1, 400).nic("mlx5_2", 1, 25)
            .nic("mlx5_3", 1, Optional.of(400.0), PortState.DOWN).management("mlx5_9", 400).nics();

    static Stream<byte[]> seeds() {
        String written = Libraries.ALL.stream().map(l -> l.settings(NODE))
                .map(s -> "# " + s.library() + "\n" + s.settings().stream().map(v -> v + "\n").collect(Collectors.joining()))
                .collect(Collectors.joining());
        return Stream.of(written,
                        "# by hand\nexport NCCL_IB_HCA=^=mlx5_9:1\r\nexport NCCL_SOCKET_IFNAME='eth0'  # management\n"
                                + "NCCL_IB_GID_INDEX=3\nNCCL_CROSS_NIC=0\nNCCL_IB_SUBNET_AWARE_ROUTING=1\n",
                        "UCX_NET_DEVICES=all\nUCX_MAX_RMA_RAILS=4\nUCX_MAX_RNDV_RAILS=2\nUCX_IB_GID_INDEX=\"3\"\n"
                                + "MX_RDMA_NIC_PIN='mlx5_0:1, mlx5_1:1'\nMX_RDMA_NIC_PIN_MIN_RATE_GBPS=100\n",
                        "NVSHMEM_HCA_LIST=mlx5_0:1,mlx5_1:1\nNVSHMEM_LIBFABRIC_MAX_NIC_PER_PE=2\n"
                                + "MLX_RANK=0\nMLX_JACCL_RING=1\nMLX_HOSTFILE=/etc/railmap/hosts.json\n"
                                + "MLX_IBV_DEVICES=\"/etc/railmap/devices.json\"\n\n\t# tab\nB=\n")
                .map(s -> s.getBytes(StandardCharsets.UTF_8));
    }

    @MethodSource("seeds")
    @DictionaryEntries({"export ", "=", "'", "\"", "#", "NCCL_IB_HCA=", "NCCL_SOCKET_IFNAME=", "NCCL_IB_GID_INDEX=",
        "UCX_NET_DEVICES=", "UCX_MAX_RMA_RAILS=", "MX_RDMA_NIC_PIN=", "NVSHMEM_HCA_LIST=", "MLX_RANK=", "MLX_IBV_DEVICES=",
        "mlx5_0:1", "^=", "all", ":", ",", "9223372036854775808", "-1"})
    @FuzzTest(maxExecutions = Fuzzing.EXECUTIONS, maxDuration = Fuzzing.MAX_DURATION)
    void envFile(byte[] input) {
        Map<String, byte[]> inputs = Map.of("env file", input);
        EnvFile read = Fuzzing.parse(inputs, () -> EnvFile.parse(FILE, new String(input, StandardCharsets.UTF_8)),
                "one line naming the file", m -> m.startsWith("env file " + FILE + " line ") && !Names.hasHidden(m),
                IllegalArgumentException.class);
        if (read == null) {
            return;
        }
        Map<String, String> vars = read.variables();
        vars.forEach((key, value) -> {
            if (!KEY.matcher(key).matches() || value.contains("\n") || value.contains("\r")) {
                throw Fuzzing.failure("a variable that is no shell assignment (" + Names.escape(key) + "=" + Names.escape(value) + ")",
                        inputs, null);
            }
        });
        List<Finding> findings = new ArrayList<>(read.findings());
        findings.addAll(Fuzzing.parse(inputs, () -> EnvCheck.check(NODE, vars)));
        for (Finding finding : findings) {
            if (finding.message().isBlank() || Names.hasHidden(finding.message())) {
                throw Fuzzing.failure("a finding that is blank or holds a control character (" + Names.escape(finding.message()) + ")",
                        inputs, null);
            }
        }
    }
}
