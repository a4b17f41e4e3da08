package io.railmap.daemon.node;

import io.railmap.matrix.model.Snapshot;
import io.railmap.matrix.topology.Cable;
import io.railmap.matrix.topology.Topology;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Logs a one-line summary whenever the cluster's cables change:
 * {@code topology: +1 (a:en6–b:en7), -0; 2 cables among 2 nodes; ring: true}, where ring is
 * true when some pair of nodes has more than one cable. At most {@value #NAMED} cables added and
 * {@value #NAMED} lost are named ({@code +2000 (a:en1–b:en3, ..., and 1990 more)}), so a line stays
 * short whatever merges. Costs {@code Topology.of} plus O(c log c) in the cables; the daemon calls it
 * on its rebuild thread ({@link Rebuilds}), never on an event loop.
 */
public final class TopologyLog {
    private static final Logger LOG = System.getLogger(TopologyLog.class.getName());
    /** Most cables named as added, and as lost, in one line. */
    static final int NAMED = 10;
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
        Set<List<String>> pairs = new HashSet<>();
        for (Cable c : now) {
            String x = c.a().node();
            String y = c.b().node();
            ring |= !pairs.add(x.compareTo(y) < 0 ? List.of(x, y) : List.of(y, x));
        }
        int nodes = topology.graph().vertexSet().size();
        String line = "topology: +" + count(added) + ", -" + count(lost) + "; " + now.size() + " cable"
                + (now.size() == 1 ? "" : "s") + " among " + nodes + " node" + (nodes == 1 ? "" : "s")
                + "; ring: " + ring;
        LOG.log(Level.INFO, line);
        return line;
    }

    private static String count(Set<Cable> cables) {
        if (cables.isEmpty()) {
            return "0";
        }
        String named = cables.stream().limit(NAMED).map(Cable::toString).collect(Collectors.joining(", "));
        return cables.size() + " (" + named + (cables.size() > NAMED ? ", and " + (cables.size() - NAMED) + " more" : "") + ")";
    }
}
