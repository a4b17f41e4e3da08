package io.railmap.daemon.events;

import io.railmap.matrix.change.Change;
import io.railmap.matrix.change.ChangeType;
import io.railmap.matrix.change.ClusterState;
import io.railmap.matrix.change.Changes;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.jaccl.MlxVersion;
import io.railmap.matrix.job.JobCheck;
import io.railmap.matrix.job.JobVerdict;
import io.railmap.matrix.model.Snapshot;
import io.railmap.matrix.topology.Cable;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Turns each rebuild's state into events ({@link EventLog}) and, when the cables changed, logs one
 * line: {@code topology: +1 (a:en6–b:en7), -0; 2 cables among 2 nodes; ring: true}, where ring is
 * true when some pair of nodes has more than one cable. At most {@value #NAMED} cables added and
 * {@value #NAMED} lost are named ({@code +2000 (a:en1–b:en3, ..., and 1990 more)}), so a line stays
 * short whatever merges. The findings whose raising and clearing are events are the rank-free ones about
 * cables and ports and the rail table's ({@link io.railmap.matrix.check.CableFindings#of}, routed through
 * {@link io.railmap.matrix.check.ConsumerScope} as the page's are) and the running jobs' ({@link JobCheck}). Costs {@link ClusterState#of} (a topology and its rail table), the jobs'
 * checks (a second topology, and each jaccl job's matrix) plus a linear diff; the daemon calls it on its rebuild thread ({@link io.railmap.daemon.node.Rebuilds}), never on
 * an event loop.
 */
public final class ChangeFeed {
    private static final Logger LOG = System.getLogger(ChangeFeed.class.getName());
    /** Most cables named as added, and as lost, in one line. */
    static final int NAMED = 10;
    private final EventLog events;
    private ClusterState last = ClusterState.EMPTY;
    /** The jobs of the last state, by verdict ({@link JobVerdict#VERDICTS}): what the {@code railmap_jobs} gauge reads. */
    private volatile Map<String, Integer> verdicts = Map.of();

    /** @param events where the changes go */
    public ChangeFeed(EventLog events) {
        this.events = events;
    }

    /** As {@link #observe(Snapshot, Set, Optional)} without a cluster. */
    public String observe(Snapshot snapshot) {
        return observe(snapshot, Set.of(), Optional.empty());
    }

    /**
     * @param snapshot every record known now
     * @param members  the nodes of the cluster view
     * @param agreed   the cluster's agreement, when there is a cluster
     * @return the topology line when the cables changed, else null
     */
    public synchronized String observe(Snapshot snapshot, Set<String> members, Optional<ClusterState.Agreed> agreed) {
        ClusterState now = withJobs(ClusterState.of(snapshot, members, agreed), snapshot);
        List<Change> changes = Changes.between(last, now);
        last = now;
        events.publish(changes);
        List<Change> added = changes.stream().filter(c -> c.type() == ChangeType.CABLE_ADDED).toList();
        List<Change> lost = changes.stream().filter(c -> c.type() == ChangeType.CABLE_LOST).toList();
        if (added.isEmpty() && lost.isEmpty()) {
            return null;
        }
        boolean ring = false;
        Set<List<String>> pairs = new HashSet<>();
        for (Cable c : now.cables()) {
            String x = c.a().node();
            String y = c.b().node();
            ring |= !pairs.add(x.compareTo(y) < 0 ? List.of(x, y) : List.of(y, x));
        }
        int nodes = now.records().size();
        int cables = now.cables().size();
        String line = "topology: +" + count(added) + ", -" + count(lost) + "; " + cables + " cable" + (cables == 1 ? "" : "s")
                + " among " + nodes + " node" + (nodes == 1 ? "" : "s") + "; ring: " + ring;
        LOG.log(Level.INFO, line);
        return line;
    }

    /**
     * The state with the findings of the running jobs added ({@link JobCheck}, by jaccl's rules of the newest
     * MLX railmap knows): a job's finding is raised when its ranks appear or a cable under them changes, and
     * cleared when the job ends or is right again. A job finding names its pids, so a job started again is
     * raised again.
     */
    private ClusterState withJobs(ClusterState state, Snapshot snapshot) {
        Set<Finding> findings = new LinkedHashSet<>(state.findings());
        Map<String, Integer> count = new TreeMap<>();
        JobCheck.check(snapshot, MlxVersion.NEWEST).verdicts().forEach(v -> {
            findings.addAll(v.findings());
            count.merge(v.verdict(), 1, Integer::sum);
        });
        verdicts = Map.copyOf(count);
        return new ClusterState(state.cables(), state.ports(), state.records(), findings, state.members(), state.agreed());
    }

    /**
     * @param verdict one of {@link JobVerdict#VERDICTS}
     * @return how many running jobs had that verdict at the last {@link #observe}
     */
    public int jobs(String verdict) {
        return verdicts.getOrDefault(verdict, 0);
    }

    private static String count(List<Change> cables) {
        if (cables.isEmpty()) {
            return "0";
        }
        String named = cables.stream().limit(NAMED).map(c -> String.join("\u2013", c.subjects())).collect(Collectors.joining(", "));
        return cables.size() + " (" + named + (cables.size() > NAMED ? ", and " + (cables.size() - NAMED) + " more" : "") + ")";
    }
}
