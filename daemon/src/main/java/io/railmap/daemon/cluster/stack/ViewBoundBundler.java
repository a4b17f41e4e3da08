package io.railmap.daemon.cluster.stack;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import org.jgroups.Address;
import org.jgroups.View;
import org.jgroups.protocols.TransferQueueBundler;

/**
 * JGroups' {@link TransferQueueBundler} (one queue and one output buffer for every destination),
 * bounded by the view.
 *
 * <p>Why: its base class keeps a message list for every destination it ever sent to, emptied after
 * each send but never dropped ({@code BaseBundler.msgs}; JGroups removed that cleanup, JGRP-2324, and
 * only its per-destination bundler drops members that left, JGRP-2960): a daemon would keep one for
 * every incarnation of every node that ever restarted, and for every address discovery ever asked.
 *
 * <p>Bounds: the lists of destinations not in the view are dropped at the first send after each
 * view change, and whenever there are more than {@value #MAX_OTHERS} of them (a member that left is
 * still sent to for a while: a leave answer, retransmissions until its connection closes).
 *
 * <p>Threads: the lists are only ever touched by the bundler's own thread, which sends, so that is
 * where they are dropped: right after a send, when every list is empty and nothing is lost.
 */
final class ViewBoundBundler extends TransferQueueBundler {
    /** Lists of destinations not in the view kept at most, besides the members' and the multicast's. */
    static final int MAX_OTHERS = 32;

    private volatile boolean viewChanged;
    /** How many lists there were after the last send (the bundler's thread only). */
    private int lists;
    /** The destinations with a list, as of the last send that added or dropped one; for tests. */
    private volatile Set<Address> destinations = Set.of();

    @Override
    public void viewChange(View view) {
        super.viewChange(view);
        viewChanged = true;
    }

    @Override
    protected void sendBundledMessages() {
        super.sendBundledMessages();
        List<Address> view = members;
        boolean dropped = false;
        if (view != null && (viewChanged || msgs.size() > view.size() + 1 + MAX_OTHERS)) {
            viewChanged = false;
            Set<Address> in = new HashSet<>(view);
            dropped = msgs.keySet().removeIf(dest -> dest != null && !in.contains(dest));
        }
        if (dropped || msgs.size() != lists) {
            lists = msgs.size();
            destinations = msgs.keySet().stream().filter(Objects::nonNull).collect(Collectors.toUnmodifiableSet());
        }
    }

    /** @return the destinations this bundler holds a message list for, as of its last send (never the multicast's) */
    Set<Address> destinations() {
        return destinations;
    }
}
