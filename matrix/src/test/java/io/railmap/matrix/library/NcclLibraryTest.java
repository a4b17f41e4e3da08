package io.railmap.matrix.library;

import static org.assertj.core.api.Assertions.assertThat;

import io.railmap.matrix.fabric.RailTable;
import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.finding.Severity;
import io.railmap.matrix.model.FarEndSource;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.model.PortState;
import io.railmap.matrix.model.Snapshot;
import io.railmap.matrix.model.SwitchPort;
import io.railmap.matrix.topology.Topology;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.Test;

/** NCCL's settings, each rule as NVIDIA/nccl 2.30.7 reads it (see {@link NcclLibrary}). */
class NcclLibraryTest {
    private static Port nic(String node, int k, String ip, Optional<String> leaf, Optional<Integer> gid, List<PortRef> neighbours) {
        return new Port(node, "eth" + k, Optional.of("mlx5_" + k), 1, PortKind.ROCE, Optional.of(400.0), PortState.ACTIVE, Optional.empty(),
                List.of(ip), true, Optional.empty(),
                leaf.map(l -> new SwitchPort(FarEndSource.LLDP, "52:54:00:00:00:0" + l.charAt(l.length() - 1), Optional.of(l), node + "-" + k)),
                gid, neighbours);
    }

    private static Port management(String node, String ip) {
        return new Port(node, "eno1", Optional.empty(), 1, PortKind.ETHERNET, Optional.of(25.0), PortState.ACTIVE, Optional.empty(),
                List.of(ip), true, Optional.empty(), List.of());
    }

    private static NodeSettings nccl(List<NodeRecord> records, String node) {
        Topology t = Topology.of(new Snapshot(records));
        return new NcclLibrary().settings(ComputeNics.of(t, RailTable.of(t), node, SettingsOptions.DEFAULTS));
    }

    private static Map<String, String> vars(NodeSettings s) {
        Map<String, String> m = new HashMap<>();
        s.settings().forEach(v -> m.put(v.key(), v.value()));
        return m;
    }

    /** Two nodes on two leaves, NICs k on leaf k, subnet 10.k.0.0/24, GID index 3. */
    private static List<NodeRecord> switched(String[][] ips) {
        List<NodeRecord> records = new ArrayList<>();
        for (int n = 0; n < ips.length; n++) {
            String node = "g" + (n + 1);
            List<Port> ports = new ArrayList<>(List.of(management(node, "10.9.0." + (n + 1))));
            for (int k = 0; k < ips[n].length; k++) {
                ports.add(nic(node, k, ips[n][k], Optional.of("leaf" + k), Optional.of(3), List.of()));
            }
            records.add(new NodeRecord(node, 1, ports, Optional.of("10.9.0." + (n + 1)), Optional.empty()));
        }
        return records;
    }

    /**
     * parseStringList (src/misc/utils.cc): entries at ',', fields prefix:port:rail; a leading '=' (init.cc,
     * ncclIbInitDevices) makes matchIf compare whole names. CROSS_NIC=0 (search.cc) when every NIC has a rail;
     * NCCL_IB_GID_INDEX (connect.cc, ncclIbGetGidIndex) when all RoCE NICs share one; NCCL_SOCKET_IFNAME with '='
     * (socket.cc ncclFindInterfaces, linux.cc ncclOsFindInterfaces) on the management netdev.
     */
    @Test
    void aSwitchedNodeGetsExactHcasWithRailsNoCrossNicItsGidIndexAndItsManagementInterface() {
        NodeSettings s = nccl(switched(new String[][] {{"10.0.0.1", "10.1.0.1"}, {"10.0.0.2", "10.1.0.2"}}), "g1");

        assertThat(s.settings()).extracting(Setting::toString).containsExactly("NCCL_IB_HCA==mlx5_0:1:0,mlx5_1:1:1", "NCCL_CROSS_NIC=0",
                "NCCL_IB_GID_INDEX=3", "NCCL_SOCKET_IFNAME==eno1");
        assertThat(s.findings()).isEmpty();
        // What NCCL's parseStringList reads back: prefix, port, rail per entry.
        String hca = vars(s).get("NCCL_IB_HCA");
        assertThat(hca).startsWith("=");
        assertThat(List.of(hca.substring(1).split(","))).extracting(e -> List.of(e.split(":")))
                .containsExactly(List.of("mlx5_0", "1", "0"), List.of("mlx5_1", "1", "1"));
    }

