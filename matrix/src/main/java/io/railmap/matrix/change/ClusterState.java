package io.railmap.matrix.change;

import io.railmap.matrix.check.CableFindings;
import io.railmap.matrix.fabric.RailTable;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.model.Snapshot;
import io.railmap.matrix.provenance.Provenance;
import io.railmap.matrix.provenance.RecordId;
import io.railmap.matrix.topology.Cable;
import io.railmap.matrix.topology.Topology;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The facts events are computed from, at one moment.
 *
 * @param cables   the confirmed cables whose two ports are active (a cable whose link is down carries nothing)
 * @param ports    every port of every record, and whether it is active
 * @param records  each node's record id, by node
 * @param findings the rank-free findings about cables and ports, then the rail table's ({@link CableFindings#of})
 * @param members  the nodes of the cluster view (empty without a cluster)
 * @param agreed   whether every member holds this daemon's records, and their digest; empty without a cluster
 */
public record ClusterState(Set<Cable> cables, Map<PortRef, Boolean> ports, Map<String, RecordId> records, Set<Finding> findings,
                           Set<String> members, Optional<Agreed> agreed) {
    /** Before anything is known: every first fact is a change. */
    public static final ClusterState EMPTY = new ClusterState(Set.of(), Map.of(), Map.of(), Set.of(), Set.of(), Optional.empty());

    /**
     * @param agreed true when every member holds the same records
     * @param digest the digest of this daemon's records ({@code sha256:…})
     */
    public record Agreed(boolean agreed, String digest) {
    }

    /** Copies, keeping a stable order. */
    public ClusterState {
        cables = new TreeSet<>(cables);
        ports = new TreeMap<>(ports);
        records = new TreeMap<>(records);
        findings = new LinkedHashSet<>(findings);
        members = new TreeSet<>(members);
    }

    /**
     * @param snapshot every record known
     * @param members  the nodes of the cluster view
     * @param agreed   the agreement, when there is a cluster
     * @return the state; costs {@link Topology#of}, {@link RailTable#of} and {@link CableFindings#of}, all
     *         linear in the records' size
     */
    public static ClusterState of(Snapshot snapshot, Set<String> members, Optional<Agreed> agreed) {
        Topology topology = Topology.of(snapshot);
        Map<PortRef, Boolean> ports = new TreeMap<>();
        Map<String, RecordId> records = new TreeMap<>();
        for (NodeRecord record : snapshot.records()) {
            records.put(record.node(), Provenance.id(record));
            for (Port port : record.ports()) {
                ports.put(port.ref(), port.active());
            }
        }
        List<Finding> findings = CableFindings.of(topology, RailTable.of(topology));
        Set<Cable> cables = new TreeSet<>();
        for (Cable cable : topology.cables()) {
            if (ports.getOrDefault(cable.a(), false) && ports.getOrDefault(cable.b(), false)) {
                cables.add(cable);
            }
        }
        return new ClusterState(cables, ports, records, new LinkedHashSet<>(findings), members, agreed);
    }
}
