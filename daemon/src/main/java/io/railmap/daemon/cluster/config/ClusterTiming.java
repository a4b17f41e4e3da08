package io.railmap.daemon.cluster.config;

import java.util.Locale;

/**
 * Every timing value of the cluster's JGroups stack, with what it costs to raise or lower it, and
 * the bounds they imply as pure functions (tested with tables). {@code ClusterStack} hands these
 * values to JGroups' own protocols; nothing here runs a timer.
 *
 * <p>How a member is dropped: a <em>killed</em> daemon's sockets are closed by its kernel, so
 * FD_SOCK2 (a TCP connection to the next member in the view) notices at once; a <em>frozen</em>
 * daemon (SIGSTOP, a machine that lost power or its network without closing sockets) is noticed only
 * when its heartbeats stop (FD_ALL3). Either way VERIFY_SUSPECT2 asks the suspect once more and
 * waits {@link #verifyTimeoutMs}; then the coordinator installs a view without it, and every
 * survivor drops its record.
 *
 * @param joinTimeoutMs       GMS {@code join_timeout}: how long a starting daemon waits for
 *                            discovery answers (and for a JOIN response) before it becomes a cluster
 *                            of one or retries. A lone daemon is coordinator of itself after about
 *                            this long; a cold cluster forms in about this long. Lower starts faster;
 *                            too low on a slow network makes a joiner miss the coordinator's answer
 *                            and start a cluster of its own, which MERGE3 then merges (costing a
 *                            merge interval). Default 1000
 * @param heartbeatIntervalMs FD_ALL3 {@code interval}: how often every member multicasts a heartbeat
 *                            (any message counts as one). Each heartbeat is one small message to
 *                            every other member, so n members send n × (n − 1) per interval.
 *                            Default 2000
 * @param heartbeatTimeoutMs  FD_ALL3 {@code timeout}: a member silent this long is suspected.
 *                            The main lever of the trade-off: lower drops a frozen or cut-off daemon
 *                            sooner, but also suspects a live one that is silent because of a long GC
 *                            pause, CPU starvation or a congested network (a false suspicion: it is
 *                            dropped, its record leaves every snapshot, and MERGE3 brings it back a
 *                            few seconds later). Must exceed the interval. Default 6000
 * @param verifyTimeoutMs     VERIFY_SUSPECT2 {@code timeout}: how long a suspect has to answer
 *                            "are you dead?" before it is dropped. Added to every detection; lower
 *                            risks dropping a member that is merely slow to answer. Default 1000
 * @param mergeMinIntervalMs  MERGE3 {@code min_interval}: the shortest pause between two rounds in
 *                            which members announce their view to discover other partitions.
 *                            Default 2000
 * @param mergeMaxIntervalMs  MERGE3 {@code max_interval}: rounds come every max/2 to 1.5 × max, and
 *                            a coordinator compares the views it heard every 1.6 × max, so a healed
 *                            partition merges within about {@link #healBoundMs}. Each round is a
 *                            discovery (with TCP: n × (n − 1) small messages), so lower heals sooner
 *                            and costs more traffic. Default 4000
 * @param viewAckTimeoutMs    GMS {@code view_ack_collection_timeout}: how long a coordinator waits
 *                            for members to acknowledge a new view before going on. Matters only when
 *                            a member is frozen but not yet dropped: every view change waits this long
 *                            for it. Default 1000
 * @param connectTimeoutMs    TCP {@code sock_conn_timeout}: how long opening a connection to a
 *                            member may take. On a LAN a connect takes well under a millisecond;
 *                            this only bounds how long a send to an unreachable member blocks its
 *                            own queue. Default 1000
 * @param leaveTimeoutMs      GMS {@code leave_timeout}: how long a stopping daemon waits for the
 *                            coordinator to confirm its leave before it closes anyway (the others
 *                            then find out through FD_SOCK2). Default 1000
 * @param retransmitIntervalMs NAKACK2 and UNICAST3 {@code xmit_interval}: how often a member asks for
 *                            messages it missed, and re-announces the number of its last message so
 *                            that others notice they missed it. Matters after every join and merge:
 *                            a record sent right after a view change can reach a member before that
 *                            member has installed the view that admits the sender; it is dropped
 *                            there and arrives again about two intervals later. Lower heals sooner
 *                            and costs one small message per member per interval after each send.
 *                            Default 250
 */
