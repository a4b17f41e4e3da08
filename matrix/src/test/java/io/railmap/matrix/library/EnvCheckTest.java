package io.railmap.matrix.library;

import static org.assertj.core.api.Assertions.assertThat;

import io.railmap.matrix.Cluster;
import io.railmap.matrix.check.Code;
import io.railmap.matrix.check.Finding;
import io.railmap.matrix.fabric.RailTable;
import io.railmap.matrix.model.PortState;
import io.railmap.matrix.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Each rule of {@link EnvCheck}, with the library rule it mirrors. */
class EnvCheckTest {
    /** g1: mlx5_0, mlx5_1 at 400 Gb/s, mlx5_2 at 25 Gb/s, mlx5_3 down, management NIC mlx5_9. */
    private static NodeNics node() {
        return StripeNode.named("g1").nic("mlx5_0", 1, 400).nic("mlx5_1", 1, 400).nic("mlx5_2", 1, 25)
                .nic("mlx5_3", 1, Optional.of(400.0), PortState.DOWN).management("mlx5_9", 400).nics();
    }

    private static List<Code> codes(NodeNics node, Map<String, String> vars) {
        List<Finding> findings = EnvCheck.check(node, vars);
        assertThat(findings).allMatch(Finding::isError);
        return findings.stream().map(Finding::code).toList();
    }

    @Test
    void whatRailmapEnvWritesPassesForEveryLibrary() {
        NodeNics node = node();
        Map<String, String> vars = Libraries.ALL.stream().flatMap(l -> l.settings(node).settings().stream())
                .collect(Collectors.toMap(Setting::key, Setting::value, (a, b) -> b));

        assertThat(vars).containsKeys("NCCL_IB_HCA", "UCX_NET_DEVICES", "MX_RDMA_NIC_PIN", "NVSHMEM_HCA_LIST");
        assertThat(EnvCheck.check(node, vars)).isEmpty();
    }

    @Test
    void aDeviceTheNodeLacksIsAnErrorInEveryList() {
        // NCCL matchIf: exact name with '=', else prefix; UCX: hca:port or the device name; NVSHMEM: exact name
        for (String var : List.of("NCCL_IB_HCA", "UCX_NET_DEVICES", "NVSHMEM_HCA_LIST")) {
            assertThat(codes(node(), Map.of(var, "mlx5_0:1,mlx5_7:1"))).as(var).containsExactly(Code.UNKNOWN_HCA);
        }
        assertThat(codes(node(), Map.of("MX_RDMA_NIC_PIN", "mlx5_0:1, mlx5_7:1"))).containsExactly(Code.UNKNOWN_HCA);
        // a port the device does not have
        assertThat(codes(node(), Map.of("NVSHMEM_HCA_LIST", "mlx5_0:2"))).containsExactly(Code.UNKNOWN_HCA);
        // NCCL without '=' takes a prefix: mlx5_ names every device, the slow, down and management ones too
        assertThat(codes(node(), Map.of("NCCL_IB_HCA", "mlx5_"))).containsExactlyInAnyOrder(Code.SIDE_NIC_IN_LIST, Code.LINK_DOWN,
                Code.SIDE_NIC_IN_LIST);
        assertThat(codes(node(), Map.of("NCCL_IB_HCA", "=mlx5_"))).containsExactly(Code.UNKNOWN_HCA);
    }

    @Test
    void anNcclEntryWithAnEmptyNameIsDroppedAsParseStringListDoes() {
        // NVIDIA/nccl src/misc/utils.cc, parseStringList: an entry is kept only when its name has a
        // character (ifC > 0), so ":1" names no device; read as the prefix "" it would name them all
        assertThat(EnvCheck.check(node(), Map.of("NCCL_IB_HCA", "=mlx5_0:1,:1,mlx5_1:1"))).isEmpty();
        assertThat(EnvCheck.check(node(), Map.of("NCCL_IB_HCA", ":1:0,mlx5_0"))).isEmpty();
    }

    @Test
    void aDownPortASlowSideNicAndTheManagementNicInAStripeListAreErrors() {
        List<Finding> f = EnvCheck.check(node(), Map.of("UCX_NET_DEVICES", "mlx5_0:1,mlx5_2:1,mlx5_3,mlx5_9:1"));

        assertThat(f).extracting(Finding::code).containsExactly(Code.SIDE_NIC_IN_LIST, Code.LINK_DOWN, Code.SIDE_NIC_IN_LIST);
        assertThat(f.get(0).message()).contains("mlx5_2:1").contains("25.0 Gb/s");
        assertThat(f.get(2).message()).contains("the management NIC");
    }

