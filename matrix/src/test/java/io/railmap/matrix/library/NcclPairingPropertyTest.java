package io.railmap.matrix.library;

import static org.assertj.core.api.Assertions.assertThat;

import io.railmap.matrix.SentencePorts;
import io.railmap.matrix.fabric.RailTable;
import io.railmap.matrix.finding.Finding;
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
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;

/**
 * The pairing property of issue 12: on random switched and direct-cable topologies, every pairing
 * NCCL would make that joins two rails is named by a finding of {@link NcclLibrary}.
 *
 * <p><b>NCCL's pairing</b>, read in NVIDIA/nccl (master, 2.30.x):
 * <ul>
 * <li>{@code src/transport/net_ib/init.cc}, {@code ncclIbInitDevices}: the devices are numbered in
 *     {@code ibv_get_device_list} order, keeping those {@code NCCL_IB_HCA} names; the entry's rail
 *     becomes the device's {@code railId}. On nodes built alike that order is the HCA names' order,
 *     {@code mlx5_0, mlx5_1, ...}, the order railmap lists compute NICs in.</li>
 * <li>{@code src/graph/search.cc}: every node searches its own graph ({@code ncclTopoCompute}; a ring
 *     is NET n, its GPUs, NET n or m), and with {@code NCCL_CROSS_NIC=0}
 *     {@code ncclTopoSearchCheckNet} lets a channel leave only by a NIC of the rail it entered by;
 *     {@code ncclTopoGetNetDev} gives channel c on a rank the NIC {@code graph->inter[2c + index]} of
 *     its own node's graph (and, without a graph, {@code ncclTopoGetLocalNet} the NIC near the GPU with
 *     the peer's device number). NCCL assumes identical nodes, whose searches land on the same NIC
 *     positions: so the connection of a channel from node A to node B joins A's NIC at position i to
 *     B's NIC at position i. That is the rule modelled here: for every two nodes and every position
 *     both have, those two NICs are paired. The rail ids do not enter it.</li>
 * <li>{@code src/transport/net_ib/connect.cc}: the connector ({@code ncclIbConnectImpl}) and acceptor
 *     ({@code ncclIbAcceptImpl}) use those two devices, unless the node sets
 *     {@code NCCL_IB_SUBNET_AWARE_ROUTING=1}: then {@code ncclIbFindDevBySubnet} first on the
 *     connector, against the listener's GIDs ({@code ncclIbListen} puts them in the handle), then on
 *     the acceptor, against the connector's chosen device, keeps the default device when its RoCE GID
 *     shares the first {@code NCCL_IB_SUBNET_PREFIX_LEN} (24) bits with the peer's
 *     ({@code gidSameSubnet}), else takes the first device that does, else keeps the default. Ports
 *     that are not Ethernet (InfiniBand) are skipped: nothing changes.</li>
 * </ul>
 *
 * <p><b>The fabrics.</b> Switched (NIC k of each node on leaf k, a few moved), direct (two nodes with
 * crossed or straight cables, or a ring of three or four), and mixed (nodes with NICs on leaves and
 * direct cables besides, numbered after them).
 *
 * <p><b>The property.</b> For every two nodes A, B that NCCL can connect over RDMA (both on the
 * switched fabric, or joined by a cable: two nodes of a ring with no cable between them have no
 * RDMA path at all) (A connecting, B listening) and every position
 * i: the pair NCCL ends on, with the subnet-aware routing each node's settings hold, must join one
 * rail (one switch; or, for direct cables, the two ends of one cable), else a finding of A's or B's
 * NCCL settings that is an error names A's or B's NIC at i. When the pair by position joins two
 * rails and subnet-aware routing makes it right, a finding still names one of the two NICs (the
 * cable is worth moving). And a fabric cabled cleanly gets no error.
 */
class NcclPairingPropertyTest {
    private static final long SEED = 12_0000L;

    /** How a topology's RoCE ports are addressed. */
    private enum Addressing {
        /** each switch or cable its own /24, as a per-rail VLAN gives: the subnet follows the cable */
        BY_RAIL,
        /** each NIC name its own /24: a moved cable keeps its NIC's address, on the wrong subnet */
        BY_NIC_NAME,
        /** every port on one /24: subnets tell nothing apart */
        ONE_SUBNET,
        /** InfiniBand: no IPv4 address, no GID index, switches named by the fabric */
        INFINIBAND
    }

