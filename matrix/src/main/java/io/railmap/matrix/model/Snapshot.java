package io.railmap.matrix.model;

import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Every node record known at one moment. JSON: {@code {"format": "railmap-snapshot", "version": 2,
 * "records": [...]}} (see {@link io.railmap.matrix.codec.SnapshotCodec}).
 *
 * @param records one record per node, sorted by node name (digits compared as numbers)
 */
public record Snapshot(List<NodeRecord> records) {
    /** The value of the {@code format} field. */
    public static final String FORMAT = "railmap-snapshot";
    /**
     * The snapshot format version this code writes. Version 2 added each port's {@code addresses}
     * and {@code bridge} and each record's {@code management}, {@code rdmaEnabled} and
     * {@code incarnation} (the last before any release wrote version 2, so it may be absent).
     * Version 3 added each port's {@code switchPort} (the switch at the far end, from LLDP or the
     * InfiniBand fabric). Version 4 added each port's {@code infiniband} (its HCA node GUID and the
     * HCA port at the far end of a back-to-back cable). Version 7 added each record's {@code ranks}
     * (the ranks of collective jobs running on the node, docs/jobs.md).
     */
    public static final int FORMAT_VERSION = 7;
    /** The oldest version this code still reads (its records have none of version 2's fields). */
    public static final int OLDEST_FORMAT_VERSION = 1;

    /** @throws IllegalArgumentException when two records are for the same node */
    public Snapshot {
        Set<String> nodes = new HashSet<>();
        for (NodeRecord record : records) {
            if (!nodes.add(record.node())) {
                throw new IllegalArgumentException("snapshot holds two records for node " + record.node());
            }
        }
        records = records.stream().sorted((a, b) -> NaturalOrder.INSTANCE.compare(a.node(), b.node())).toList();
    }

    /**
     * @param node a node name
     * @return that node's record, if the snapshot holds one
     */
    public Optional<NodeRecord> record(String node) {
        return records.stream().filter(r -> r.node().equals(node)).findFirst();
    }

    /** @return the node names, in record order */
    public List<String> nodes() {
        return records.stream().map(NodeRecord::node).toList();
    }
}
