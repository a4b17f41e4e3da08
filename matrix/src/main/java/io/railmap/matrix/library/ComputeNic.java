package io.railmap.matrix.library;

import io.railmap.matrix.model.Port;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A compute NIC of a node, as the libraries name it.
 *
 * @param port the port (active, with an RDMA device, not the management interface)
 * @param rail the rail id it is on: its switched rail ({@link io.railmap.matrix.fabric.RailTable}),
 *             else the rail of its direct cable, numbered after the switched rails
 *             ({@link ComputeNics}); empty when it has none
 */
public record ComputeNic(Port port, Optional<Integer> rail) {
    /** @throws NullPointerException when a component is null; IllegalArgumentException when the port has no RDMA device */
    public ComputeNic {
        Objects.requireNonNull(port, "port");
        Objects.requireNonNull(rail, "rail");
        if (port.rdma().isEmpty()) {
            throw new IllegalArgumentException("port " + port.ref() + " has no RDMA device: not a compute NIC");
        }
    }

    /** @return the RDMA device name ({@code mlx5_0}), as {@code ibv_devices} prints it */
    public String hca() {
        return port.rdma().orElseThrow();
    }

    /** @return {@code hca:port} ({@code mlx5_0:1}), the form NCCL and UCX take */
    public String hcaPort() {
        return hca() + ":" + port.rdmaPort();
    }

    /**
     * @param nics NICs in the order to list them
     * @return {@code a,b,c} of each NIC's {@link #hcaPort()} ({@code mlx5_0:1,mlx5_1:1}); empty for no NIC
     */
    public static String hcaPorts(List<ComputeNic> nics) {
        return String.join(",", nics.stream().map(ComputeNic::hcaPort).toList());
    }

    /**
     * @return the index of its RoCE v2 GID with an IPv4-mapped address ({@link Port#gidIndex()}), what
     *         NCCL_IB_GID_INDEX and UCX_IB_GID_INDEX take; empty on InfiniBand or when not known
     */
    public Optional<Integer> gidIndex() {
        return port.gidIndex();
    }

    /** @return the netdev name ({@code enp65s0f0np0}) */
    public String netdev() {
        return port.netdev();
    }
}
