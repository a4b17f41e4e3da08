package io.railmap.matrix.model;

import java.util.List;
import java.util.Optional;

/**
 * One end of a cable: a port on one node, and the far ends it observed.
 *
 * @param node       the node this port is on
 * @param netdev     the netdev name ({@code en6}, {@code enp1s0f1np1}, a veth name); unique on its node
 * @param rdma       the RDMA device name exactly as {@code ibv_devices} prints it ({@code rdma_en6},
 *                   {@code mlx5_0}); empty for a port without RDMA
 * @param rdmaPort   the RDMA port number (1-based, as in sysfs {@code ports/<n>}); 1 when there is no RDMA
 * @param kind       what kind of link the port drives
 * @param rateGbps   the link rate in Gb/s (sysfs {@code rate}, Thunderbolt link speed); empty when unknown
 * @param state      the logical port state
 * @param thunderbolt Thunderbolt bus facts, for Thunderbolt ports discovered on macOS; else empty
 * @param neighbours the far ends this port observed (by link probe); one for a cable, several for a
 *                   shared segment, none when nothing was heard. Sorted and distinct.
 */
public record Port(
        String node,
        String netdev,
        Optional<String> rdma,
        int rdmaPort,
        PortKind kind,
        Optional<Double> rateGbps,
        PortState state,
        Optional<Thunderbolt> thunderbolt,
        List<PortRef> neighbours) {

    /**
     * Validates names and numbers, and sorts and de-duplicates the neighbours.
     *
     * @throws IllegalArgumentException when a name is empty or holds whitespace, the RDMA port is
     *                                  below 1, the rate is not a finite number ≥ 0, or a neighbour is
     *                                  this port itself
     * @throws NullPointerException     when a component is null
     */
    public Port {
        Names.node("node", node);
        Names.plain("netdev", netdev);
        rdma.ifPresent(r -> Names.plain("RDMA device", r));
        if (rdmaPort < 1) {
            throw new IllegalArgumentException("port " + node + ":" + netdev + ": RDMA port " + rdmaPort + " is below 1");
        }
        java.util.Objects.requireNonNull(kind, "kind");
        java.util.Objects.requireNonNull(state, "state");
        java.util.Objects.requireNonNull(thunderbolt, "thunderbolt");
        rateGbps.ifPresent(r -> Rates.requireRate("port " + node + ":" + netdev + " rate", r));
        neighbours = neighbours.stream().distinct().sorted().toList();
        PortRef self = new PortRef(node, netdev);
        if (neighbours.contains(self)) {
            throw new IllegalArgumentException("port " + self + " lists itself as a neighbour");
        }
    }

    /** @return this port's identity, {@code node:netdev} */
    public PortRef ref() {
        return new PortRef(node, netdev);
    }

    /** @return true when the port is {@link PortState#ACTIVE} */
    public boolean active() {
        return state == PortState.ACTIVE;
    }

    /**
     * @param newNeighbours the far ends now observed
     * @return a copy of this port with those neighbours
     */
    public Port withNeighbours(List<PortRef> newNeighbours) {
        return new Port(node, netdev, rdma, rdmaPort, kind, rateGbps, state, thunderbolt, newNeighbours);
    }

    /**
     * @param newState the new state
     * @return a copy of this port in that state
     */
    public Port withState(PortState newState) {
        return new Port(node, netdev, rdma, rdmaPort, kind, rateGbps, newState, thunderbolt, neighbours);
    }
}
