package io.railmap.daemon.discovery;

import io.railmap.matrix.model.Names;
import io.railmap.matrix.model.NaturalOrder;
import io.railmap.matrix.model.Port;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What one run of a {@link PortSource} found on one node.
 *
 * @param node    the node name
 * @param ports   the ports found, sorted by netdev (digits compared as numbers); no two share a
 *                netdev, or an RDMA device and port number
 * @param skipped the ports seen but not reported, in the order they were met
 */
public record Discovery(String node, List<LocalPort> ports, List<SkippedPort> skipped) {

    /**
     * Sorts the ports and copies both lists.
     *
     * @throws IllegalArgumentException when the node name is bad, a port is on another node, or two
     *                                  ports share a netdev or an RDMA device and port number
     */
    public Discovery {
        Names.node("node", node);
        Map<String, String> owners = new HashMap<>();
        for (LocalPort local : ports) {
            Port port = local.port();
            if (!port.node().equals(node)) {
                throw new IllegalArgumentException("discovery on node " + node + " holds port " + port.ref());
            }
            String clash = claim(owners, port);
            if (clash != null) {
                throw new IllegalArgumentException("discovery on node " + node + ": " + clash);
            }
        }
        ports = ports.stream()
                .sorted((a, b) -> NaturalOrder.INSTANCE.compare(a.port().netdev(), b.port().netdev()))
                .toList();
        skipped = List.copyOf(skipped);
    }

    /**
     * @param node the node name
     * @return an empty builder for that node
     */
    public static Builder builder(String node) {
        return new Builder(node);
    }

    /** Records each key of the port; returns a sentence when one is already taken, else null. */
    private static String claim(Map<String, String> owners, Port port) {
        String self = port.rdma().map(r -> port.netdev() + " (" + r + "/" + port.rdmaPort() + ")").orElse(port.netdev());
        String netdevKey = "netdev " + port.netdev();
        if (owners.containsKey(netdevKey)) {
            return netdevKey + " already belongs to " + owners.get(netdevKey);
        }
        String hcaKey = port.rdma().map(r -> "RDMA port " + r + "/" + port.rdmaPort()).orElse(null);
        if (hcaKey != null && owners.containsKey(hcaKey)) {
            return hcaKey + " already belongs to " + owners.get(hcaKey);
        }
        owners.put(netdevKey, self);
        if (hcaKey != null) {
            owners.put(hcaKey, self);
        }
        return null;
    }

    /**
     * Collects one run's ports and skips, logging one line per skipped port. Not thread-safe: one
     * builder per run.
     */
    public static final class Builder {
        private static final Logger LOG = System.getLogger(Discovery.class.getName());
        private final String node;
        private final List<LocalPort> ports = new ArrayList<>();
        private final List<SkippedPort> skipped = new ArrayList<>();
        private final Map<String, String> owners = new HashMap<>();

        private Builder(String node) {
            this.node = Names.node("node", node);
        }

        /**
         * Adds a port, or skips it when an earlier port already has its netdev or its RDMA device
         * and port number (the first one keeps them).
         *
         * @param port a port of this builder's node
         * @throws IllegalArgumentException when the port is on another node
         */
        public void add(LocalPort port) {
            if (!port.port().node().equals(node)) {
                throw new IllegalArgumentException("discovery on node " + node + " given port " + port.port().ref());
            }
            String clash = claim(owners, port.port());
            if (clash != null) {
                skip(port.port().rdma().map(r -> r + "/" + port.port().rdmaPort()).orElse(port.port().netdev()), clash);
            } else {
                ports.add(port);
            }
        }

        /**
         * Records a port that could not be discovered and logs it as a warning.
         *
         * @param port   the port as its source names it
         * @param reason why
         */
        public void skip(String port, String reason) {
            record(Level.WARNING, port, reason);
        }

        /**
         * Records a port left out because the operator's interface selection excludes it, and logs
         * it at INFO.
         *
         * @param port   the port as its source names it
         * @param reason which selection entry excludes it
         */
        public void exclude(String port, String reason) {
            record(Level.INFO, port, reason);
        }

        private void record(Level level, String port, String reason) {
            SkippedPort skip = new SkippedPort(port, reason);
            skipped.add(skip);
            LOG.log(level, "node {0}: skipped port {1}: {2}", node, skip.port(), skip.reason());
        }

        /** @return what was collected */
        public Discovery build() {
            return new Discovery(node, ports, skipped);
        }
    }
}
