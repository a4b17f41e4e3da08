package io.railmap.daemon.node;

import io.railmap.matrix.model.Snapshot;
import io.railmap.matrix.topology.Cable;
import io.railmap.matrix.topology.Topology;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Logs a one-line summary whenever the cluster's cables change:
 * {@code topology: +1 cable (a:en6–b:en7), -0; 2 cables among 2 nodes; ring: true}, where ring is
 * true when some pair of nodes has more than one cable.
 */
public final class TopologyLog {
    private static final Logger LOG = System.getLogger(TopologyLog.class.getName());
    private Set<Cable> last = Set.of();

    /**
     * @param snapshot every record known now
     * @return the summary line when the cables changed, else null
     */
    public synchronized String observe(Snapshot snapshot) {
        Topology topology = Topology.of(snapshot);
        Set<Cable> now = new TreeSet<>(topology.cables());
        if (now.equals(last)) {
            return null;
        }
        Set<Cable> added = new TreeSet<>(now);
        added.removeAll(last);
        Set<Cable> lost = new TreeSet<>(last);
        lost.removeAll(now);
        last = now;
        boolean ring = false;
        List<String> nodes = topology.nodes();
        for (int i = 0; i < nodes.size() && !ring; i++) {
            for (int j = i + 1; j < nodes.size() && !ring; j++) {
                ring = topology.cablesBetween(nodes.get(i), nodes.get(j)).size() > 1;
            }
        }
        String line = "topology: +" + count(added) + ", -" + count(lost) + "; " + now.size() + " cable"
                + (now.size() == 1 ? "" : "s") + " among " + nodes.size() + " node" + (nodes.size() == 1 ? "" : "s")
                + "; ring: " + ring;
        LOG.log(Level.INFO, line);
        return line;
    }

    private static String count(Set<Cable> cables) {
        if (cables.isEmpty()) {
            return "0";
        }
        return cables.size() + " (" + cables.stream().map(Cable::toString).collect(Collectors.joining(", ")) + ")";
    }
}
