package io.railmap.matrix.library;

import static org.assertj.core.api.Assertions.assertThat;

import io.railmap.matrix.Cluster;
import io.railmap.matrix.SentencePorts;
import io.railmap.matrix.codec.SnapshotCodec;
import io.railmap.matrix.fabric.RailTable;
import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.finding.Severity;
import io.railmap.matrix.jaccl.JacclMode;
import io.railmap.matrix.jaccl.MlxVersion;
import io.railmap.matrix.model.FarEndSource;
import io.railmap.matrix.model.Names;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.PortState;
import io.railmap.matrix.model.SwitchPort;
import io.railmap.matrix.plan.MlxRing;
import io.railmap.matrix.plan.Order;
import io.railmap.matrix.plan.Plan;
import io.railmap.matrix.plan.Planner;
import io.railmap.matrix.rail.RailOptions;
import io.railmap.matrix.topology.Topology;
import java.nio.file.Files;
import java.nio.file.Path;
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
        List<Finding> findings = checked(node, vars);
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
        // what railmap env says about the node (the slow mlx5_2 is no compute NIC) carries the ports it names
        List<Finding> made = new ArrayList<>(node.findings());
        Libraries.ALL.forEach(l -> made.addAll(l.settings(node).findings()));
        SentencePorts.assertCarried(made, node.topology());
        assertThat(made).anySatisfy(f -> assertThat(f.ports()).isNotEmpty());
    }

    /**
     * Each library's file alone, ModelExpress's stripe mode too, on a node whose probe sees only its compute
     * NICs: no finding, but for UCX's a note that NIXL would register GPU memory on the nearest HCAs only
     * (UCX's default for UCX_MAX_HCA_PER_GPU is inf, which railmap does not write for UCX alone).
     */
    @Test
    void whatRailmapEnvWritesForEachLibraryAlonePasses() {
        StripeNode g1 = StripeNode.named("g1").nic("mlx5_0", 1, 400).nic("mlx5_1", 1, 400);
        for (SettingsOptions options : List.of(SettingsOptions.DEFAULTS, new SettingsOptions(Optional.empty(), true))) {
            NodeNics node = g1.nics(options);
            for (io.railmap.matrix.library.Library l : Libraries.ALL) {
                if (l.name().equals("jaccl") || l.name().equals("mlx-ring")) {
                    continue;
                }
                Map<String, String> vars = l.settings(node).settings().stream().collect(Collectors.toMap(Setting::key, Setting::value));
                assertThat(found(node, vars)).as(l.name() + " " + vars)
                        .isEqualTo(l.name().equals("ucx") ? List.of("info setting-caveat") : List.of());
            }
        }
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
        List<Finding> f = checked(node(), Map.of("UCX_NET_DEVICES", "mlx5_0:1,mlx5_2:1,mlx5_3,mlx5_9:1"));

        assertThat(f).extracting(Finding::code).containsExactly(Code.SIDE_NIC_IN_LIST, Code.LINK_DOWN, Code.SIDE_NIC_IN_LIST);
        assertThat(f.get(0).message()).contains("mlx5_2:1").contains("25.0 Gb/s");
        assertThat(f.get(2).message()).contains("the management NIC");
        assertThat(f).allSatisfy(x -> assertThat(x.ports()).hasSize(1));
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

    /** Nodes a and b, with NICs mlx5_0 .. mlx5_(leaves-1): mlx5_k of each on leaf k, RoCE on 10.k.0.0/24. */
    private static NodeNics onLeaves(int leaves) {
        Cluster cluster = new Cluster();
        for (String n : List.of("a", "b")) {
            for (int k = 0; k < leaves; k++) {
                cluster.put(new Port(n, "eth" + k, Optional.of("mlx5_" + k), 1, PortKind.ROCE, Optional.of(400.0), PortState.ACTIVE,
                        Optional.empty(), List.of("10." + k + ".0." + (n.equals("a") ? 1 : 2)), true, Optional.empty(),
                        Optional.of(new SwitchPort(FarEndSource.LLDP, "52:54:00:00:00:0" + k, Optional.of("leaf" + k), n + "-" + k)),
                        Optional.of(3), List.of()));
            }
        }
        Topology topology = Topology.of(cluster.snapshot());
        return ComputeNics.of(topology, RailTable.of(topology), "a", SettingsOptions.DEFAULTS);
    }

    /**
     * NVIDIA/nccl 2.30.7 src/graph/search.cc, ncclTopoSearchCheckNet: with NCCL_CROSS_NIC=0 a channel leaves
     * by a NIC whose railId equals that of the NIC it entered by, both NICs of the one node searching; no
     * rail id is sent to another node. So 1-based ids, or two labels swapped, still keep each channel on
     * one switch or cable: an info, not an error.
     */
    @Test
    void aConsistentlyRenumberedOrSwappedNcclRailIdIsAnInfo() {
        NodeNics a = onLeaves(2);
        assertThat(EnvCheck.check(a, Map.of("NCCL_IB_HCA", "=mlx5_0:1:0,mlx5_1:1:1"))).isEmpty();
        for (String renumbered : List.of("=mlx5_0:1:1,mlx5_1:1:2", "=mlx5_0:1:1,mlx5_1:1:0")) {
            assertThat(EnvCheck.check(a, Map.of("NCCL_IB_HCA", renumbered))).as(renumbered).singleElement().satisfies(f -> {
                assertThat(f.code()).isEqualTo(Code.RENUMBERED_RAIL_ID);
                assertThat(f.severity()).isEqualTo(Severity.INFO);
                assertThat(f.message()).contains("mlx5_0:1 1 for rail 0 (leaf0)").contains("no id covers two rails");
                assertThat(f.ports()).contains(a.nics().get(0).port().ref());
            });
        }

        // crossed direct cables, labels swapped on b: each id still names one cable
        Cluster cluster = new Cluster().cable("a:en1", "b:en2", 400, PortState.ACTIVE).cable("a:en2", "b:en1", 400, PortState.ACTIVE);
        Topology topology = Topology.of(cluster.snapshot());
        NodeNics b = ComputeNics.of(topology, RailTable.of(topology), "b", SettingsOptions.DEFAULTS);
        String right = new NcclLibrary().settings(b).settings().get(0).value();
        assertThat(EnvCheck.check(b, Map.of("NCCL_IB_HCA", right))).isEmpty();
        int r1 = b.nics().get(0).rail().orElseThrow();
        int r2 = b.nics().get(1).rail().orElseThrow();
        String swapped = "=" + b.nics().get(0).hcaPort() + ":" + r2 + "," + b.nics().get(1).hcaPort() + ":" + r1;
        assertThat(EnvCheck.check(b, Map.of("NCCL_IB_HCA", swapped))).extracting(Finding::code, Finding::severity)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(Code.RENUMBERED_RAIL_ID, Severity.INFO));
    }

    /**
     * ncclTopoSearchCheckNet (src/graph/search.cc): NICs of one railId are one rail to NCCL, so a channel may
     * enter by the NIC on leaf0 and leave by the NIC on leaf1, joining two rails: an error naming both NICs.
     */
    @Test
    void oneNcclRailIdOnTwoSwitchesIsAnErrorNamingBothNics() {
        NodeNics a = onLeaves(3);
        List<Finding> f = EnvCheck.check(a, Map.of("NCCL_IB_HCA", "=mlx5_0:1:0,mlx5_1:1:0,mlx5_2:1:2"));

        assertThat(f).singleElement().satisfies(x -> {
            assertThat(x.code()).isEqualTo(Code.WRONG_RAIL_ID);
            assertThat(x.isError()).isTrue();
            assertThat(x.message()).contains("gives rail 0 to mlx5_0:1 (a:eth0, on rail 0 (leaf0)), mlx5_1:1 (a:eth1, on rail 1 (leaf1))")
                    .contains("write mlx5_0:1:0,mlx5_1:1:1");
            assertThat(x.ports()).containsExactly(a.nics().get(0).port().ref(), a.nics().get(1).port().ref());
        });
        // matchIfList (src/misc/utils.cc): a device takes the rail of the first entry it matches, so a
        // later entry does not relabel mlx5_0; the prefix mlx5_ (no '=') matches mlx5_1 and mlx5_2 too
        assertThat(EnvCheck.check(a, Map.of("NCCL_IB_HCA", "=mlx5_0:1:0,mlx5_1:1:1,mlx5_2:1:2,mlx5_0:1:1"))).isEmpty();
        assertThat(EnvCheck.check(a, Map.of("NCCL_IB_HCA", "mlx5_0:1:0,mlx5_:1:1"))).extracting(Finding::code)
                .containsExactly(Code.WRONG_RAIL_ID);
    }

    /** Two direct cables between a and b are two rails: one NCCL rail id on both is an error naming both cables. */
    @Test
    void oneNcclRailIdOnTwoCablesToOnePeerIsAnError() {
        Cluster cluster = new Cluster().cable("a:en1", "b:en1", 400, PortState.ACTIVE).cable("a:en2", "b:en2", 400, PortState.ACTIVE);
        Topology topology = Topology.of(cluster.snapshot());
        NodeNics a = ComputeNics.of(topology, RailTable.of(topology), "a", SettingsOptions.DEFAULTS);

        List<Finding> f = EnvCheck.check(a, Map.of("NCCL_IB_HCA", "=rdma_en1:1:7,rdma_en2:1:7"));

        assertThat(f).extracting(Finding::code).containsExactly(Code.WRONG_RAIL_ID);
        assertThat(f.get(0).message()).contains("on cable a:en1").contains("on cable a:en2");
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
    void theIgnoredEntriesOfATooLongListAreEscapedAndCut() {
        // found by EnvFileFuzzTest: entries past the limit were joined into the message raw (a quoted tab, a bidi control, 4,000 characters)
        String many = IntStream.range(0, 32).mapToObj(i -> "mlx5_0:1").collect(Collectors.joining(",")) + ",mlx5_1\t:1,\u202emlx5_2,"
                + "x".repeat(4000);
        Finding f = EnvCheck.check(node(), Map.of("NCCL_IB_HCA", many)).stream().filter(x -> x.code() == Code.LIST_LIMIT).findFirst()
                .orElseThrow();

        assertThat(Names.hasHidden(f.message())).as(f.message()).isFalse();
        assertThat(f.message()).contains("ignores mlx5_1\\t:1,\\u202emlx5_2,xxx").contains("…(3920 more)").hasSizeLessThan(400);
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

    /** @return the findings, each checked to carry exactly the ports its sentence names */
    private static List<Finding> checked(NodeNics node, Map<String, String> vars) {
        List<Finding> findings = EnvCheck.check(node, vars);
        SentencePorts.assertCarried(findings, node.topology());
        return findings;
    }

    /** @return every finding's code and severity, as "error bad-setting" */
    private static List<String> found(NodeNics node, Map<String, String> vars) {
        return checked(node, vars).stream().map(f -> f.severity().wireName() + " " + f.code().wireName()).toList();
    }

    /** g1 as {@link #node()}, its compute NICs' RoCE v2 IPv4 GIDs at index 3. */
    private static NodeNics gidNode() {
        return StripeNode.named("g1").nic("mlx5_0", 1, 400, 3).nic("mlx5_1", 1, 400, 3).nic("mlx5_2", 1, 25)
                .nic("mlx5_3", 1, Optional.of(400.0), PortState.DOWN).management("mlx5_9", 400).nics();
    }

    private static NodeNics of(Cluster cluster, String node) {
        Topology topology = Topology.of(cluster.snapshot());
        return ComputeNics.of(topology, RailTable.of(topology), node, SettingsOptions.DEFAULTS);
    }

    @Test
    void crossNicZeroWithANicWithoutRailIsAWarning() {
        // NVIDIA/nccl src/graph/search.cc, NCCL_PARAM(CrossNic, "CROSS_NIC", 2): 0 keeps rings on one rail;
        // src/misc/param.cc, ncclLoadParam: strtoll(str, nullptr, 0), so "off" is read as 0 and "" is the default
        assertThat(found(node(), Map.of("NCCL_CROSS_NIC", "0"))).containsExactly("warning unknown-far-end");
        assertThat(found(node(), Map.of("NCCL_CROSS_NIC", "off"))).containsExactly("error bad-setting", "warning unknown-far-end");
        assertThat(found(node(), Map.of("NCCL_CROSS_NIC", "1"))).isEmpty();
        assertThat(found(node(), Map.of("NCCL_CROSS_NIC", ""))).isEmpty();
        NodeNics cabled = of(new Cluster().cable("a:en1", "b:en1").cable("a:en2", "b:en2"), "a");
        assertThat(found(cabled, Map.of("NCCL_CROSS_NIC", "0"))).isEmpty();
    }

    @Test
    void aGidIndexOtherThanTheRoceV2Ipv4OneIsAnError() {
        // NVIDIA/nccl src/transport/net_ib/connect.cc, ncclIbGetGidIndex: on RoCE an index >= 0 is taken
        // as is, a negative one means NCCL's own choice; strtoll base 0 reads 0x3 as 3
        assertThat(found(gidNode(), Map.of("NCCL_IB_GID_INDEX", "3"))).isEmpty();
        assertThat(found(gidNode(), Map.of("NCCL_IB_GID_INDEX", "0x3"))).isEmpty();
        assertThat(found(gidNode(), Map.of("NCCL_IB_GID_INDEX", "-1"))).isEmpty();
        assertThat(found(gidNode(), Map.of("NCCL_IB_GID_INDEX", "1"))).containsExactly("error wrong-gid-index");
        assertThat(EnvCheck.check(gidNode(), Map.of("NCCL_IB_GID_INDEX", "1")).get(0).message())
                .contains("mlx5_0:1 is at index 3, mlx5_1:1 is at index 3").contains("write 3");
        assertThat(found(gidNode(), Map.of("NCCL_IB_GID_INDEX", "three"))).containsExactly("error bad-setting", "error wrong-gid-index");
        // openucx/ucx src/uct/ib/base/ib_md.c, GID_INDEX of type ULUNITS: auto, or sscanf %lu (no digit: UCX refuses)
        assertThat(found(gidNode(), Map.of("UCX_IB_GID_INDEX", "auto"))).isEmpty();
        assertThat(found(gidNode(), Map.of("UCX_IB_GID_INDEX", "3"))).isEmpty();
        assertThat(found(gidNode(), Map.of("UCX_IB_GID_INDEX", "0"))).containsExactly("error wrong-gid-index");
        assertThat(found(gidNode(), Map.of("UCX_IB_GID_INDEX", "three"))).containsExactly("error bad-setting");
    }

    @Test
    void aSocketIfnameThatMatchesNoNetdevOrOnlyDownOnesIsAnError() {
        // NVIDIA/nccl src/os/linux.cc, ncclOsFindInterfaces: ^ excludes, = exact, else a prefix; only
        // running interfaces with an address are taken
        assertThat(found(node(), Map.of("NCCL_SOCKET_IFNAME", "=mgmt0"))).isEmpty();
        assertThat(found(node(), Map.of("NCCL_SOCKET_IFNAME", "mgmt"))).isEmpty();
        assertThat(found(node(), Map.of("NCCL_SOCKET_IFNAME", "^mgmt"))).isEmpty();
        assertThat(found(node(), Map.of("NCCL_SOCKET_IFNAME", "=mgmt"))).containsExactly("error unknown-device");
        assertThat(found(node(), Map.of("NCCL_SOCKET_IFNAME", "=eth3,bond"))).containsExactly("error link-down");
        assertThat(EnvCheck.check(node(), Map.of("NCCL_SOCKET_IFNAME", "=eth9")).get(0).message())
                .contains("matches no netdev of g1").contains("write =mgmt0");
    }

    @Test
    void subnetAwareRoutingOffWhereRailmapTurnsItOnIsAWarningSayingWhy() {
        // NVIDIA/nccl src/transport/net_ib/connect.cc, NCCL_PARAM(IbSubnetAwareRouting, ..., 0):
        // only when on does ncclIbFindDevBySubnet pick the local NIC on the peer's subnet
        // RoCE with one subnet per cable: routing by subnet can pick the cable to each peer
        NodeNics a = of(new Cluster().cable("a:en1", "b:en1").cable("a:en2", "c:en1").addresses("a:en1", "10.0.1.1")
                .addresses("b:en1", "10.0.1.2").addresses("a:en2", "10.0.2.1").addresses("c:en1", "10.0.2.2"), "a");
        Map<String, String> written = new NcclLibrary().settings(a).settings().stream()
                .collect(Collectors.toMap(Setting::key, Setting::value));
        assertThat(written).containsEntry("NCCL_IB_SUBNET_AWARE_ROUTING", "1");
        assertThat(found(a, written)).isEmpty();

        Map<String, String> off = new java.util.HashMap<>(written);
        off.remove("NCCL_IB_SUBNET_AWARE_ROUTING");
        assertThat(found(a, off)).containsExactly("warning subnet-routing-off");
        assertThat(EnvCheck.check(a, off).get(0).message()).contains("NCCL pairs a NIC of a, by position");
        off.put("NCCL_IB_SUBNET_AWARE_ROUTING", "0");
        assertThat(found(a, off)).containsExactly("warning subnet-routing-off");
        // a file of no NCCL variable is not an NCCL file
        assertThat(found(a, Map.of("UCX_NET_DEVICES", "rdma_en1:1"))).isEmpty();
        // one peer: railmap does not set it, so its absence is fine
        assertThat(found(of(new Cluster().cable("a:en1", "b:en1"), "a"), Map.of("NCCL_CROSS_NIC", "0"))).isEmpty();
    }

    @Test
    void ucxRailsNotANumberAboveTheLaneLimitOrBelowTheNicsListed() {
        // openucx/ucx src/ucs/config/parser.c, ucs_config_sscanf_uint: inf is UINT_MAX, else sscanf %u
        // (no digit: UCX refuses; -1 wraps to UINT_MAX); src/ucp/proto/proto_multi.h keeps it in an
        // 8-bit ucp_lane_index_t, asserted <= UCP_MAX_LANES (64) by ucp_proto_multi_check_params
        for (String v : List.of("2", " 2", "3", "64")) {
            assertThat(found(node(), Map.of("UCX_MAX_RMA_RAILS", v, "UCX_MAX_RNDV_RAILS", v))).as(v).isEmpty();
        }
        assertThat(found(node(), Map.of("UCX_MAX_RMA_RAILS", "1"))).containsExactly("warning list-limit");
        assertThat(found(node(), Map.of("UCX_MAX_RNDV_RAILS", "0"))).containsExactly("warning list-limit");
        assertThat(found(node(), Map.of("UCX_NET_DEVICES", "mlx5_0:1", "UCX_MAX_RMA_RAILS", "1"))).isEmpty();
        assertThat(found(node(), Map.of("UCX_NET_DEVICES", "^mlx5_1", "UCX_MAX_RMA_RAILS", "1"))).isEmpty();
        for (String v : List.of("two", "", "65", "256", "inf", "INF", "-1")) {
            assertThat(found(node(), Map.of("UCX_MAX_RMA_RAILS", v))).as(v).containsExactly("error bad-setting");
        }
    }

    /**
     * openucx/ucx src/ucs/config/parser.c, ucs_config_sscanf_ulunits: "auto" and "inf" by strcasecmp, else
     * sscanf "%lu" (white-space skipped, -1 wraps to ULONG_MAX = UCS_ULUNITS_INF and -2 to UCS_ULUNITS_AUTO,
     * src/ucs/sys/string.h; no digit fails and ucs_config_parser_parse_field refuses the configuration).
     * src/ucp/core/ucp_context.c, ucp_context_select_reg_mds: auto keeps the HCAs nearest the GPU, N the N
     * nearest; ai-dynamo/nixl src/plugins/ucx/ucx_utils.cpp, nixlUcxContext: MAX_HCA_PER_GPU=auto unless set.
     */
    @Test
    void maxHcaPerGpuBelowTheStripeIsAWarningAndWhatUcxRefusesOrMisreadsAnError() {
        Map<String, String> two = Map.of("UCX_NET_DEVICES", "mlx5_0:1,mlx5_1:1", "UCX_MAX_RMA_RAILS", "2");
        for (String v : List.of("inf", "INF", "2", " 2", "64")) {
            assertThat(found(node(), with(two, "UCX_MAX_HCA_PER_GPU", v))).as(v).isEmpty();
        }
        for (String v : List.of("auto", "Auto", "1", "0")) {
            List<Finding> f = checked(node(), with(two, "UCX_MAX_HCA_PER_GPU", v));
            assertThat(f).as(v).extracting(Finding::code, Finding::severity)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple(Code.LIST_LIMIT, Severity.WARNING));
            assertThat(f.get(0).message()).contains("2 compute NICs (mlx5_0:1,mlx5_1:1)", "nearest", "write UCX_MAX_HCA_PER_GPU=inf");
        }
        for (String v : List.of("all", "", " auto", "-1", "-2", "2x", "+2")) {
            assertThat(found(node(), with(two, "UCX_MAX_HCA_PER_GPU", v))).as(v).containsExactly("error bad-setting");
        }
        assertThat(checked(node(), with(two, "UCX_MAX_HCA_PER_GPU", "all")).get(0).message()).contains("refuses its configuration");
        assertThat(checked(node(), with(two, "UCX_MAX_HCA_PER_GPU", "-1")).get(0).message()).contains("UCX reads it as inf");
        assertThat(checked(node(), with(two, "UCX_MAX_HCA_PER_GPU", "-2")).get(0).message()).contains("UCX reads it as auto");
        // one NIC to stripe over: nothing to lose
        assertThat(found(node(), Map.of("UCX_NET_DEVICES", "mlx5_0:1", "UCX_MAX_HCA_PER_GPU", "auto"))).isEmpty();
        // unset: UCX alone takes inf; NIXL (which ModelExpress runs) sets auto, so a note for an RMA stripe
        assertThat(found(node(), two)).containsExactly("info setting-caveat");
        assertThat(found(node(), Map.of("UCX_NET_DEVICES", "mlx5_0:1,mlx5_1:1"))).isEmpty();
        assertThat(found(node(), Map.of("UCX_NET_DEVICES", "mlx5_0:1", "UCX_MAX_RMA_RAILS", "2"))).isEmpty();
    }

    /**
     * ai-dynamo/modelexpress branch kavink/multi-nic-stripe-mode, ucx_utils.py: _resolve_nic_pin reads "stripe" or
     * "all" (stripped, any case) as the stripe mode, whose _list_compute_ib_nics takes port 1 of every HCA not
     * named *bond* at the floor (MX_RDMA_NIC_PIN_MIN_RATE_GBPS by float(), else the fastest rate) or faster,
     * whatever its state or role, into UCX_NET_DEVICES.
     */
    @Test
    void theStripeModeIsCheckedForWhatItsProbeTakesAndMisses() {
        // g1's probe takes mlx5_0, mlx5_1, the down mlx5_3 and the management mlx5_9 (all 400 Gb/s)
        for (String v : List.of("stripe", "STRIPE", " all ")) {
            List<Finding> f = checked(node(), Map.of("MX_RDMA_NIC_PIN", v, "UCX_MAX_HCA_PER_GPU", "inf"));
            assertThat(f).as(v).extracting(Finding::code).containsExactly(Code.LINK_DOWN, Code.SIDE_NIC_IN_LIST);
            assertThat(f.get(0).message()).contains("takes mlx5_3:1 (g1:", "write the explicit list MX_RDMA_NIC_PIN=mlx5_0:1,mlx5_1:1");
            assertThat(f.get(1).message()).contains("mlx5_9:1", "the management NIC");
        }
        // a floor of 25 Gb/s takes the slow side NIC too; one above every rate takes nothing and leaves UCX_NET_DEVICES
        assertThat(found(node(), Map.of("MX_RDMA_NIC_PIN", "stripe", "MX_RDMA_NIC_PIN_MIN_RATE_GBPS", "25", "UCX_MAX_HCA_PER_GPU", "inf")))
                .containsExactly("error side-nic-in-list", "error link-down", "error side-nic-in-list");
        List<Finding> none = checked(node(), Map.of("MX_RDMA_NIC_PIN", "stripe", "MX_RDMA_NIC_PIN_MIN_RATE_GBPS", "800"));
        assertThat(none).extracting(Finding::code).containsExactly(Code.CABLE_LEFT_OUT);
        assertThat(none.get(0).message()).contains("no compute NIC", "leaves UCX_NET_DEVICES as it is");
        // a floor float() does not read: ModelExpress takes the fastest rate (and the rate itself is an error)
        assertThat(found(node(), Map.of("MX_RDMA_NIC_PIN", "stripe", "MX_RDMA_NIC_PIN_MIN_RATE_GBPS", "fast", "UCX_MAX_HCA_PER_GPU", "inf")))
                .containsExactly("error link-down", "error side-nic-in-list", "error bad-setting");

        // a compute NIC on port 2, or named *bond*, is one the probe misses
        NodeNics missing = StripeNode.named("g1").nic("mlx5_0", 1, 400).nic("mlx5_1", 2, 400).nic("mlx5_bond_0", 1, 400).nics();
        List<Finding> f = checked(missing, Map.of("MX_RDMA_NIC_PIN", "stripe"));
        assertThat(f).extracting(Finding::code, Finding::severity)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(Code.CABLE_LEFT_OUT, Severity.WARNING));
        assertThat(f.get(0).message()).contains("only mlx5_0:1 and misses mlx5_1:2 (g1:", "mlx5_bond_0:1 (g1:");
        // unset UCX_MAX_HCA_PER_GPU: NIXL sets auto under the stripe of two compute NICs
        NodeNics clean = StripeNode.named("g1").nic("mlx5_0", 1, 400).nic("mlx5_1", 1, 400).nics();
        assertThat(found(clean, Map.of("MX_RDMA_NIC_PIN", "stripe"))).containsExactly("warning list-limit");
        assertThat(checked(clean, Map.of("MX_RDMA_NIC_PIN", "stripe")).get(0).message())
                .contains("MX_RDMA_NIC_PIN=stripe stripes over 2 compute NICs", "NIXL", "auto");
        assertThat(found(clean, Map.of("MX_RDMA_NIC_PIN", "stripe", "UCX_MAX_HCA_PER_GPU", "inf"))).isEmpty();
        // the explicit list pins each CUDA device to one NIC: no stripe, no UCX_MAX_HCA_PER_GPU needed
        assertThat(found(clean, Map.of("MX_RDMA_NIC_PIN", "mlx5_0:1,mlx5_1:1"))).isEmpty();
    }

    /** @return the variables with one more */
    private static Map<String, String> with(Map<String, String> vars, String key, String value) {
        Map<String, String> out = new java.util.HashMap<>(vars);
        out.put(key, value);
        return out;
    }

    @Test
    void nvshmemNicsPerPeOfNoneAboveTheLimitOrAboveTheComputeNics() {
        // NVIDIA/nvshmem pull request 19: env_defs.h LIBFABRIC_MAX_NIC_PER_PE (int, strtol base 0),
        // libfabric.cpp nvshmemt_libfabric_connect_endpoints: MIN(devices, it), capped at 16 with a warning
        assertThat(found(node(), Map.of("NVSHMEM_LIBFABRIC_MAX_NIC_PER_PE", "2"))).isEmpty();
        assertThat(found(node(), Map.of("NVSHMEM_LIBFABRIC_MAX_NIC_PER_PE", "1"))).isEmpty();
        assertThat(found(node(), Map.of("NVSHMEM_LIBFABRIC_MAX_NIC_PER_PE", "3"))).containsExactly("warning side-nic-in-list");
        assertThat(found(node(), Map.of("NVSHMEM_LIBFABRIC_MAX_NIC_PER_PE", "17"))).containsExactly("warning list-limit");
        for (String v : List.of("0", "-2", "all")) {
            assertThat(found(node(), Map.of("NVSHMEM_LIBFABRIC_MAX_NIC_PER_PE", v))).as(v).containsExactly("error bad-setting");
        }
    }

    @Test
    void jacclRingVariableAndRanksAgainstRailmapsPlan() {
        // ml-explore/mlx mlx/distributed/jaccl/lib/jaccl/jaccl.cpp, Config::from_env: JACCL_RANK before
        // MLX_RANK (atoi), the ring preferred when JACCL_RING or MLX_JACCL_RING exists; init: the
        // preferred ring when valid, else the mesh when valid, else the ring
        Cluster cluster = new Cluster().cable("a:en1", "b:en1").cable("b:en2", "c:en1").cable("c:en2", "a:en2");
        NodeNics b = of(cluster, "b");
        Topology topology = b.topology();
        Plan plan = Planner.plan(topology, topology.nodes(), Order.GIVEN, RailOptions.DEFAULTS, MlxVersion.NEWEST);
        assertThat(plan.mode()).contains(JacclMode.MESH);
        assertThat(plan.validRing()).isTrue();
        Map<String, String> written = new io.railmap.matrix.library.JacclLibrary().settings(b).settings().stream()
                .collect(Collectors.toMap(Setting::key, Setting::value));
        assertThat(found(b, written)).isEmpty();

        Map<String, String> ring = new java.util.HashMap<>(written);
        ring.put("MLX_JACCL_RING", "0");
        assertThat(found(b, ring)).containsExactly("warning bad-setting");
        assertThat(EnvCheck.check(b, ring).get(0).message()).contains("jaccl runs the ring", "not the mesh railmap chose");

        Map<String, String> rank = new java.util.HashMap<>(written);
        rank.put("JACCL_RANK", "3");
        assertThat(found(b, rank)).containsExactly("error bad-setting");
        rank.put("JACCL_RANK", "first");
        assertThat(found(b, rank)).containsExactly("error bad-setting");
        rank.put("JACCL_RANK", "2");
        rank.put("MLX_RANK", "1");
        assertThat(found(b, rank)).containsExactly("warning bad-setting");
        assertThat(EnvCheck.check(b, rank).get(0).message()).contains("put b at rank 1; rank 2 is c's place");
        rank.remove("JACCL_RANK");
        assertThat(found(b, rank)).isEmpty();
    }

    @Test
    void mlxRingRankAndAHostfileWithoutRing() throws Exception {
        // ml-explore/mlx mlx/distributed/ring/ring.cpp, init: MLX_HOSTFILE and MLX_RANK (atoi)
        NodeNics noRing = of(new Cluster().cable("a:en1", "b:en1"), "a");
        assertThat(EnvCheck.check(noRing, Map.of("MLX_HOSTFILE", "/etc/railmap/ring-hosts.json", "MLX_RANK", "0")))
                .isNotEmpty().allMatch(f -> f.severity() == Severity.ERROR).allMatch(f -> f.message().startsWith("MLX_HOSTFILE is set"));

        Topology topology = Topology.of(SnapshotCodec.readSnapshot("four-studios-ring",
                Files.readString(Path.of("../examples/snapshots/four-studios-ring-ips.json"))));
        MlxRing ring = MlxRing.of(topology);
        String node = ring.ranks().get(1);
        NodeNics studio = ComputeNics.of(topology, RailTable.of(topology), node, SettingsOptions.DEFAULTS);
        Map<String, String> written = new io.railmap.matrix.library.MlxRingLibrary().settings(studio).settings().stream()
                .collect(Collectors.toMap(Setting::key, Setting::value));
        assertThat(written).containsEntry("MLX_RANK", "1");
        assertThat(found(studio, written)).isEmpty();
        assertThat(found(studio, Map.of("MLX_HOSTFILE", "h", "MLX_RANK", "4"))).containsExactly("error bad-setting");
        assertThat(found(studio, Map.of("MLX_HOSTFILE", "h", "MLX_RANK", "2"))).containsExactly("warning bad-setting");
        assertThat(found(studio, Map.of("MLX_HOSTFILE", "h", "MLX_RANK", "one"))).containsExactly("error bad-setting");
    }
}
