package io.railmap.daemon.cluster;

import io.railmap.daemon.cluster.config.ClusterTiming;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jgroups.Address;
import org.jgroups.BytesMessage;
import org.jgroups.JChannel;

/**
 * Runs the anti-entropy rules of {@link Repairs}: sends this member's record again to members whose
 * digest has differed from its own for the grace period, and its holdings to every member when a
 * member sent a record this daemon already holds. Logs one line per repair round (up to 3 members
 * named, and their count).
 *
 * <p>Threads: the checks run on the send thread ({@link Sender#soon}); the rest is called from
 * JGroups' threads and only schedules.
 */
final class RepairRounds {
    private final LocalMember local;
    private final Sender sender;
    private final OwnHoldings own;
    private final Holdings holdings;
    private final Repairs repairs;
    private final ClusterMetrics metrics;
    private final ClusterTiming timing;
    private final RecordIntake intake;
    private final AtomicBoolean repairPending = new AtomicBoolean();
    /**
     * Members that sent a record this daemon already holds, still to be answered ({@link #answerSoon});
     * bounded by {@link Holdings#MAX_MEMBERS}.
     */
    private final Set<String> staleFrom = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean answerPending = new AtomicBoolean();

    RepairRounds(LocalMember local, Sender sender, OwnHoldings own, Holdings holdings, Repairs repairs, ClusterMetrics metrics,
            ClusterTiming timing, RecordIntake intake) {
        this.local = local;
        this.sender = sender;
        this.own = own;
        this.holdings = holdings;
        this.repairs = repairs;
        this.metrics = metrics;
        this.timing = timing;
        this.intake = intake;
    }

    /** This member's holdings were sent to every member: its digest as the others now know it. */
    void ownSent(Holdings.Held held) {
        repairs.own(held.digest());
        repairSoon();
    }

    /** A member said what it holds. */
    void heard(String member, Holdings.Held held) {
        repairs.heard(member, held.digest());
        repairSoon();
    }

    /**
     * Checks for repairs after the grace period of the current view's timing
     * ({@link ClusterTiming#repairGraceMs}), unless a check is pending: called whenever this
     * member sends its digest or hears one, so that nothing is scheduled while nothing changes.
     */
    private void repairSoon() {
        sender.soon(repairPending, this::repair, timing.forView(intake.size()).repairGraceMs());
    }

    /**
     * Sends this member's record, once per pair of digests, to each member whose digest has differed
     * from this member's for the grace period, and its holdings to every member; counts them and logs one line;
     * checks again when a differing pair is not yet due.
     */
    private void repair() {
        repairPending.set(false);
        JChannel ch = local.connected();
        if (ch == null) {
            return;
        }
        Holdings.Held held = own.held();
        repairs.own(held.digest());
        long graceMs = timing.forView(intake.size()).repairGraceMs();
        LocalMember.View view = local.view();
        Repairs.Due due = repairs.due(TimeUnit.MILLISECONDS.toNanos(graceMs), view.byId().keySet());
        if (!due.members().isEmpty()) {
            byte[] record = sender.ownRecord();
            Map<String, Holdings.Held> heard = holdings.all();
            List<String> named = new ArrayList<>();
            for (String id : due.members()) {
                Address a = view.byId().get(id);
                sender.send(ch, new BytesMessage(a, record));
                Holdings.Held h = heard.get(id);
                named.add(LocalMember.name(a) + (h == null ? "" : " (" + h.records() + " records)"));
            }
            // the holdings to every member, not to each one due: this member's digests then reach each member in
            // the order sent (one member's multicasts stay in order), where a unicast could arrive after a newer
            // multicast digest and leave the receiver with a stale one for good (its pair already repaired)
            sender.holdingsSoon();
            metrics.repaired(due.members().size());
            named.sort(null);
            int n = named.size();
            Cluster.LOG.log(Level.INFO, "repair: " + n + (n == 1 ? " member holds" : " members hold") + " other records than this node ("
                    + held.records() + " records, " + held.digest().substring(0, 15) + "…) for " + graceMs / 1000.0 + " s or more: "
                    + String.join(", ", named.subList(0, Math.min(3, n))) + (n > 3 ? " and " + (n - 3) + " more" : "")
                    + "; sent " + (n == 1 ? "it" : "each") + " this node's record again and every member its holdings (railmap_cluster_repairs_total)");
        }
        due.nextNanos().ifPresent(ns -> sender.soon(repairPending, this::repair, TimeUnit.NANOSECONDS.toMillis(ns) + 1));
    }

    /**
     * A member sent a record this daemon already holds: tells every member this daemon's holdings
     * ({@link Sender#holdingsSoon}), once per sending member and digest ({@link Repairs#answer}).
     * To every member, as every holdings message after a change: a multicast keeps this daemon's
     * digests in the order it sent them, where an answer sent to one member could arrive after a
     * newer digest. The senders heard meanwhile are answered together, with one digest, after
     * {@link Sender#coalesceMs}.
     *
     * <p>Cost: around joins and merges every member sends its record to the members new to it, who
     * may already hold it; answering each at once would cost a sort and a hash of every record held
     * per record heard again (docs/decisions.md, "Daemon: cluster and probe").
     */
    void answerSoon(String member) {
        if (staleFrom.size() < Holdings.MAX_MEMBERS) {
            staleFrom.add(member);
        }
        sender.soon(answerPending, this::answer, sender.coalesceMs());
    }

    private void answer() {
        answerPending.set(false);
        List<String> from = new ArrayList<>(staleFrom);
        staleFrom.removeAll(from);
        String digest = own.held().digest();
        boolean any = false;
        for (String id : from) {
            any |= repairs.answer(id, digest);
        }
        if (any) {
            sender.holdingsSoon();
        }
    }
}