    /** gidSameSubnet (connect.cc) compares the first NCCL_IB_SUBNET_PREFIX_LEN (24) bits: a rail across two /24s is a warning. */
    @Test
    void aRailAcrossTwoSubnetsIsAWarningNamingBothNics() {
        NodeSettings s = nccl(switched(new String[][] {{"10.0.0.1", "10.1.0.1"}, {"10.0.1.2", "10.1.0.2"}}), "g1");

        assertThat(s.findings()).singleElement().satisfies(f -> {
            assertThat(f.code()).isEqualTo(Code.SUBNET_MISMATCH);
            assertThat(f.severity()).isEqualTo(Severity.WARNING);
            assertThat(f.rail()).contains(0);
            assertThat(f.message()).contains("g1:eth0 10.0.0.1", "g2:eth0 10.0.1.2");
        });
    }

    /**
     * NVIDIA/nccl 2.30.7 src/transport/net_ib/connect.cc, ncclIbFindDevBySubnet: the NIC NCCL picked is kept when
     * its GID shares the peer's /24 (gidSameSubnet), else the first NIC that does is taken. Two rails on one /24
     * look alike to it: a warning naming both NICs, and no NCCL_IB_SUBNET_AWARE_ROUTING, so that a NIC on the
     * wrong leaf is an error naming the cable to move rather than a warning that routing fixes it.
     */
    @Test
    void twoRailsOnOneSubnetAreASubnetMismatchAndSubnetRoutingIsNotTrusted() {
        List<NodeRecord> records = switched(new String[][] {{"10.0.0.1", "10.0.0.101"}, {"10.0.0.2", "10.0.0.102"},
                {"10.0.0.3", "10.0.0.103"}});
        NodeSettings s = nccl(records, "g1");

        assertThat(vars(s)).doesNotContainKey("NCCL_IB_SUBNET_AWARE_ROUTING");
        assertThat(s.findings()).singleElement().satisfies(f -> {
            assertThat(f.code()).isEqualTo(Code.SUBNET_MISMATCH);
            assertThat(f.severity()).isEqualTo(Severity.WARNING);
            assertThat(f.message()).contains("mlx5_0:1 (g1:eth0 10.0.0.1) on rail 0 (leaf0); mlx5_1:1 (g1:eth1 10.0.0.101) on rail 1 (leaf1)")
                    .contains("share 10.0.0.0/24");
            assertThat(f.ports()).containsExactly(new PortRef("g1", "eth0"), new PortRef("g1", "eth1"));
        });

        // g3's two cables swapped between the leaves: by rail, subnet routing would fix it; on one /24 it cannot
        NodeRecord g3 = records.get(2);
        List<Port> swapped = g3.ports().stream().map(p -> p.switchPort().isEmpty() ? p : p.withSwitchPort(records.get(0).ports().stream()
                .filter(o -> o.rdma().isPresent() && !o.rdma().equals(p.rdma())).findFirst().orElseThrow().switchPort())).toList();
        records.set(2, new NodeRecord("g3", 1, swapped, g3.management(), Optional.empty()));
        assertThat(nccl(records, "g3").findings()).anySatisfy(f -> {
            assertThat(f.code()).isEqualTo(Code.CROSS_RAIL);
            assertThat(f.isError()).isTrue();
        });
    }

    /**
     * @return nodes a and b joined by two direct cables, a:eth0–b:eth0 and a:eth1–b:eth1, each NIC with
     *         the IPv4 address given and RoCE v2 GID index 3
     */
    private static List<NodeRecord> twoCables(String a0Ip, String a1Ip, String b0Ip, String b1Ip) {
        PortRef a0 = new PortRef("a", "eth0"), b0 = new PortRef("b", "eth0"), a1 = new PortRef("a", "eth1"), b1 = new PortRef("b", "eth1");
        return List.of(
                new NodeRecord("a", 1, List.of(nic("a", 0, a0Ip, Optional.empty(), Optional.of(3), List.of(b0)),
                        nic("a", 1, a1Ip, Optional.empty(), Optional.of(3), List.of(b1))), Optional.empty(), Optional.empty()),
                new NodeRecord("b", 1, List.of(nic("b", 0, b0Ip, Optional.empty(), Optional.of(3), List.of(a0)),
                        nic("b", 1, b1Ip, Optional.empty(), Optional.of(3), List.of(a1))), Optional.empty(), Optional.empty()));
    }

