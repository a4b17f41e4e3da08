package io.railmap.matrix.fabric;

import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortRef;
import java.util.Objects;
import java.util.Optional;

/**
 * A compute NIC on a rail.
 *
 * @param port       the NIC's port, {@code node:netdev}
 * @param hca        the HCA as NCCL and {@code ibv_devices} name it: the RDMA device, with
 *                   {@code /N} when its RDMA port is not 1 ({@code mlx5_0}, {@code mlx5_1/2})
 * @param rateGbps   the link rate in Gb/s, when known
 * @param switchPort the port of the switch the NIC's cable ends on, when the switch says (LLDP port
 *                   ID, InfiniBand port number); empty when the NIC was placed by the probe only
 * @param placedBy   what put it on this rail: {@code lldp}, {@code infiniband}, or {@code probe}
 *                   (the link probe heard it on the rail's segment)
 */
public record RailNic(PortRef port, String hca, Optional<Double> rateGbps, Optional<String> switchPort, String placedBy) {
    /** @throws NullPointerException when a component is null */
    public RailNic {
        Objects.requireNonNull(port, "port");
        Objects.requireNonNull(hca, "hca");
        Objects.requireNonNull(rateGbps, "rateGbps");
        Objects.requireNonNull(switchPort, "switchPort");
        Objects.requireNonNull(placedBy, "placedBy");
    }

    /**
     * @param port an RDMA-capable port
     * @return its HCA name as above
     * @throws java.util.NoSuchElementException when the port has no RDMA device
     */
    static String hcaOf(Port port) {
        return port.rdma().orElseThrow() + (port.rdmaPort() == 1 ? "" : "/" + port.rdmaPort());
    }

    /** @return the node the NIC is on */
    public String node() {
        return port.node();
    }
}
