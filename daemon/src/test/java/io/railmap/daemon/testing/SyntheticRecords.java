package io.railmap.daemon.testing;

import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.model.PortState;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Made-up records of a ring of nodes, shaped like a real cluster's: node {@code s0042} has four
 * active 400 Gb/s RoCE ports with RDMA devices and addresses; {@code en1} and {@code en2} are cabled
 * to {@code en3} and {@code en4} of the next node, so every ring edge has two cables, each heard by
 * both its ends (confirmed). About 2 kB of record message each.
 */
public final class SyntheticRecords {
    private SyntheticRecords() {
    }

    /** @return the name of synthetic node i */
    public static String node(int i) {
        return String.format(Locale.ROOT, "s%04d", i);
    }

    /**
     * @param count   how many nodes (at least 3, at most 10,000)
     * @param version the version every record carries
     * @return one record per node, {@code s0000} first
     */
    public static List<NodeRecord> ring(int count, long version) {
        if (count < 3 || count > 10_000) {
            throw new IllegalArgumentException("a synthetic ring has 3 to 10000 nodes, not " + count);
        }
        List<NodeRecord> records = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String next = node((i + 1) % count);
            String previous = node((i + count - 1) % count);
            List<Port> ports = List.of(
                    port(i, 1, new PortRef(next, "en3")),
                    port(i, 2, new PortRef(next, "en4")),
                    port(i, 3, new PortRef(previous, "en1")),
                    port(i, 4, new PortRef(previous, "en2")));
            records.add(new NodeRecord(node(i), version, ports, Optional.of(String.format(Locale.ROOT, "10.%d.%d.1", i / 256, i % 256)),
                    Optional.empty()));
        }
        return records;
    }

    private static Port port(int i, int n, PortRef far) {
        String netdev = "en" + n;
        List<String> addresses = List.of(String.format(Locale.ROOT, "169.254.%d.%d", i % 250, n), String.format(Locale.ROOT,
                "fe80::%x:%x", i, n));
        return new Port(node(i), netdev, Optional.of("mlx5_" + (n - 1)), 1, PortKind.ROCE, Optional.of(400.0), PortState.ACTIVE,
                Optional.empty(), addresses, true, Optional.empty(), List.of(far));
    }
}