    /** Two direct cables between a and b on one /24: ncclIbFindDevBySubnet cannot tell the cables apart either. */
    @Test
    void twoCablesOnOneSubnetAreASubnetMismatch() {
        List<NodeRecord> records = twoCables("10.0.0.1", "10.0.0.3", "10.0.0.2", "10.0.0.4");

        assertThat(nccl(records, "a").findings()).singleElement().satisfies(f -> {
            assertThat(f.code()).isEqualTo(Code.SUBNET_MISMATCH);
            assertThat(f.isError()).isFalse();
            assertThat(f.message()).contains("on cable a:eth0\u2013b:eth0").contains("on cable a:eth1\u2013b:eth1").contains("share 10.0.0.0/24");
        });
    }

    /** Nodes g1, g2 on 33 leaves: NIC k of each on leaf k (its own chassis), 10.k.0.0/24, GID index 3. */
    private static List<NodeRecord> wide(int leaves) {
        List<NodeRecord> records = new ArrayList<>();
        for (int n = 1; n <= 2; n++) {
            String node = "g" + n;
            List<Port> ports = new ArrayList<>();
            for (int k = 0; k < leaves; k++) {
                ports.add(new Port(node, "eth" + k, Optional.of("mlx5_" + k), 1, PortKind.ROCE, Optional.of(400.0), PortState.ACTIVE,
                        Optional.empty(), List.of("10." + k + ".0." + n), true, Optional.empty(), Optional.of(new SwitchPort(FarEndSource.LLDP,
                        String.format("52:54:00:00:01:%02x", k), Optional.of("leaf" + k), node + "-" + k)), Optional.of(3), List.of()));
            }
            records.add(new NodeRecord(node, 1, ports, Optional.empty(), Optional.empty()));
        }
        return records;
    }

    /**
     * NVIDIA/nccl 2.30.7 src/transport/net_ib/common.h, MAX_IB_DEVS (32): init.cc, ncclIbInitDevices, reads at
     * most 32 NCCL_IB_HCA entries (parseStringList's maxList, src/misc/utils.cc) and opens at most 32 ports. With
     * 33 compute NICs a list would silently drop one: an error and no NCCL_IB_HCA. NCCL_CROSS_NIC=0 stays, as
     * without rail ids ncclTopoSearchCheckNet (src/graph/search.cc) keeps a channel on the NIC it entered by.
     */
    @Test
    void moreThanThirtyTwoComputeNicsIsAListLimitErrorAndNoHcaList() {
        NodeSettings over = nccl(wide(33), "g1");
        assertThat(vars(over)).doesNotContainKey("NCCL_IB_HCA").containsEntry("NCCL_CROSS_NIC", "0").containsEntry("NCCL_IB_GID_INDEX", "3");
        assertThat(over.findings()).singleElement().satisfies(f -> {
            assertThat(f.code()).isEqualTo(Code.LIST_LIMIT);
            assertThat(f.isError()).isTrue();
            assertThat(f.message()).contains("g1 has 33 compute NICs", "MAX_IB_DEVS");
        });

        NodeSettings max = nccl(wide(32), "g1");
        assertThat(max.findings()).isEmpty();
        String hca = vars(max).get("NCCL_IB_HCA");
        assertThat(hca.substring(1).split(",")).hasSize(NcclLibrary.MAX_IB_DEVS).startsWith("mlx5_0:1:0").endsWith("mlx5_31:1:31");
    }

