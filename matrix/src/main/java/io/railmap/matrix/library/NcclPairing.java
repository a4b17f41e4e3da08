package io.railmap.matrix.library;

import io.railmap.matrix.fabric.Rail;
import io.railmap.matrix.fabric.RailNic;
import io.railmap.matrix.model.NaturalOrder;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.PortRef;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The NICs NCCL pairs between one node and the other nodes of its fabric, and which pairs join two
 * rails.
 *
 * <p>NCCL's rule, read in NVIDIA/nccl (2.30.x):
 * <ul>
 * <li>Every node numbers its NICs in {@code ibv_get_device_list} order
 *     ({@code src/transport/net_ib/init.cc}, {@code ncclIbInitDevices}; on nodes built alike the HCA
 *     names' order, the order of {@link NodeNics#nics()}).</li>
 * <li>Each node searches its own rings and trees ({@code src/graph/search.cc},
 *     {@code ncclTopoCompute}); with {@code NCCL_CROSS_NIC=0} the rail id only decides which local
 *     NIC a channel may leave by ({@code ncclTopoSearchCheckNet}). The nodes being assumed identical,
 *     channel c joins the NIC at position i of one node to the NIC at position i of the next
 *     ({@code ncclTopoGetNetDev}).</li>
 * <li>With {@code NCCL_IB_SUBNET_AWARE_ROUTING=1} ({@code src/transport/net_ib/connect.cc}) the
 *     connector, then the acceptor, keep their NIC when its RoCE v2 GID shares the peer's /24, else
 *     take their first NIC that does ({@code ncclIbFindDevBySubnet}, from {@code ncclIbConnectImpl}
 *     and {@code ncclIbAcceptImpl}); InfiniBand ports are left as they are.</li>
 * </ul>
 *
 * <p>What a NIC reaches: its switched rail, the switch only its node reaches, or its direct cable;
 * two NICs are joined when they reach the same. Cost per node: O(nodes × NICs) for the positions,
 * plus O(NICs²) per pair that joins two rails.
 */
final class NcclPairing {
    /**
     * A pair NCCL makes by position whose NICs reach two different things.
     *
     * @param position    the NICs' position on their nodes, from 0
     * @param local       the node's NIC
     * @param localReach  what it reaches ({@code rail 0 (leaf0)}, {@code cable a:eth0–b:eth1})
     * @param peer        the peer node's compute NICs
     * @param remote      the peer's NIC at that position
     * @param remoteReach what that reaches
     */
    record Crossed(int position, ComputeNic local, String localReach, NodeNics peer, ComputeNic remote, String remoteReach) {
    }

    private final NodeNics node;
    private final Map<PortRef, String> switched = new HashMap<>();

    NcclPairing(NodeNics node) {
        this.node = node;
        for (Rail rail : node.rails().rails()) {
            rail.nics().forEach(n -> switched.put(n.port(), "rail " + rail.id() + " (" + rail.name() + ")"));
        }
        node.rails().strays().forEach((nic, name) -> switched.put(nic.port(), name + ", which no other node reaches"));
    }

    /** @return what the port reaches, empty when nothing is known at its far end */
    Optional<String> reach(Port port) {
        String on = switched.get(port.ref());
        return on != null ? Optional.of(on) : node.topology().cableAt(port.ref()).map(c -> "cable " + c);
    }

    /** @return the ports {@link #reach} names, in its order: a cable's two ends, else none */
    List<PortRef> reachPorts(Port port) {
        return switched.containsKey(port.ref()) ? List.of()
                : node.topology().cableAt(port.ref()).map(c -> List.of(c.a(), c.b())).orElse(List.of());
    }

    /** @return the nodes NCCL may pair the node with: every node of its switched fabric and of its direct cables, in natural order */
    Set<String> peers() {
        Set<String> peers = new TreeSet<>(NaturalOrder.INSTANCE);
        boolean onFabric = node.nics().stream().anyMatch(n -> switched.containsKey(n.port().ref()));
        if (onFabric) {
            switched.keySet().forEach(p -> peers.add(p.node()));
        }
        for (ComputeNic nic : node.nics()) {
            node.topology().cableAt(nic.port().ref()).ifPresent(c -> peers.add(c.farEnd(nic.port().ref()).node()));
        }
        peers.remove(node.node());
        return peers;
    }

    /** @return every pair by position between the node and a peer whose NICs reach two different things */
    List<Crossed> crossed() {
        List<Crossed> out = new ArrayList<>();
        for (String p : peers()) {
            NodeNics peer = ComputeNics.of(node.topology(), node.rails(), p, node.options());
            for (int i = 0; i < Math.min(node.nics().size(), peer.nics().size()); i++) {
                ComputeNic x = node.nics().get(i), y = peer.nics().get(i);
                Optional<String> rx = reach(x.port()), ry = reach(y.port());
                if (rx.isPresent() && ry.isPresent() && !rx.get().equals(ry.get())) {
                    out.add(new Crossed(i, x, rx.get(), peer, y, ry.get()));
                }
            }
        }
        return out;
    }

    /**
     * @param crossed    a pair
     * @param localAware whether the node sets {@code NCCL_IB_SUBNET_AWARE_ROUTING=1}
     * @param peerAware  whether the peer does
     * @return true when, both ways (either node connecting), the NICs NCCL ends on reach the same thing
     */
    boolean routedBySubnet(Crossed crossed, boolean localAware, boolean peerAware) {
        ComputeNic x = crossed.local(), y = crossed.remote();
        return joined(connect(node.nics(), localAware, x, crossed.peer().nics(), peerAware, y))
                && joined(connect(crossed.peer().nics(), peerAware, y, node.nics(), localAware, x));
    }

    /** @return the connector's and the acceptor's NIC after ncclIbConnectImpl and ncclIbAcceptImpl */
    private static List<ComputeNic> connect(List<ComputeNic> connectorNics, boolean connectorAware, ComputeNic connector,
                                            List<ComputeNic> acceptorNics, boolean acceptorAware, ComputeNic acceptor) {
        ComputeNic c = connectorAware ? bySubnet(connectorNics, acceptor, connector) : connector;
        ComputeNic a = acceptorAware ? bySubnet(acceptorNics, c, acceptor) : acceptor;
        return List.of(c, a);
    }

    private boolean joined(List<ComputeNic> pair) {
        Optional<String> a = reach(pair.get(0).port());
        return a.isPresent() && a.equals(reach(pair.get(1).port()));
    }

    /** ncclIbFindDevBySubnet: the default NIC when it shares the peer's /24, else the first that does, else the default. */
    private static ComputeNic bySubnet(List<ComputeNic> local, ComputeNic peer, ComputeNic byDefault) {
        if (!roce(peer)) {
            return byDefault;
        }
        if (roce(byDefault) && NcclLibrary.shareSubnet(byDefault.port(), peer.port())) {
            return byDefault;
        }
        return local.stream().filter(n -> roce(n) && NcclLibrary.shareSubnet(n.port(), peer.port())).findFirst().orElse(byDefault);
    }

    /** @return true when the port is RoCE with an IPv4 address, so its RoCE v2 GID is IPv4-mapped */
    private static boolean roce(ComputeNic nic) {
        return nic.port().kind() == PortKind.ROCE && !nic.port().ipv4().isEmpty();
    }

    /** @return true when the NIC is on the rail where the same-named NIC of most nodes is */
    boolean atHome(ComputeNic nic) {
        Optional<Rail> home = node.rails().homeOf(nic.port());
        return home.isPresent() && home.get().nics().stream().map(RailNic::port).anyMatch(nic.port().ref()::equals);
    }
}