    @Test
    void anExclusionListAndUcxAllAreNotStripeLists() {
        // NCCL and NVSHMEM: a leading ^ excludes; UCX: ^ negates and "all" allows every device
        assertThat(EnvCheck.check(node(), Map.of("NCCL_IB_HCA", "^mlx5_7", "NVSHMEM_HCA_LIST", "^mlx5_7", "UCX_NET_DEVICES", "all")))
                .isEmpty();
        // ModelExpress: no comma is the auto probe or stripe, not a list
        assertThat(EnvCheck.check(node(), Map.of("MX_RDMA_NIC_PIN", "mlx5_7"))).isEmpty();
    }

    @Test
    void ucxRangesExpandAsUcxsParserDoes() {
        // ucs_config_array_expand_range: mlx5_[0-2] is mlx5_0, mlx5_1, mlx5_2
        assertThat(codes(node(), Map.of("UCX_NET_DEVICES", "mlx5_[0-1]"))).isEmpty();
        assertThat(codes(node(), Map.of("UCX_NET_DEVICES", "mlx5_[0-2]"))).containsExactly(Code.SIDE_NIC_IN_LIST);
    }

    @Test
    void aSwappedNcclRailIdIsAnErrorNamingBothRails() {
        Cluster cluster = new Cluster().cable("a:en1", "b:en2", 400, PortState.ACTIVE).cable("a:en2", "b:en1", 400, PortState.ACTIVE);
        Topology topology = Topology.of(cluster.snapshot());
        NodeNics b = ComputeNics.of(topology, RailTable.of(topology), "b", SettingsOptions.DEFAULTS);
        String right = new NcclLibrary().settings(b).settings().get(0).value();
        assertThat(EnvCheck.check(b, Map.of("NCCL_IB_HCA", right))).isEmpty();

        int r1 = b.nics().get(0).rail().orElseThrow();
        int r2 = b.nics().get(1).rail().orElseThrow();
        String swapped = "=" + b.nics().get(0).hcaPort() + ":" + r2 + "," + b.nics().get(1).hcaPort() + ":" + r1;
        List<Finding> f = EnvCheck.check(b, Map.of("NCCL_IB_HCA", swapped));

        assertThat(f).extracting(Finding::code).containsExactly(Code.WRONG_RAIL_ID, Code.WRONG_RAIL_ID);
        assertThat(f.get(0).message()).contains("gives " + b.nics().get(0).hcaPort() + " rail " + r2)
                .contains("on rail " + r1).contains("rail " + r2 + " is " + b.nics().get(1).hcaPort());
    }

    @Test
    void moreEntriesThanALibraryReadsIsAnError() {
        // NCCL reads MAX_IB_DEVS (32) entries, NVSHMEM MAX_NUM_HCAS (48); UCX aborts past UCP_MAX_LANES (64)
        String many = IntStream.range(0, 65).mapToObj(i -> "mlx5_0:1").collect(Collectors.joining(","));
        assertThat(codes(node(), Map.of("NCCL_IB_HCA", many))).containsExactly(Code.LIST_LIMIT);
        assertThat(codes(node(), Map.of("NVSHMEM_HCA_LIST", many))).containsExactly(Code.LIST_LIMIT);
        assertThat(codes(node(), Map.of("UCX_NET_DEVICES", many))).containsExactly(Code.BAD_SETTING);
        String thirtyTwo = IntStream.range(0, 32).mapToObj(i -> "mlx5_0:1").collect(Collectors.joining(","));
        assertThat(codes(node(), Map.of("NCCL_IB_HCA", thirtyTwo))).isEmpty();
    }

    @Test
    void aMinimumRateThatIsNanNegativeInfiniteOrNoNumberIsAnError() {
        // ModelExpress reads it with Python's float(), which takes nan, inf and -infinity in any case
        List<String> bad = new ArrayList<>(List.of("nan", "NaN", "inf", "-Infinity", "-1", "1e400", "4OO", ""));
        for (String v : bad) {
            assertThat(codes(node(), Map.of("MX_RDMA_NIC_PIN_MIN_RATE_GBPS", v))).as(v).containsExactly(Code.BAD_SETTING);
        }
        for (String v : List.of("400", " 12.5 ", "0", "4e2", ".5")) {
            assertThat(codes(node(), Map.of("MX_RDMA_NIC_PIN_MIN_RATE_GBPS", v))).as(v).isEmpty();
        }
    }

    @Test
    void aPortOrRailThatIsNoNumberIsAnError() {
        assertThat(codes(node(), Map.of("NCCL_IB_HCA", "=mlx5_0:x"))).containsExactly(Code.BAD_SETTING);
        assertThat(codes(node(), Map.of("NCCL_IB_HCA", "=mlx5_0:1:r1"))).containsExactly(Code.BAD_SETTING);
        assertThat(codes(node(), Map.of("NVSHMEM_HCA_LIST", "mlx5_0:one"))).containsExactly(Code.BAD_SETTING);
        // an empty field means any port (NCCL's parseStringList, -1)
        assertThat(codes(node(), Map.of("NCCL_IB_HCA", "=mlx5_0::0"))).isEmpty();
    }
}
