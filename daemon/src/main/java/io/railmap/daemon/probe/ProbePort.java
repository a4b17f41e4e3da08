package io.railmap.daemon.probe;

import io.railmap.matrix.model.Names;
import io.railmap.matrix.model.Port;
import java.util.Objects;
import java.util.Optional;

/**
 * A port the probe should send hellos on and listen to.
 *
 * @param netdev the netdev name ({@code en6}, {@code enp1s0f1np1})
 * @param rdma   its RDMA device, advertised in hellos; empty when it has none
 */
public record ProbePort(String netdev, Optional<String> rdma) {
    /**
     * @throws IllegalArgumentException when a name is empty or holds whitespace
     * @throws NullPointerException     when {@code rdma} is null
     */
    public ProbePort {
        Names.plain("netdev", netdev);
        Objects.requireNonNull(rdma, "rdma").ifPresent(r -> Names.plain("RDMA device", r));
    }

    /** @return a port without RDMA device */
    public static ProbePort of(String netdev) {
        return new ProbePort(netdev, Optional.empty());
    }

    /** @return the probe's view of a discovered port: its netdev and RDMA device */
    public static ProbePort of(Port port) {
        return new ProbePort(port.netdev(), port.rdma());
    }
}
