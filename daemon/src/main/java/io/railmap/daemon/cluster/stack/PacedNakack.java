package io.railmap.daemon.cluster.stack;

import org.jgroups.conf.ClassConfigurator;
import org.jgroups.protocols.pbcast.NAKACK2;

/**
 * JGroups' NAKACK2 (reliable, ordered multicast) whose retransmit interval can change while it
 * runs: NAKACK2 reads {@code xmit_interval} only when it starts its retransmit task, and starting or
 * stopping that task is not public. {@link TimingByView} paces it with the view's size.
 *
 * <p>The wire is NAKACK2's (same protocol id, same headers), so a daemon with plain NAKACK2 reads
 * every message.
 */
final class PacedNakack extends NAKACK2 {
    PacedNakack() {
        // NAKACK2's id, so that its headers are NAKACK2's on the wire and an older daemon reads them
        setId(ClassConfigurator.getProtocolId(NAKACK2.class));
    }

    /**
     * Sets the retransmit interval and, when the task runs, starts it again at that interval.
     *
     * @param ms the new interval, in ms (more than 0)
     */
    synchronized void retransmitEvery(long ms) {
        boolean running = xmit_task != null && !xmit_task.isDone();
        setXmitInterval(ms);
        if (running) {
            stopRetransmitTask();
            startRetransmitTask();
        }
    }
}