    /**
     * NICs cabled directly to several nodes: NCCL joins two nodes' NICs by their position (src/graph/search.cc), and
     * a rail id cannot say which cable reaches which peer. With every cable on its own /24, NVIDIA/nccl 2.30.7
     * src/transport/net_ib/connect.cc, NCCL_IB_SUBNET_AWARE_ROUTING (default 0): ncclIbConnectImpl calls
     * ncclIbFindDevBySubnet with the peer's listen GIDs and ncclIbAcceptImpl with the connector's, each taking the
     * local NIC whose GID shares the other's /24 (gidSameSubnet), else keeping its own. Two of a node's cables on
     * one /24 would look alike to it: then it is not set, and a subnet-mismatch warning says why.
     */
    @Test
    void nicsCabledDirectlyToSeveralPeersRouteBySubnetWhenEveryCableHasItsOwn() {
        for (String node : List.of("a", "b", "c")) {
            NodeSettings s = nccl(triangle("10.1.0.1"), node);
            // each cable is the first of its pair: one id, so a ring entering by one cable may leave by the other
            assertThat(vars(s)).as(node).containsEntry("NCCL_IB_HCA", "=mlx5_0:1:0,mlx5_1:1:0").containsEntry("NCCL_CROSS_NIC", "0")
                    .containsEntry("NCCL_IB_SUBNET_AWARE_ROUTING", "1");
            assertThat(s.findings()).as(node).noneMatch(f -> f.code() == Code.SUBNET_MISMATCH);
        }
        // a's NIC 1 (to b) meets c's NIC 1 (to a's NIC 2): c's connection keeps its NIC and a's accept side moves
        // to its NIC on c's /24, so routing joins them; a's NIC 2 (to c) meets b's NIC 2 (to c, 10.2.0.1), a /24
        // none of a's NICs is on, so neither side can move: an error naming the cable
        assertThat(nccl(triangle("10.1.0.1"), "a").findings()).extracting(f -> f.code() + " " + f.severity() + " " + f.message().split(" ")[0])
                .containsExactlyInAnyOrder("CROSS_RAIL WARNING mlx5_0:1", "CROSS_RAIL ERROR mlx5_1:1");

        NodeSettings shared = nccl(triangle("10.0.0.3"), "a");
        assertThat(vars(shared)).doesNotContainKey("NCCL_IB_SUBNET_AWARE_ROUTING");
        assertThat(shared.findings()).anySatisfy(f -> {
            assertThat(f.code()).isEqualTo(Code.SUBNET_MISMATCH);
            assertThat(f.message()).contains("mlx5_0:1 (a:eth0 10.0.0.1) on cable", "mlx5_1:1 (a:eth1 10.0.0.3) on cable", "share 10.0.0.0/24");
        });
    }

    /** a, b, c cabled in a triangle, each cable its own /24 (a:eth0-b:eth0 10.0.0, a:eth1-c:eth0 10.1.0, b:eth1-c:eth1 10.2.0), a:eth1 at {@code a1}. */
    private static List<NodeRecord> triangle(String a1) {
        PortRef a0r = new PortRef("a", "eth0"), a1r = new PortRef("a", "eth1"), b0 = new PortRef("b", "eth0"), b1 = new PortRef("b", "eth1"),
                c0 = new PortRef("c", "eth0"), c1 = new PortRef("c", "eth1");
        String c0ip = a1.equals("10.1.0.1") ? "10.1.0.2" : "10.0.0.4";
        return List.of(
                new NodeRecord("a", 1, List.of(nic("a", 0, "10.0.0.1", Optional.empty(), Optional.of(3), List.of(b0)),
                        nic("a", 1, a1, Optional.empty(), Optional.of(3), List.of(c0))), Optional.empty(), Optional.empty()),
                new NodeRecord("b", 1, List.of(nic("b", 0, "10.0.0.2", Optional.empty(), Optional.of(3), List.of(a0r)),
                        nic("b", 1, "10.2.0.1", Optional.empty(), Optional.of(3), List.of(c1))), Optional.empty(), Optional.empty()),
                new NodeRecord("c", 1, List.of(nic("c", 0, c0ip, Optional.empty(), Optional.of(3), List.of(a1r)),
                        nic("c", 1, "10.2.0.2", Optional.empty(), Optional.of(3), List.of(b1))), Optional.empty(), Optional.empty()));
    }

