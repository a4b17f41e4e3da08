package io.railmap.matrix.model;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One node's report: its ports and the far ends each port observed. The node that owns the record
 * raises {@code version} on every change, so that of two records for one node the higher version is
 * the newer.
 *
 * @param node    the node name
 * @param version grows on every change; at least 0
 * @param ports   the node's ports, sorted by netdev name (digits compared as numbers)
 */
public record NodeRecord(String node, long version, List<Port> ports) {

    /**
     * @throws IllegalArgumentException when the node name is bad, the version is negative, a port
     *                                  belongs to another node, or two ports share a netdev name or an
     *                                  RDMA device and port number
     */
    public NodeRecord {
        Names.node("node", node);
        if (version < 0) {
            throw new IllegalArgumentException("record of node " + node + ": version " + version + " is negative");
        }
        Set<String> netdevs = new HashSet<>();
        Set<String> hcaPorts = new HashSet<>();
        for (Port port : ports) {
            if (!port.node().equals(node)) {
                throw new IllegalArgumentException("record of node " + node + " holds port " + port.ref()
                        + " of another node");
            }
            if (!netdevs.add(port.netdev())) {
                throw new IllegalArgumentException("record of node " + node + " lists netdev " + port.netdev() + " twice");
            }
            if (port.rdma().isPresent() && !hcaPorts.add(port.rdma().get() + "/" + port.rdmaPort())) {
                throw new IllegalArgumentException("record of node " + node + " lists RDMA port "
                        + port.rdma().get() + "/" + port.rdmaPort() + " twice");
            }
        }
        ports = ports.stream().sorted((a, b) -> NaturalOrder.INSTANCE.compare(a.netdev(), b.netdev())).toList();
    }

    /**
     * @param netdev a netdev name
     * @return the port with that name, if any
     */
    public java.util.Optional<Port> port(String netdev) {
        return ports.stream().filter(p -> p.netdev().equals(netdev)).findFirst();
    }
}