    /** A generated topology: the records and where each NIC goes. */
    private record Fabric(List<NodeRecord> records, Map<PortRef, String> reach, boolean clean) {
    }

    @RepeatedTest(60)
    void everyPairingByPositionThatJoinsTwoRailsIsNamedByAFinding(RepetitionInfo info) {
        // java.util.Random's first draws from neighbouring seeds are alike: SplittableRandom mixes the seed first
        Random random = new Random(new SplittableRandom(SEED + info.getCurrentRepetition()).nextLong());
        Addressing addressing = Addressing.values()[random.nextInt(Addressing.values().length)];
        Fabric fabric = switch (random.nextInt(3)) {
            case 0 -> switched(random, addressing, 2 + random.nextInt(4), 1 + random.nextInt(4), 0);
            case 1 -> direct(random, addressing, 2 + random.nextInt(3), 1 + random.nextInt(4), 0);
            default -> mixed(random, addressing);
        };
        assertPairingsNamed(fabric);
    }

    private static void assertPairingsNamed(Fabric fabric) {
        Topology topology = Topology.of(new Snapshot(fabric.records()));
        RailTable rails = RailTable.of(topology);
        Map<String, NodeSettings> settings = new HashMap<>();
        Map<String, List<Port>> position = new HashMap<>();
        for (NodeRecord r : fabric.records()) {
            NodeSettings s = new NcclLibrary().settings(ComputeNics.of(topology, rails, r.node(), SettingsOptions.DEFAULTS));
            settings.put(r.node(), s);
            SentencePorts.assertCarried(s.findings(), topology);
            List<Port> nics = r.ports().stream().filter(p -> p.rdma().isPresent())
                    .sorted((a, b) -> a.rdma().orElseThrow().compareTo(b.rdma().orElseThrow())).toList();
            position.put(r.node(), nics);
            // the NICs NCCL numbers are the ones NCCL_IB_HCA names
            assertThat(hcas(s)).as("NCCL_IB_HCA of %s", r.node()).isEqualTo(nics.stream().map(p -> p.rdma().orElseThrow()).toList());
        }
        if (fabric.clean()) {
            assertThat(settings.values()).as("a cleanly cabled fabric").allSatisfy(s -> assertThat(s.findings()).noneMatch(Finding::isError));
        }
        for (NodeRecord ra : fabric.records()) {
            for (NodeRecord rb : fabric.records()) {
                String a = ra.node(), b = rb.node();
                if (a.equals(b) || !mayPair(fabric, a, b)) {
                    continue;
                }
                List<Port> nicsA = position.get(a), nicsB = position.get(b);
                for (int i = 0; i < Math.min(nicsA.size(), nicsB.size()); i++) {
                    Port byPositionA = nicsA.get(i), byPositionB = nicsB.get(i);
                    Port connector = subnetAware(settings.get(a)) ? bySubnet(nicsA, byPositionB, byPositionA) : byPositionA;
                    Port acceptor = subnetAware(settings.get(b)) ? bySubnet(nicsB, connector, byPositionB) : byPositionB;
                    List<Finding> findings = new ArrayList<>(settings.get(a).findings());
                    findings.addAll(settings.get(b).findings());
                    String pair = a + " connecting to " + b + " at position " + i + " (" + byPositionA.ref() + ", " + byPositionB.ref()
                            + "), NCCL ends on " + connector.ref() + " and " + acceptor.ref() + "; findings " + findings
                            + "; reach " + fabric.reach();
                    if (!joined(fabric, connector, acceptor)) {
                        assertThat(findings).as(pair).anyMatch(f -> f.isError() && names(f, byPositionA, byPositionB));
                    } else if (!joined(fabric, byPositionA, byPositionB)) {
                        assertThat(findings).as(pair).anyMatch(f -> names(f, byPositionA, byPositionB));
                    }
                }
            }
        }
    }