    /** ncclIbGetGidIndex takes NCCL_IB_GID_INDEX for every RoCE port: NICs with different indices get none, and a finding. */
    @Test
    void differentGidIndicesLeaveTheVariableOutWithAFinding() {
        List<NodeRecord> records = switched(new String[][] {{"10.0.0.1", "10.1.0.1"}, {"10.0.0.2", "10.1.0.2"}});
        NodeRecord g1 = records.get(0);
        List<Port> ports = g1.ports().stream().map(p -> p.netdev().equals("eth1") ? p.withGidIndex(Optional.of(5)) : p).toList();
        records.set(0, new NodeRecord("g1", 1, ports, g1.management(), Optional.empty()));

        NodeSettings s = nccl(records, "g1");

        assertThat(vars(s)).doesNotContainKey("NCCL_IB_GID_INDEX");
        assertThat(s.findings()).extracting(Finding::code).containsExactly(Code.MIXED_GID_INDEX);
        assertThat(s.findings().get(0).message()).contains("mlx5_0:1 3", "mlx5_1:1 5");
    }

    /** Direct cables: the rail is the cable's index in its pair's aligned list; ends on two /24s is an error. */
    @Test
    void directCablesCarryTheirRailAndEndsOnTwoSubnetsAreAnError() {
        List<NodeRecord> records = twoCables("10.0.0.1", "10.1.0.1", "10.0.0.2", "10.7.0.2");

        NodeSettings s = nccl(records, "a");

        assertThat(vars(s)).containsEntry("NCCL_IB_HCA", "=mlx5_0:1:0,mlx5_1:1:1").containsEntry("NCCL_CROSS_NIC", "0")
                .doesNotContainKey("NCCL_SOCKET_IFNAME").doesNotContainKey("NCCL_IB_SUBNET_AWARE_ROUTING");
        assertThat(s.findings()).singleElement().satisfies(f -> {
            assertThat(f.code()).isEqualTo(Code.SUBNET_MISMATCH);
            assertThat(f.isError()).isTrue();
            assertThat(f.message()).contains("a:eth1 10.1.0.1", "b:eth1 10.7.0.2");
        });
    }

