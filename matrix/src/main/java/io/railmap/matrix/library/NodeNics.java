package io.railmap.matrix.library;

import io.railmap.matrix.fabric.RailTable;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.topology.Topology;
import java.util.List;
import java.util.Optional;

/**
 * What one node has, for the libraries: made by {@link ComputeNics#of}.
 *
 * @param topology   every record and cable
 * @param rails      the rail table of the switched fabric
 * @param node       the node
 * @param nics       its compute NICs, by HCA name in natural order
 * @param management the port carrying the node's management address, when its record says
 * @param options    what the user chose
 * @param findings   about the choice of NICs (slower NICs left out, none left)
 */
public record NodeNics(Topology topology, RailTable rails, String node, List<ComputeNic> nics, Optional<Port> management,
                       SettingsOptions options, List<Finding> findings) {
    /** Copies the lists. */
    public NodeNics {
        nics = List.copyOf(nics);
        findings = List.copyOf(findings);
    }

    /**
     * What one of the node's ports reaches, for a message.
     *
     * @param port a port of the node
     * @return {@code rail 0 (leaf0)} when the port is on a rail of {@link #rails}, else {@code cable a:en1–b:en2}
     *         when a direct cable of {@link #topology} ends at it, else empty
     */
    public Optional<String> reach(PortRef port) {
        return rails.railOf(port).map(r -> "rail " + r.id() + " (" + r.name() + ")")
                .or(() -> topology.cableAt(port).map(c -> "cable " + c));
    }
}
