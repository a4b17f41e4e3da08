package io.railmap.daemon.cluster;

import io.railmap.daemon.cluster.RecordIntake.ViewChange;
import io.railmap.daemon.cluster.RecordIntake.ViewMember;
import io.railmap.daemon.cluster.config.ClusterConfig;
import io.railmap.daemon.cluster.config.Seed;
import io.railmap.daemon.cluster.stack.NodeAddresses;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.jgroups.Address;
import org.jgroups.MergeView;
import org.jgroups.View;

/**
 * Takes each view JGroups installs: hands it to {@link RecordIntake}, drops what is kept about members
 * that left, and has the own record and holdings sent to the members new to this member (the
 * joiners, and after a merge the members of the other partitions; to everyone when they are half the
 * view or more, and in this member's first view), so that a join to a cluster of n members makes
 * about 2n record messages, not n². Logs one line per event: this member joining, a member joining,
 * leaving or being suspected, partitions merging, a node name claimed twice.
 *
 * <p>Threads: JGroups' (one view at a time); never blocks.
 */
final class ViewChanges {
    private final ClusterConfig config;
    private final LocalMember local;
    private final RecordIntake intake;
    private final Holdings holdings;
    private final Repairs repairs;
    private final Receiver receiver;
    private final Sender sender;
    private final ClusterMetrics metrics;
    /** Called after each view: the membership and the agreement may have changed. */
    private final Runnable changed;
    private Map<String, List<String>> lastDuplicates = Map.of();

    ViewChanges(ClusterConfig config, LocalMember local, RecordIntake intake, Holdings holdings, Repairs repairs, Receiver receiver,
            Sender sender, ClusterMetrics metrics, Runnable changed) {
        this.config = config;
        this.local = local;
        this.intake = intake;
        this.holdings = holdings;
        this.repairs = repairs;
        this.receiver = receiver;
        this.sender = sender;
        this.metrics = metrics;
        this.changed = changed;
    }

    void viewChanged(View view) {
        List<Address> before = local.view().order();
        Address self = local.self();
        Map<String, Address> byId = new HashMap<>();
        List<ViewMember> list = new ArrayList<>();
        for (Address a : view.getMembers()) {
            byId.put(NodeAddresses.id(a), a);
            list.add(new ViewMember(NodeAddresses.id(a), NodeAddresses.node(a), local.physical(a), a.equals(self)));
        }
        local.view(new LocalMember.View(List.copyOf(view.getMembers()), view.getViewId().getId(), Map.copyOf(byId)));
        holdings.retain(byId.keySet());
        repairs.retain(byId.keySet());
        boolean merge = view instanceof MergeView;
        ViewChange change = intake.view(view.getViewId().getId(), list);
        metrics.view(merge);
        receiver.retain(byId.keySet());
        log(view, change, merge, before.isEmpty());
        Set<Address> fresh = newcomers(before, view, self);
        if (before.isEmpty() || 2 * fresh.size() >= view.size() - 1) {
            sender.recordSoon();
            sender.holdingsSoon();
        } else if (!fresh.isEmpty()) {
            sender.toNewcomersSoon(fresh);
        }
        changed.run();
    }

    /**
     * @return the members of {@code view} that may not hold this member's record: those not in the
     *         previous view and, after a merge, every member of a subgroup this member is not in
     *         (they were in another partition, whatever this member's previous view said: a member
     *         that was frozen still lists the others in its own subgroup while they dropped it, so
     *         they are in both); never this member
     */
    static Set<Address> newcomers(List<Address> before, View view, Address self) {
        Set<Address> out = new HashSet<>(view.getMembers());
        out.removeAll(before);
        if (view instanceof MergeView merge) {
            merge.getSubgroups().stream().filter(g -> !g.containsMember(self)).forEach(g -> out.addAll(g.getMembers()));
            out.retainAll(view.getMembers());
        }
        out.remove(self);
        return out;
    }

    /** Counts and logs the members JGroups suspects (SUSPECT events). */
    void suspected(Object arg) {
        Collection<?> suspects = arg instanceof Collection<?> c ? c : List.of(arg);
        for (Object s : suspects) {
            if (s instanceof Address a) {
                metrics.suspected();
                Cluster.LOG.log(Level.INFO, "member " + LocalMember.name(a) + " suspected (" + local.physical(a) + ")");
            }
        }
    }

    /** @param first whether this is this member's first view */
    private void log(View view, ViewChange change, boolean merge, boolean first) {
        int size = view.size();
        String count = size + (size == 1 ? " member" : " members");
        String coordinator = LocalMember.name(view.getCoord());
        if (first) {
            Cluster.LOG.log(Level.INFO, size == 1
                    ? "cluster " + config.cluster() + " founded by " + config.node() + " at " + config.address() + " (" + discovery() + ")"
                            + (config.discovery() == ClusterConfig.Discovery.SEEDS
                                    ? "; no seed answered (as expected for the first daemon; if seeds run, check they have the same --cluster and key)" : "")
                    : "joined cluster " + config.cluster() + " as " + config.node() + " at " + config.address() + ": " + count
                            + ", coordinator " + coordinator + " (" + discovery() + ")");
        } else if (merge) {
            String parts = ((MergeView) view).getSubgroups().stream()
                    .map(g -> g.getMembers().stream().map(LocalMember::name).sorted().collect(Collectors.joining(", ", "{", "}")))
                    .collect(Collectors.joining(" + "));
            Cluster.LOG.log(Level.INFO, "partitions merged: " + parts + ": " + count + ", coordinator " + coordinator);
        } else {
            for (ViewMember m : change.joined()) {
                Cluster.LOG.log(Level.INFO, "member " + m.node().orElse(m.id()) + " joined (" + m.address() + "): " + count);
            }
            for (ViewMember m : change.left()) {
                Cluster.LOG.log(Level.INFO, "member " + m.node().orElse(m.id()) + " left"
                        + (change.dropped().contains(m.node().orElse("")) ? ", its record dropped" : "") + ": " + count);
            }
        }
        if (!change.duplicates().isEmpty() && !change.duplicates().equals(lastDuplicates)) {
            change.duplicates().forEach((node, addresses) -> Cluster.LOG.log(Level.WARNING, "node " + node + " has " + addresses.size()
                    + " members (" + String.join(", ", addresses) + "): a restarted daemon not yet dropped, or two daemons given the same --node;"
                    + " its record is taken from the last, " + addresses.get(addresses.size() - 1) + ", the member that joined latest"));
        }
        lastDuplicates = change.duplicates();
    }

    private String discovery() {
        switch (config.discovery()) {
            case SEEDS:
                return "seeds " + config.seeds().stream().map(Seed::toString).collect(Collectors.joining(","));
            case MULTICAST:
                return "multicast discovery on " + config.multicastGroup() + " port " + ClusterConfig.MULTICAST_PORT;
            default:
                return "loopback only: no discovery";
        }
    }
}