    /**
     * Several nodes, NIC k of each on leaf k, but a few NICs moved: swapped with another NIC, or put on a random
     * leaf; then {@code direct} direct cables ({@link #cable}: 0 gives a switched fabric alone).
     */
    private static Fabric switched(Random random, Addressing addressing, int nodes, int nics, int direct) {
        List<List<Port>> ports = new ArrayList<>();
        Map<PortRef, String> reach = new HashMap<>();
        boolean clean = true;
        for (int n = 0; n < nodes; n++) {
            int[] leaf = IntStream.range(0, nics).toArray();
            int move = random.nextInt(6);
            if (move == 0 && nics > 1) {
                int x = random.nextInt(nics), y = (x + 1 + random.nextInt(nics - 1)) % nics;
                leaf[x] = y;
                leaf[y] = x;
                clean = false;
            } else if (move == 1) {
                int x = random.nextInt(nics);
                leaf[x] = random.nextInt(nics + 1);
                clean &= leaf[x] == x;
            }
            String node = "g" + n;
            ports.add(new ArrayList<>());
            for (int k = 0; k < nics; k++) {
                String sw = "leaf" + leaf[k];
                int subnet = addressing == Addressing.BY_RAIL ? leaf[k] : addressing == Addressing.BY_NIC_NAME ? k : 0;
                String ip = "10." + subnet + ".0." + (n * 16 + k + 1);
                Optional<SwitchPort> at = Optional.of(addressing == Addressing.INFINIBAND
                        ? new SwitchPort(FarEndSource.INFINIBAND, "0x0002c90300000" + leaf[k], Optional.of(sw), Integer.toString(n + 1))
                        : new SwitchPort(FarEndSource.LLDP, "52:54:00:00:00:0" + leaf[k], Optional.of(sw), "p" + (n + 1)));
                ports.get(n).add(nic(node, k, addressing, ip, at, List.of()));
                reach.put(new PortRef(node, "eth" + k), sw);
            }
        }
        return cabled(random, addressing, ports, nics, direct, reach, clean);
    }

    /**
     * Direct cables only: two nodes with {@code cables} cables between random NICs (clean when each joins the NICs
     * at one position), or a ring of three or four nodes, one cable between neighbours.
     */
    private static Fabric direct(Random random, Addressing addressing, int nodes, int cables, int first) {
        List<List<Port>> ports = new ArrayList<>();
        for (int n = 0; n < nodes; n++) {
            ports.add(new ArrayList<>());
        }
        return cabled(random, addressing, ports, first, cables, new HashMap<>(), true);
    }

    /** Nodes with one to three NICs on leaves and direct cables too, numbered after their switched NICs. */
    private static Fabric mixed(Random random, Addressing addressing) {
        int nodes = 2 + random.nextInt(3), nics = 1 + random.nextInt(3);
        return switched(random, addressing, nodes, nics, 1 + random.nextInt(2));
    }

    /**
     * Adds direct cables to the nodes' ports, NICs numbered from {@code first}: between the two nodes,
     * {@code cables} cables from a random NIC to a random NIC; among more, a ring, one cable between
     * neighbours, each node's two NICs in random order (then never clean: NCCL's position rule cannot
     * match a ring's cables).
     */
    private static Fabric cabled(Random random, Addressing addressing, List<List<Port>> ports, int first, int cables,
                                 Map<PortRef, String> reach, boolean clean) {
        int nodes = ports.size();
        if (cables > 0 && nodes == 2) {
            List<Integer> aSide = shuffled(random, cables), bSide = shuffled(random, cables);
            for (int c = 0; c < cables; c++) {
                cable(addressing, ports, reach, c, 0, first + aSide.get(c), 1, first + bSide.get(c));
            }
            clean &= aSide.equals(bSide);
        } else if (cables > 0) {
            boolean[] nextFirst = new boolean[nodes];
            for (int n = 0; n < nodes; n++) {
                nextFirst[n] = random.nextBoolean();
            }
            for (int n = 0; n < nodes; n++) {
                int m = (n + 1) % nodes;
                cable(addressing, ports, reach, n, n, first + (nextFirst[n] ? 0 : 1), m, first + (nextFirst[m] ? 1 : 0));
            }
            clean = false;
        }
        List<NodeRecord> records = new ArrayList<>();
        for (int n = 0; n < nodes; n++) {
            records.add(new NodeRecord("g" + n, 1, ports.get(n), Optional.empty(), Optional.empty()));
        }
        return new Fabric(records, reach, clean);
    }

