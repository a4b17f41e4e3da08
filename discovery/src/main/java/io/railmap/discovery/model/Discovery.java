package io.railmap.discovery.model;

import io.railmap.matrix.model.Names;
import io.railmap.matrix.model.NaturalOrder;
import io.railmap.matrix.model.Port;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What one run of a {@link PortSource} found on one node.
 *
 * @param node    the node name
 * @param ports   the ports found, sorted by netdev (digits compared as numbers); no two share a
 *                netdev, or an RDMA device and port number
 * @param skipped the ports seen but not reported, in the order they were met
 * @param notes   what was read but not used, one sentence each, in the order met: a field of a
 *                reported port dropped to unknown ({@code port mlx5_0/1: rate unknown: <file>: ...}),
 *                or a source that was partly unusable and what was done instead. Values read are
 *                shown with {@link Quote}.
 * @param rdmaEnabled whether RDMA over Thunderbolt is turned on (macOS {@code rdma_ctl status});
 *                empty on Linux and when the command gives no usable answer
 */
public record Discovery(String node, List<LocalPort> ports, List<SkippedPort> skipped, List<String> notes,
                        Optional<Boolean> rdmaEnabled) {

    /**
     * Sorts the ports and copies the lists.
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
            for (String key : keys(port)) {
                String before = owners.put(key, label(port));
                if (before != null) {
                    throw new IllegalArgumentException("discovery on node " + node + ": " + key + " belongs to both "
                            + before + " and " + label(port));
                }
            }
        }
        ports = ports.stream()
                .sorted((a, b) -> NaturalOrder.INSTANCE.compare(a.port().netdev(), b.port().netdev()))
                .toList();
        skipped = List.copyOf(skipped);
        notes = List.copyOf(notes);
        Objects.requireNonNull(rdmaEnabled, "rdmaEnabled");
    }

    /**
     * @param node the node name
     * @return an empty builder for that node
     */
    public static Builder builder(String node) {
        return new Builder(node);
    }

    /** The identities a port claims on its node: its netdev and, with RDMA, its device and port number. */
    private static List<String> keys(Port port) {
        List<String> keys = new ArrayList<>(2);
        keys.add("netdev " + Quote.value(port.netdev()));
        port.rdma().ifPresent(r -> keys.add("RDMA port " + Quote.value(r) + "/" + port.rdmaPort()));
        return keys;
    }

    /** @return how a port is named in a skip: {@code mlx5_0/1} with RDMA, else its netdev */
    private static String label(Port port) {
        return Names.escape(port.rdma().map(r -> r + "/" + port.rdmaPort()).orElse(port.netdev()), Quote.VALUE_CHARS);
    }

    /**
     * Collects one run's ports, skips and notes. Logs nothing: the caller reports what changed
     * between runs (the daemon's link watcher logs each skip once). Not thread-safe: one builder per
     * run.
     */
    public static final class Builder {
        private final String node;
        private final List<LocalPort> ports = new ArrayList<>();
        private final List<SkippedPort> skipped = new ArrayList<>();
        private final List<String> notes = new ArrayList<>();
        private Optional<Boolean> rdmaEnabled = Optional.empty();

        private Builder(String node) {
            this.node = Names.node("node", node);
        }

        /**
         * Adds a port. Two ports that claim one netdev, or one RDMA device and port number, are both
         * skipped when the discovery is {@linkplain #build() built}, each with a reason naming the
         * other: neither is more likely to be right.
         *
         * @param port  a port of this builder's node
         * @param notes the fields of this port dropped to unknown, each as {@code "<field> unknown: <reason>"}
         * @throws IllegalArgumentException when the port is on another node
         */
        public void add(LocalPort port, List<String> notes) {
            if (!port.port().node().equals(node)) {
                throw new IllegalArgumentException("discovery on node " + node + " given port " + port.port().ref());
            }
            ports.add(port);
            notes.forEach(n -> this.notes.add("port " + label(port.port()) + ": " + n));
        }

        /**
         * Records a port that could not be discovered.
         *
         * @param port   the port as its source names it (shown escaped)
         * @param reason why, naming the file or command, the field and what was wrong
         */
        public void skip(String port, String reason) {
            skipped.add(new SkippedPort(Names.escape(port, Quote.VALUE_CHARS), reason));
        }

        /**
         * Records a port left out because the operator's interface selection excludes it.
         *
         * @param port   the port as its source names it (shown escaped)
         * @param reason which selection entry excludes it
         */
        public void exclude(String port, String reason) {
            skip(port, reason);
        }

        /**
         * Records something read but not used that concerns no single port (a source partly
         * unusable, and what was done instead).
         *
         * @param note one sentence naming the file or command
         */
        public void note(String note) {
            notes.add(note);
        }

        /**
         * Records whether RDMA over Thunderbolt is turned on.
         *
         * @param enabled what {@code rdma_ctl status} said
         */
        public void rdmaEnabled(boolean enabled) {
            rdmaEnabled = Optional.of(enabled);
        }

        /** @return what was collected; ports that clash on a netdev or RDMA port are skipped */
        public Discovery build() {
            Map<String, List<LocalPort>> claims = new LinkedHashMap<>();
            for (LocalPort port : ports) {
                keys(port.port()).forEach(k -> claims.computeIfAbsent(k, x -> new ArrayList<>()).add(port));
            }
            List<LocalPort> kept = new ArrayList<>();
            List<SkippedPort> clashes = new ArrayList<>();
            for (LocalPort port : ports) {
                List<String> reasons = new ArrayList<>();
                for (String key : keys(port.port())) {
                    List<String> others = claims.get(key).stream().filter(p -> p != port).map(p -> label(p.port())).toList();
                    if (!others.isEmpty()) {
                        reasons.add(key + " is also claimed by " + String.join(", ", others));
                    }
                }
                if (reasons.isEmpty()) {
                    kept.add(port);
                } else {
                    clashes.add(new SkippedPort(label(port.port()), String.join("; ", reasons)
                            + ": neither is reported"));
                }
            }
            List<SkippedPort> all = new ArrayList<>(skipped);
            all.addAll(clashes);
            return new Discovery(node, kept, all, notes, rdmaEnabled);
        }
    }
}
