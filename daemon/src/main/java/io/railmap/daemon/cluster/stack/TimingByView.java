package io.railmap.daemon.cluster.stack;

import io.railmap.daemon.cluster.config.ClusterTiming;
import org.jgroups.Event;
import org.jgroups.View;
import org.jgroups.protocols.FD_ALL3;
import org.jgroups.protocols.FD_SOCK2;
import org.jgroups.protocols.MERGE3;
import org.jgroups.protocols.UNICAST3;
import org.jgroups.protocols.pbcast.STABLE;
import org.jgroups.stack.Protocol;

/**
 * A JGroups protocol with no messages of its own, just above FD_ALL3 in the stack: whenever a view
 * passes down, it sets FD_ALL3's heartbeat interval and timeout, MERGE3's intervals and the
 * retransmit interval of NAKACK2 ({@link PacedNakack}) and UNICAST3 to {@link ClusterTiming#forView}
 * of the view's size, how often FD_SOCK2 sends a standing suspicion again
 * ({@link #SUSPECT_RESEND_MS}) and how often STABLE runs a round ({@link #STABILITY_ROUND_MS}),
 * before FD_ALL3 and MERGE3 see the view. Up to {@value ClusterTiming#MEMBERS_PER_STEP} members
 * that is the configured timing, so only views larger than any real Mac cluster change anything.
 *
 * <p>FD_ALL3 keeps one bit per heartbeat interval of its timeout for each member; interval and
 * timeout grow together, so the number of bits stays and no member's record of heartbeats is lost.
 * Its timers are stopped here and started again by FD_ALL3 itself when it handles the view. MERGE3
 * reads its intervals anew before each round. The retransmit tasks are started again here at the new
 * interval (what they would retransmit stays queued meanwhile).
 */
final class TimingByView extends Protocol {
    /**
     * How often FD_SOCK2 sends a suspicion again to every member until the view excludes the suspect,
     * up to {@value ClusterTiming#MEMBERS_PER_STEP} members, in ms (JGroups' own default; {@link ClusterStack}
     * sets it); above, it is
     * multiplied by {@link ClusterTiming#stretch}, as the heartbeats are. Every member handles every
     * copy (GMS computes a membership of the view for it), so in a view of n members with s
     * suspicions standing the cluster handled n × s of them every 5 s whatever the size; a suspicion
     * lost on the way is sent again later in a large view, and the heartbeats catch a dead member anyway.
     * FD_SOCK2 reads it when it starts sending suspicions again, so resends already under way keep
     * their interval until their suspicions end.
     */
    static final long SUSPECT_RESEND_MS = 5_000;

    /**
     * STABLE's average interval between stability rounds up to {@value ClusterTiming#MEMBERS_PER_STEP}
     * members, in ms (JGroups' own default; {@link ClusterStack} sets it); above, it is multiplied by
     * {@link ClusterTiming#stretch}, as the heartbeats are. In a round every member sends the
     * coordinator a digest of what it has received from every member, and JGroups merges each
     * digest entry by entry, looking each member up in a list (jgroups 5.5,
     * {@code src/org/jgroups/util/MutableDigest.java}, {@code set}): n² address comparisons per
     * digest made or taken, n³ at the coordinator per round, about a billion at 1,024 members. What a round frees, multicast messages every member
     * has, is few here (records and holdings); a round also starts once a member has received
     * STABLE's {@code max_bytes} (2 MB) since the last one, so the messages held stay bounded
     * whatever the interval. STABLE reads the interval anew for each round
     * ({@code STABLE.StableTask.nextInterval}).
     */
    static final long STABILITY_ROUND_MS = 20_000;

    private final ClusterTiming timing;
    private ClusterTiming applied;

    /** @param timing the timing of a view of at most {@value ClusterTiming#MEMBERS_PER_STEP} members */
    TimingByView(ClusterTiming timing) {
        this.timing = timing;
        this.applied = timing;
    }

    /** @return the timing applied for the last view seen (the configured one before any view) */
    synchronized ClusterTiming applied() {
        return applied;
    }

    @Override
    public Object down(Event evt) {
        if (evt.getType() == Event.VIEW_CHANGE) {
            View view = evt.getArg();
            apply(timing.forView(view.size()), ClusterTiming.stretch(view.size()));
        }
        return down_prot.down(evt);
    }

    private synchronized void apply(ClusterTiming next, int stretch) {
        if (next.equals(applied)) {
            return;
        }
        FD_SOCK2 connections = stack.findProtocol(FD_SOCK2.class);
        if (connections != null) {
            connections.setSuspectMsgInterval(SUSPECT_RESEND_MS * stretch);
        }
        STABLE stability = stack.findProtocol(STABLE.class);
        if (stability != null) {
            stability.setDesiredAverageGossip(STABILITY_ROUND_MS * stretch);
        }
        FD_ALL3 heartbeats = stack.findProtocol(FD_ALL3.class);
        if (heartbeats != null) {
            heartbeats.stopFailureDetection(); // FD_ALL3 starts it again with the view, at the new interval
            heartbeats.setTimeout(next.heartbeatTimeoutMs()).setInterval(next.heartbeatIntervalMs());
        }
        MERGE3 merge = stack.findProtocol(MERGE3.class);
        if (merge != null) {
            // MERGE3 checks the old minimum against the old maximum: the minimum first always passes
            merge.setMinInterval(next.mergeMinIntervalMs());
            merge.setMaxInterval(next.mergeMaxIntervalMs());
        }
        if (next.retransmitIntervalMs() != applied.retransmitIntervalMs()) {
            PacedNakack multicast = stack.findProtocol(PacedNakack.class);
            if (multicast != null) {
                multicast.retransmitEvery(next.retransmitIntervalMs());
            }
            UNICAST3 unicast = stack.findProtocol(UNICAST3.class);
            if (unicast != null) {
                boolean running = unicast.isXmitTaskRunning();
                unicast.setXmitInterval(next.retransmitIntervalMs());
                if (running) {
                    unicast.stopRetransmitTask();
                    unicast.startRetransmitTask();
                }
            }
        }
        applied = next;
    }
}