    /** A NIC with no far end known has no rail: written hca:port (rail -1 in parseStringList), no CROSS_NIC, a warning. */
    @Test
    void aNicWithoutARailIsWrittenWithoutOneAndCrossNicIsLeftToNccl() {
        List<NodeRecord> records = List.of(new NodeRecord("a", 1, List.of(nic("a", 0, "10.0.0.1", Optional.empty(), Optional.empty(), List.of())),
                Optional.empty(), Optional.empty()));

        NodeSettings s = nccl(records, "a");

        assertThat(s.settings()).extracting(Setting::toString).containsExactly("NCCL_IB_HCA==mlx5_0:1");
        assertThat(s.findings()).extracting(Finding::code, Finding::severity)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(Code.UNKNOWN_FAR_END, Severity.WARNING),
                        org.assertj.core.groups.Tuple.tuple(Code.MIXED_GID_INDEX, Severity.WARNING));
    }

    /** Names parseStringList would cut or split: over 63 characters (netIf.prefix), ',' or ':'. */
    @Test
    void namesNcclCannotReadBackAreRefused() {
        assertThat(NcclLibrary.unparseable("mlx5_0")).isEmpty();
        assertThat(NcclLibrary.unparseable("x".repeat(63))).isEmpty();
        assertThat(NcclLibrary.unparseable("x".repeat(64))).isPresent();
        assertThat(NcclLibrary.unparseable("a,b")).isPresent();
        assertThat(NcclLibrary.unparseable("a:b")).isPresent();
        assertThat(NcclLibrary.unparseable("=a")).isPresent();
    }

    /**
     * On random fabrics of 2 to 5 nodes, each with 0 to L NICs on random leaves and random direct cables between
     * random nodes (so mixed nodes, direct-only ones, and cabled pairs among more than two nodes):
     * NICs given one rail id in NCCL_IB_HCA on a leaf all reach one leaf, and no direct cable carries a leaf's id
     * (with NCCL_CROSS_NIC=0, ncclTopoSearchCheckNet in src/graph/search.cc lets a channel leave a node by any NIC of
     * the id it entered by); both ends of a cable carry one id, and two cables between the same two nodes two ids.
     */
    @RepeatedTest(40)
    void nicsCarryingOneRailIdReachOneSwitchOrAreTheEndsOfOneCable(RepetitionInfo info) {
        Random random = new Random(new java.util.SplittableRandom(1200 + info.getCurrentRepetition()).nextLong());
        int nodes = 2 + random.nextInt(4), leaves = random.nextInt(4);
        int[] next = new int[nodes];
        List<List<Port>> ports = new ArrayList<>();
        Map<PortRef, String> leafOf = new HashMap<>();
        for (int n = 0; n < nodes; n++) {
            ports.add(new ArrayList<>());
            for (int k = leaves == 0 ? 0 : random.nextInt(leaves + 1); k > 0; k--) {
                String leaf = "leaf" + random.nextInt(leaves);
                Port p = nic("g" + n, next[n], "10." + next[n] + ".0." + (n + 1), Optional.of(leaf), Optional.of(3), List.of());
                next[n]++;
                leafOf.put(p.ref(), leaf);
                ports.get(n).add(p);
            }
        }
        Map<PortRef, PortRef> cables = new HashMap<>();
        for (int c = leaves == 0 ? 1 + random.nextInt(2 * nodes) : random.nextInt(2 * nodes + 1); c > 0; c--) {
            int x = random.nextInt(nodes), y = (x + 1 + random.nextInt(nodes - 1)) % nodes;
            PortRef px = new PortRef("g" + x, "eth" + next[x]), py = new PortRef("g" + y, "eth" + next[y]);
            ports.get(x).add(nic("g" + x, next[x]++, "10.100." + c + ".1", Optional.empty(), Optional.of(3), List.of(py)));
            ports.get(y).add(nic("g" + y, next[y]++, "10.100." + c + ".2", Optional.empty(), Optional.of(3), List.of(px)));
            cables.put(px, py);
            cables.put(py, px);
        }
        List<NodeRecord> records = new ArrayList<>();
        for (int n = 0; n < nodes; n++) {
            records.add(new NodeRecord("g" + n, 1, ports.get(n), Optional.empty(), Optional.empty()));
        }
        Map<PortRef, Integer> railOf = new HashMap<>();
        for (NodeRecord r : records) {
            NodeSettings s = nccl(records, r.node());
            if (vars(s).containsKey("NCCL_IB_HCA")) {
                entries(s).stream().filter(e -> e.length == 3)
                        .forEach(e -> railOf.put(new PortRef(r.node(), "eth" + e[0].substring("mlx5_".length())), Integer.parseInt(e[2])));
            }
        }
        String fabric = "leaves " + leafOf + ", cables " + cables + ", rails " + railOf;
        Map<Integer, Set<String>> leavesOfRail = new HashMap<>();
        railOf.forEach((nic, rail) -> {
            if (leafOf.containsKey(nic)) {
                leavesOfRail.computeIfAbsent(rail, x -> new java.util.HashSet<>()).add(leafOf.get(nic));
            }
        });
        assertThat(leavesOfRail.values()).as(fabric).allSatisfy(l -> assertThat(l).hasSize(1));
        cables.forEach((x, y) -> {
            assertThat(railOf.get(x)).as("cable %s-%s in %s", x, y, fabric).isNotNull().isEqualTo(railOf.get(y))
                    .isNotIn(leavesOfRail.keySet());
            cables.forEach((u, v) -> {
                if (!u.equals(x) && u.node().equals(x.node()) && v.node().equals(y.node())) {
                    assertThat(railOf.get(u)).as("cables %s-%s and %s-%s in %s", x, y, u, v, fabric).isNotEqualTo(railOf.get(x));
                }
            });
        });
    }

    private static List<Integer> shuffled(Random random, int n) {
        List<Integer> l = new ArrayList<>(java.util.stream.IntStream.range(0, n).boxed().toList());
        java.util.Collections.shuffle(l, random);
        return l;
    }

    private static List<String[]> entries(NodeSettings s) {
        return List.of(vars(s).get("NCCL_IB_HCA").substring(1).split(",")).stream().map(e -> e.split(":")).toList();
    }
}
