package io.railmap.daemon.cluster;

import io.railmap.daemon.cluster.stack.NodeAddresses;
import java.lang.System.Logger.Level;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jgroups.Address;
import org.jgroups.Message;

/**
 * Takes each message a member sent: a holdings message to {@link Holdings} and the repair rounds, a
 * record to {@link RecordIntake}. Logs once per member while it stays in the view: records rejected
 * for a reason (with the reason's detail: which field is malformed, which protocol versions each side
 * speaks) and records read from a newer protocol (what this daemon skipped).
 *
 * <p>Threads: JGroups' receiving threads; never blocks.
 */
final class Receiver {
    private final LocalMember local;
    private final RecordIntake intake;
    private final Holdings holdings;
    private final RepairRounds repair;
    private final ClusterProtocol speaking;
    /** Called when what a member holds changed: the agreement may have. */
    private final Runnable changed;
    /** Member identity → what was logged about it (reject reasons, "newer"); only members of the view. */
    private final Map<String, Set<String>> complaints = new HashMap<>();

    Receiver(LocalMember local, RecordIntake intake, Holdings holdings, RepairRounds repair, ClusterProtocol speaking, Runnable changed) {
        this.local = local;
        this.intake = intake;
        this.holdings = holdings;
        this.repair = repair;
        this.speaking = speaking;
        this.changed = changed;
    }

    void received(Message msg) {
        Address src = msg.getSrc();
        if (src == null) {
            return;
        }
        Optional<String> node = NodeAddresses.node(src);
        String id = NodeAddresses.id(src);
        if (msg.getHeader(HoldingsHeader.ID) != null) {
            Optional<Holdings.Held> held = msg.hasArray() ? Holdings.decode(msg.getArray(), msg.getOffset(), msg.getLength()) : Optional.empty();
            // kept even from a member not yet in this view: a newcomer is told once, possibly before its view arrives here
            held.ifPresent(h -> {
                holdings.heard(id, h);
                repair.heard(id, h);
                changed.run();
            });
            return;
        }
        RecordIntake.Receipt receipt = msg.hasArray()
                ? intake.receive(id, node, msg.getArray(), msg.getOffset(), msg.getLength())
                : intake.receive(id, node, new byte[0], 0, 0);
        if (receipt.rejected().filter(RejectReason.STALE::equals).isPresent()) {
            repair.answerSoon(id);
        }
        receipt.rejected().ifPresentOrElse(reason -> complain(src, reason, receipt.why()), () -> receipt.sender()
                .filter(sender -> sender.current() > speaking.max() || !receipt.skipped().isEmpty())
                .ifPresent(sender -> newer(src, sender, receipt.skipped())));
    }

    /** Forgets what was logged about members no longer in the view: one that left may come back (a merge). */
    void retain(Set<String> members) {
        synchronized (complaints) {
            complaints.keySet().retainAll(members);
        }
    }

    /** @return whether this is the first line of this kind about a member of the view (never for a non-member: bounded by the view) */
    private boolean firstTime(Address src, String what) {
        String id = NodeAddresses.id(src);
        synchronized (complaints) {
            return local.view().byId().containsKey(id) && complaints.computeIfAbsent(id, k -> new HashSet<>()).add(what);
        }
    }

    private void complain(Address src, RejectReason reason, String why) {
        if (reason == RejectReason.STALE || reason == RejectReason.NOT_MEMBER || reason == RejectReason.SUPERSEDED) {
            return; // expected around every view change and restart
        }
        if (firstTime(src, reason.tag())) {
            Cluster.LOG.log(Level.WARNING, "rejected a " + reason.tag() + " record from member " + LocalMember.name(src) + " (" + local.physical(src) + ")"
                    + (why.isEmpty() ? "" : ": " + why) + "; further ones from it are only counted while it stays a member"
                    + " (railmap_cluster_records_rejected_total{reason=\"" + reason.tag() + "\"})");
        }
    }

    private void newer(Address src, ClusterProtocol sender, List<String> skipped) {
        if (firstTime(src, "newer")) {
            Cluster.LOG.log(Level.INFO, "member " + LocalMember.name(src) + " (" + local.physical(src) + ") writes protocol " + sender.current() + " (knows "
                    + sender.range() + "); this daemon reads " + speaking.range() + " and takes its records without what it does not know"
                    + (skipped.isEmpty() ? "" : ": " + String.join("; ", skipped)));
        }
    }
}