public record ClusterTiming(long joinTimeoutMs, long heartbeatIntervalMs, long heartbeatTimeoutMs, long verifyTimeoutMs,
                            long mergeMinIntervalMs, long mergeMaxIntervalMs, long viewAckTimeoutMs, long connectTimeoutMs,
                            long leaveTimeoutMs, long retransmitIntervalMs) {

    /**
     * For a management LAN: a killed daemon is dropped within {@code verify + 1 s} = 2 s (about 1 s
     * measured), a frozen one within {@code timeout + interval + verify + 1 s} = 10 s, a healed
     * partition merges within about 14 s ({@link #healBoundMs}), a lone daemon is its own cluster
     * after 1 s. A member silent for 6 s is suspected.
     *
     * <p>Cost: each heartbeat and each merge round is a message to every other member, most of an
     * idle daemon's work beyond its probe; hence heartbeats every 2 s and merge rounds every 2–4 s
     * (docs/decisions.md, "Daemon: cluster and probe"; docs/benchmarks.md, "Footprint"). The 6 s
     * timeout tolerates a few seconds of silence from a starved host.
     */
    public static final ClusterTiming DEFAULTS = new ClusterTiming(1000, 2000, 6000, 1000, 2000, 4000, 1000, 1000, 1000, 250);

    /**
     * For labs of network namespaces on one machine and for tests: {@link #DEFAULTS} with a 500 ms
     * join, heartbeats every 500 ms and suspicion after 3 s, a 500 ms verification and merge rounds
     * every 0.5–1.5 s. Too eager for real networks, where a busy host would be suspected falsely.
     */
    public static final ClusterTiming LAB = DEFAULTS.withJoinTimeout(500).withHeartbeats(500, 3000).withVerifyTimeout(500)
            .withMergeIntervals(500, 1000);

    /** What one view installation and the messages around it take, at most, on a LAN; in ms. */
    static final long VIEW_INSTALL_SLACK_MS = 1000;

    /**
     * Validates the ranges.
     *
     * @throws IllegalArgumentException when a value is below 10 ms (joinTimeoutMs, intervals,
     *                                  timeouts) or a heartbeat interval is not below its timeout, or
     *                                  the merge minimum is not below the maximum
     */
    public ClusterTiming {
        positive("join timeout", joinTimeoutMs);
        positive("heartbeat interval", heartbeatIntervalMs);
        positive("heartbeat timeout", heartbeatTimeoutMs);
        positive("verify timeout", verifyTimeoutMs);
        positive("merge minimum interval", mergeMinIntervalMs);
        positive("merge maximum interval", mergeMaxIntervalMs);
        positive("view ack timeout", viewAckTimeoutMs);
        positive("connect timeout", connectTimeoutMs);
        positive("leave timeout", leaveTimeoutMs);
        positive("retransmit interval", retransmitIntervalMs);
        if (heartbeatIntervalMs >= heartbeatTimeoutMs) {
            throw new IllegalArgumentException("heartbeat interval " + heartbeatIntervalMs + " ms must be below the heartbeat timeout "
                    + heartbeatTimeoutMs + " ms");
        }
        if (mergeMinIntervalMs >= mergeMaxIntervalMs) {
            throw new IllegalArgumentException("merge minimum interval " + mergeMinIntervalMs + " ms must be below the maximum "
                    + mergeMaxIntervalMs + " ms");
        }
    }

    private static void positive(String what, long ms) {
        if (ms < 10) {
            throw new IllegalArgumentException(what + " " + ms + " ms is below 10 ms");
        }
    }

    /**
     * @param name {@code default} or {@code lab}, in any case
     * @return the preset of that name
     * @throws IllegalArgumentException naming the known presets when there is no such preset
     */
    public static ClusterTiming preset(String name) {
        switch (name.toLowerCase(Locale.ROOT)) {
            case "default":
                return DEFAULTS;
            case "lab":
                return LAB;
            default:
                throw new IllegalArgumentException("cluster timing \"" + name + "\" is not default or lab");
        }
    }

    /** @return a copy with this GMS join timeout, in ms */
    public ClusterTiming withJoinTimeout(long ms) {
        return new ClusterTiming(ms, heartbeatIntervalMs, heartbeatTimeoutMs, verifyTimeoutMs, mergeMinIntervalMs, mergeMaxIntervalMs,
                viewAckTimeoutMs, connectTimeoutMs, leaveTimeoutMs, retransmitIntervalMs);
    }

    /** @return a copy with this heartbeat interval and timeout, in ms */
    public ClusterTiming withHeartbeats(long intervalMs, long timeoutMs) {
        return new ClusterTiming(joinTimeoutMs, intervalMs, timeoutMs, verifyTimeoutMs, mergeMinIntervalMs, mergeMaxIntervalMs,
                viewAckTimeoutMs, connectTimeoutMs, leaveTimeoutMs, retransmitIntervalMs);
    }

    /** @return a copy with this suspect verification timeout, in ms */
    public ClusterTiming withVerifyTimeout(long ms) {
        return new ClusterTiming(joinTimeoutMs, heartbeatIntervalMs, heartbeatTimeoutMs, ms, mergeMinIntervalMs, mergeMaxIntervalMs,
                viewAckTimeoutMs, connectTimeoutMs, leaveTimeoutMs, retransmitIntervalMs);
    }

    /** @return a copy with these MERGE3 intervals, in ms */
    public ClusterTiming withMergeIntervals(long minMs, long maxMs) {
        return new ClusterTiming(joinTimeoutMs, heartbeatIntervalMs, heartbeatTimeoutMs, verifyTimeoutMs, minMs, maxMs,
                viewAckTimeoutMs, connectTimeoutMs, leaveTimeoutMs, retransmitIntervalMs);
    }

    /** @return a copy with this NAKACK2 and UNICAST3 retransmit interval, in ms */
    public ClusterTiming withRetransmitInterval(long ms) {
        return new ClusterTiming(joinTimeoutMs, heartbeatIntervalMs, heartbeatTimeoutMs, verifyTimeoutMs, mergeMinIntervalMs, mergeMaxIntervalMs,
                viewAckTimeoutMs, connectTimeoutMs, leaveTimeoutMs, ms);
    }

    /**
     * @return MERGE3's {@code check_interval}, how often a coordinator compares the views it heard:
     *         1.6 × {@link #mergeMaxIntervalMs} (JGroups' own rule), in ms
     */
    public long mergeCheckIntervalMs() {
        return mergeMaxIntervalMs * 16 / 10;
    }

    /**
     * @return an upper bound on the time from a daemon's death to the view without it, when its
     *         sockets close (kill, crash, SIGKILL): verification plus one view installation, in ms
     */
    public long killBoundMs() {
        return verifyTimeoutMs + VIEW_INSTALL_SLACK_MS;
    }

    /**
     * @return an upper bound on the time from a daemon's freeze (or silent loss of its host) to the
     *         view without it: the heartbeat timeout, one more check interval (FD_ALL3 counts silence
     *         in whole intervals), verification and one view installation, in ms
     */
    public long freezeBoundMs() {
        return heartbeatTimeoutMs + heartbeatIntervalMs + verifyTimeoutMs + VIEW_INSTALL_SLACK_MS;
    }

    /**
     * @return about how long after a partition heals every member holds every record again: the
     *         longest pause between two announcements (1.5 × max interval), one view comparison
     *         ({@link #mergeCheckIntervalMs}), one view installation, and two retransmit intervals for
     *         a record that arrived before its receiver installed the merge view, in ms
     */
    public long healBoundMs() {
        return mergeMaxIntervalMs * 3 / 2 + mergeCheckIntervalMs() + VIEW_INSTALL_SLACK_MS + 2 * retransmitIntervalMs;
    }

    /**
     * @return how long a member's holdings digest must differ from this daemon's, with neither
     *         changing, before this daemon sends that member its record again ({@code Repairs}):
     *         {@link #freezeBoundMs}, in ms (10 s by default, 5 s in the lab, 34 s in a view of 128
     *         members through {@link #forView}). A live member tells its new digest within a
     *         heartbeat interval or so of a change (JGroups retransmits what it took within a few
     *         retransmit intervals), and a frozen one, whose digest stays as it was, is dropped within
     *         this bound; so a pair of digests that stays different this long is neither a change
     *         still spreading nor a member that cannot answer, but a record lost before JGroups took it
     *         (with the heartbeat timeout, 20 s at 128 members, every member sent its record to a
     *         frozen member just before it was dropped)
     */
    public long repairGraceMs() {
        return freezeBoundMs();
    }

    /**
     * Members a view holds before heartbeats and merge rounds slow down with it. Up to this many,
     * every timing is as given; above, see {@link #forView}.
     */
    public static final int MEMBERS_PER_STEP = 32;

    /**
     * @param members the members of a view (at least 0)
     * @return how many times longer than given the heartbeat and merge intervals and the heartbeat
     *         timeout are in a view of that many members: 1 up to {@value #MEMBERS_PER_STEP}, then
     *         {@code ceil(members / 32)} (8 at 256 members, 32 at 1,024)
     */
    public static int stretch(int members) {
        return Math.max(1, (members + MEMBERS_PER_STEP - 1) / MEMBERS_PER_STEP);
    }

    /**
     * The timing a member applies while its view has that many members. Every member heartbeats to
     * every other and runs a merge round (a discovery to every member it knows) each interval, and
     * its retransmission tasks (NAKACK2's and UNICAST3's) walk every member's message table each
     * retransmit interval, so a view of n members costs each member about n messages or table walks
     * per interval and the whole cluster n²: above {@value #MEMBERS_PER_STEP} members the heartbeat
     * interval, heartbeat timeout, merge intervals and retransmit interval grow with {@link #stretch},
     * which keeps each member's work at about 32 heartbeats and table walks per interval whatever the
     * size, at the price of slower detection of a frozen member, slower healing and slower repair of
     * a lost message in large views ({@link #freezeBoundMs} and {@link #healBoundMs} of the returned
     * timing). Up to {@value #MEMBERS_PER_STEP} members (every real Mac cluster) nothing changes.
     *
     * @param members the members of the view
     * @return this timing when {@code stretch(members)} is 1, else a copy with those five values multiplied
     */
    public ClusterTiming forView(int members) {
        int s = stretch(members);
        return s == 1 ? this : withHeartbeats(heartbeatIntervalMs * s, heartbeatTimeoutMs * s)
                .withMergeIntervals(mergeMinIntervalMs * s, mergeMaxIntervalMs * s).withRetransmitInterval(retransmitIntervalMs * s);
    }

    /** @return a one-line summary for the start-up log */
    public String summary() {
        return "heartbeat " + heartbeatIntervalMs + " ms, suspect after " + heartbeatTimeoutMs + " ms, verify " + verifyTimeoutMs
                + " ms, join " + joinTimeoutMs + " ms, merge every " + mergeMinIntervalMs + "-" + mergeMaxIntervalMs + " ms";
    }
}
