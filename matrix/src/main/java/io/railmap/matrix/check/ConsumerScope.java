package io.railmap.matrix.check;

import io.railmap.matrix.fabric.RailTable;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.finding.Consumer;
import io.railmap.matrix.topology.Cable;
import io.railmap.matrix.topology.Topology;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The one rule for which findings a view shows, by the consumers each concerns ({@link
 * io.railmap.matrix.finding.Code#consumers()}): the page and {@code railmap draw}, {@code GET /v1/events}
 * (through {@link CableFindings#of}), {@code railmap rails}, {@code railmap check} and a plan all route
 * their findings through {@link #shown}.
 *
 * <p>A finding is shown when one of the consumers it concerns applies: one the view was asked
 * for (a jaccl matrix, a ring hostfile), or one the cluster's shape can feed. Every consumer but jaccl
 * can be fed by any cluster (TCP and the rail libraries run over switches and cables alike); jaccl
 * only by point-to-point cables ({@link #pointToPoint}). So on a switched rail fabric a NIC on a leaf is
 * a rail, not a {@code shared-segment} warning, and jaccl's findings appear where a jaccl config is asked
 * for or the cluster has a direct cable (a mixed cluster keeps them).
 */
public final class ConsumerScope {
    private ConsumerScope() {
    }

    /**
     * The rail table of {@code railmap rails} and {@code railmap check --rails}, its findings routed through
     * {@link #shown} (a rank-free view: nothing asked).
     *
     * @param topology the records
     * @return {@link RailTable#of} with the findings shown
     */
    public static RailTable rails(Topology topology) {
        RailTable table = RailTable.of(topology);
        return new RailTable(table.rails(), table.strays(), table.unplaced(), shown(table.findings(), topology, table, Set.of()));
    }

    /**
     * @param findings the findings, in their order
     * @param topology the records they are about
     * @param rails    the topology's rail table ({@link RailTable#of})
     * @param asked    the consumers whose configs the view writes or checks (empty for a rank-free view of the cluster)
     * @return the findings shown, in the same order
     */
    public static List<Finding> shown(List<Finding> findings, Topology topology, RailTable rails, Set<Consumer> asked) {
        Set<Consumer> applying = applying(topology, rails, asked);
        return findings.stream().filter(f -> !Collections.disjoint(f.code().consumers(), applying)).toList();
    }

    /**
     * @return {@code asked}, plus every consumer but jaccl, plus jaccl when the cluster has a point-to-point cable
     */
    public static Set<Consumer> applying(Topology topology, RailTable rails, Set<Consumer> asked) {
        Set<Consumer> out = EnumSet.allOf(Consumer.class);
        if (!asked.contains(Consumer.JACCL) && !pointToPoint(topology, rails)) {
            out.remove(Consumer.JACCL);
        }
        return out;
    }

    /**
     * @return true when a confirmed cable joins two nodes directly: neither end is a compute NIC on a
     *         rail of the switched fabric (two nodes alone on a leaf hear only each other, which the probe
     *         takes for a cable, but the rail table knows the switch)
     */
    public static boolean pointToPoint(Topology topology, RailTable rails) {
        for (Cable cable : topology.cables()) {
            if (rails.railOf(cable.a()).isEmpty() && rails.railOf(cable.b()).isEmpty()) {
                return true;
            }
        }
        return false;
    }
}
