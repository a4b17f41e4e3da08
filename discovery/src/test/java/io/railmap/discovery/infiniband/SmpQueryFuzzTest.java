package io.railmap.discovery.infiniband;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.railmap.discovery.model.DiscoveryFuzzing;
import io.railmap.matrix.Fuzzing;
import io.railmap.matrix.model.FarEndSource;
import io.railmap.matrix.model.SwitchPort;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Fuzzes what railmapd reads from infiniband-diags' {@code smpquery} ({@link SmpQuery}): the
 * answers of {@code nodeinfo} and {@code nodedesc} are two inputs (an absent one is a query that
 * failed, never parsed). Each parse returns, or throws an
 * {@link IllegalArgumentException} whose message is one clean line ({@link DiscoveryFuzzing}); a
 * NodeInfo that reads has a GUID of {@code 0x} and 16 lower-case hex digits, a port 0-255 and a
 * node type without a control character; a description that reads holds no line break. A switch's
 * answers are then made into its switch port as {@link InfinibandSource} makes it: the port, or an
 * {@link IllegalArgumentException} of one clean line. Seeds: the real answers in
 * {@code fixtures/infiniband} (ConnectX-3 and ibsim HCAs, ibsim and Mellanox switches, an HCA's
 * description), each NodeInfo paired with that description and with a switch's.
 */
class SmpQueryFuzzTest {
    private static final Pattern GUID = Pattern.compile("0x[0-9a-f]{16}");
    private static final String NODEINFO = "smpquery -C mlx5_0 -P 1 -D nodeinfo 0,1";
    private static final String NODEDESC = "smpquery -C mlx5_0 -P 1 -D nodedesc 0,1";

    static Stream<Arguments> seeds() {
        List<byte[]> descriptions = Stream.concat(Fuzzing.files(Path.of("src/test/resources/fixtures/infiniband/smpquery_nodedesc_hca.txt")),
                        Stream.of("Node Description:.................MF0;leaf-3:MQM8700/U1\n".getBytes(StandardCharsets.UTF_8)))
                .toList();
        return Fuzzing.files(Path.of("src/test/resources/fixtures/infiniband")).filter(f -> new String(f, StandardCharsets.UTF_8)
                        .startsWith("# Node info"))
                .flatMap(info -> descriptions.stream().map(desc -> Arguments.of(info, desc)));
    }

    @MethodSource("seeds")
    @DictionaryEntries({"# Node info: DR path slid 65535; dlid 65535; 0,1", "NodeType:", "Guid:", "LocalPort:", "Switch",
        "Channel Adapter", "Router", "0x", "Node Description:", "........................"})
    @FuzzTest(maxExecutions = Fuzzing.EXECUTIONS, maxDuration = Fuzzing.MAX_DURATION)
    void answers(byte[] nodeinfo, byte[] nodedesc) {
        Map<String, byte[]> inputs = DiscoveryFuzzing.inputs(List.of("nodeinfo", "nodedesc"), nodeinfo, nodedesc);
        // an absent answer is a query that failed, which InfinibandSource notes without parsing anything
        SmpQuery.NodeInfo info = nodeinfo == null ? null : DiscoveryFuzzing.parse(inputs,
                () -> SmpQuery.nodeInfo(NODEINFO, new String(nodeinfo, StandardCharsets.UTF_8)), IllegalArgumentException.class);
        String description = nodedesc == null ? null : DiscoveryFuzzing.parse(inputs,
                () -> SmpQuery.nodeDescription(NODEDESC, new String(nodedesc, StandardCharsets.UTF_8)), IllegalArgumentException.class);
        if (info != null) {
            if (!GUID.matcher(info.guid()).matches() || info.port() < 0 || info.port() > 255) {
                throw Fuzzing.failure("a NodeInfo out of range (" + info + ")", inputs, null);
            }
            DiscoveryFuzzing.lines("a node type", Stream.of(info.type()), inputs);
        }
        if (description != null && (description.contains("\n") || description.contains("\r"))) {
            throw Fuzzing.failure("a description with a line break", inputs, null);
        }
        if (info != null && info.isSwitch() && description != null) {
            DiscoveryFuzzing.parse(inputs, () -> new SwitchPort(FarEndSource.INFINIBAND, info.guid(),
                    description.isEmpty() ? Optional.empty() : Optional.of(description), Integer.toString(info.port())),
                    IllegalArgumentException.class);
        }
    }
}
