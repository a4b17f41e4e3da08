package io.railmap.matrix.library;

import static org.assertj.core.api.Assertions.assertThat;

import io.railmap.matrix.SentencePorts;
import io.railmap.matrix.check.Finding;
import io.railmap.matrix.fabric.RailTable;
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
 * <p><b>The property.</b> For every two nodes A, B (A connecting, B listening) and every position
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
        Fabric fabric = random.nextBoolean() ? switched(random, addressing) : direct(random, addressing);
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
                if (a.equals(b)) {
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

    /** Several nodes, NIC k of each on leaf k, but a few NICs moved: swapped with another NIC, or put on a random leaf. */
    private static Fabric switched(Random random, Addressing addressing) {
        int nodes = 2 + random.nextInt(4), nics = 1 + random.nextInt(4);
        List<NodeRecord> records = new ArrayList<>();
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
            List<Port> ports = new ArrayList<>();
            for (int k = 0; k < nics; k++) {
                String sw = "leaf" + leaf[k];
                int subnet = addressing == Addressing.BY_RAIL ? leaf[k] : addressing == Addressing.BY_NIC_NAME ? k : 0;
                String ip = "10." + subnet + ".0." + (n * 8 + k + 1);
                Optional<SwitchPort> at = Optional.of(addressing == Addressing.INFINIBAND
                        ? new SwitchPort(FarEndSource.INFINIBAND, "0x0002c90300000" + leaf[k], Optional.of(sw), Integer.toString(n + 1))
                        : new SwitchPort(FarEndSource.LLDP, "52:54:00:00:00:0" + leaf[k], Optional.of(sw), "p" + (n + 1)));
                ports.add(nic(node, k, addressing, ip, at, List.of()));
                reach.put(new PortRef(node, "eth" + k), sw);
            }
            records.add(new NodeRecord(node, 1, ports, Optional.empty(), Optional.empty()));
        }
        return new Fabric(records, reach, clean);
    }

    /** Two nodes and 1 to 4 cables between them, each from a random NIC to a random NIC. */
    private static Fabric direct(Random random, Addressing addressing) {
        int cables = 1 + random.nextInt(4);
        List<Integer> aSide = shuffled(random, cables), bSide = shuffled(random, cables);
        List<Port> a = new ArrayList<>(), b = new ArrayList<>();
        Map<PortRef, String> reach = new HashMap<>();
        for (int c = 0; c < cables; c++) {
            int ka = aSide.get(c), kb = bSide.get(c);
            String ipA, ipB;
            switch (addressing) {
                case BY_RAIL -> {
                    ipA = "10." + c + ".0.1";
                    ipB = "10." + c + ".0.2";
                }
                case BY_NIC_NAME -> {
                    ipA = "10." + ka + ".0.1";
                    ipB = "10." + kb + ".0.2";
                }
                default -> {
                    ipA = "10.0.0." + (1 + ka);
                    ipB = "10.0.0." + (11 + kb);
                }
            }
            a.add(nic("a", ka, addressing, ipA, Optional.empty(), List.of(new PortRef("b", "eth" + kb))));
            b.add(nic("b", kb, addressing, ipB, Optional.empty(), List.of(new PortRef("a", "eth" + ka))));
            reach.put(new PortRef("a", "eth" + ka), "cable " + c);
            reach.put(new PortRef("b", "eth" + kb), "cable " + c);
        }
        return new Fabric(List.of(new NodeRecord("a", 1, a, Optional.empty(), Optional.empty()),
                new NodeRecord("b", 1, b, Optional.empty(), Optional.empty())), reach, aSide.equals(bSide));
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