    /** One cable c from NIC kx of node x to NIC ky of node y, its ends addressed as {@code addressing} says. */
    private static void cable(Addressing addressing, List<List<Port>> ports, Map<PortRef, String> reach, int c, int x, int kx, int y, int ky) {
        PortRef px = new PortRef("g" + x, "eth" + kx), py = new PortRef("g" + y, "eth" + ky);
        String ipX, ipY;
        switch (addressing) {
            case BY_RAIL -> {
                ipX = "10." + (100 + c) + ".0.1";
                ipY = "10." + (100 + c) + ".0.2";
            }
            case BY_NIC_NAME -> {
                ipX = "10." + kx + ".0." + (x * 16 + kx + 1);
                ipY = "10." + ky + ".0." + (y * 16 + ky + 1);
            }
            default -> {
                ipX = "10.0.0." + (x * 16 + kx + 1);
                ipY = "10.0.0." + (y * 16 + ky + 1);
            }
        }
        ports.get(x).add(nic(px.node(), kx, addressing, ipX, Optional.empty(), List.of(py)));
        ports.get(y).add(nic(py.node(), ky, addressing, ipY, Optional.empty(), List.of(px)));
        reach.put(px, "cable " + c);
        reach.put(py, "cable " + c);
    }

    /**
     * @return true when NCCL may connect the two nodes over RDMA: both have a NIC on a switch (one fabric), or a
     *         NIC of one reaches what a NIC of the other reaches (a direct cable); two nodes of a ring that no
     *         cable joins have no RDMA path at all, which is no question of rails
     */
    private static boolean mayPair(Fabric fabric, String a, String b) {
        List<String> ra = fabric.reach().entrySet().stream().filter(e -> e.getKey().node().equals(a)).map(Map.Entry::getValue).toList();
        List<String> rb = fabric.reach().entrySet().stream().filter(e -> e.getKey().node().equals(b)).map(Map.Entry::getValue).toList();
        return ra.stream().anyMatch(rb::contains) || ra.stream().anyMatch(r -> r.startsWith("leaf")) && rb.stream().anyMatch(r -> r.startsWith("leaf"));
    }

    private static Port nic(String node, int k, Addressing addressing, String ip, Optional<SwitchPort> at, List<PortRef> neighbours) {
        boolean ib = addressing == Addressing.INFINIBAND;
        return new Port(node, "eth" + k, Optional.of("mlx5_" + k), 1, ib ? PortKind.INFINIBAND : PortKind.ROCE, Optional.of(400.0),
                PortState.ACTIVE, Optional.empty(), ib ? List.of() : List.of(ip), true, Optional.empty(), at,
                ib ? Optional.empty() : Optional.of(3), neighbours);
    }

    /** @return true when the two NICs reach one switch, or are the two ends of one cable */
    private static boolean joined(Fabric fabric, Port x, Port y) {
        return fabric.reach().get(x.ref()).equals(fabric.reach().get(y.ref()));
    }

    /**
     * {@code ncclIbFindDevBySubnet}: the default device when it shares the peer's /24, else the first
     * device (in NCCL's order) that does, else the default; InfiniBand ports are skipped.
     */
    private static Port bySubnet(List<Port> local, Port peer, Port byDefault) {
        if (peer.kind() != PortKind.ROCE || peer.ipv4().isEmpty()) {
            return byDefault;
        }
        if (byDefault.kind() == PortKind.ROCE && NcclLibrary.shareSubnet(byDefault, peer)) {
            return byDefault;
        }
        return local.stream().filter(p -> p.kind() == PortKind.ROCE && NcclLibrary.shareSubnet(p, peer)).findFirst().orElse(byDefault);
    }

    private static boolean subnetAware(NodeSettings s) {
        return s.settings().stream().anyMatch(v -> v.key().equals("NCCL_IB_SUBNET_AWARE_ROUTING") && v.value().equals("1"));
    }

    private static boolean names(Finding f, Port x, Port y) {
        return f.ports().contains(x.ref()) || f.ports().contains(y.ref());
    }

    /** @return the HCA names NCCL_IB_HCA lists, in its order */
    private static List<String> hcas(NodeSettings s) {
        String hca = s.settings().stream().filter(v -> v.key().equals("NCCL_IB_HCA")).findFirst().orElseThrow().value();
        return List.of(hca.substring(1).split(",")).stream().map(e -> e.split(":")[0]).toList();
    }

    private static List<Integer> shuffled(Random random, int n) {
        List<Integer> l = new ArrayList<>(IntStream.range(0, n).boxed().toList());
        Collections.shuffle(l, random);
        return l;
    }
}
