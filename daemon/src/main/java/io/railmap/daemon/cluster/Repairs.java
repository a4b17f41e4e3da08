package io.railmap.daemon.cluster;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * Anti-entropy on top of the holdings digests ({@link Holdings}): which members this daemon sends
 * its own record to because a record message was lost on the way to one of them. Pure rules with a
 * clock, no JGroups types; {@link RepairRounds} runs them on the send thread and sends.
 *
 * <p>Why: JGroups retransmits what it has accepted, but a record message it drops before that (its
 * receiver not yet in the sender's view, an address not yet known, a connection closed, a merge) is
 * never sent again. The receiver's digest then differs from the owner's and, unlike while a change
 * is spreading, neither changes any more.
 *
 * <p>Rule 1, a lost record: <em>when the digest member M last told this daemon differs from this
 * daemon's own, and neither has changed for a grace period ({@link io.railmap.daemon.cluster.config.ClusterTiming#repairGraceMs} of
 * the view's timing), send M this daemon's own record, once for that pair of digests, and every
 * member its holdings</em>. Only the owner can resend a record (a receiver takes a node's record only
 * from that node's current member, {@link RecordIntake}), and every owner of a record M lacks sees
 * M's digest differ. The holdings go to every member, as after every change, so that one daemon's
 * digests reach each member in the order sent.
 *
 * <p>Rule 2, a lost holdings message: <em>when a member sends this daemon a record it already holds
 * (rejected as stale), tell every member this daemon's holdings, once for that member and this
 * daemon's digest</em>. The member re-sent it because the digest it heard from this daemon differs
 * from its own.
 *
 * <p>Cost: a lost record costs about 2(n − 1) messages, once (M also sends its own record to
 * everyone, rejected as stale); a pair that stays different (a member whose records are full, one
 * whose view differs) one message, not one per period; rule 2 at most one holdings message to all
 * per member and digest. Nothing is sent while digests keep changing (joins, merges and churn
 * restart the grace period of the pairs they touch), to a frozen member (the grace period is the
 * freeze bound: it is dropped first), or while every digest equals this daemon's.
 *
 * <p>Limits: not repaired are a lost record whose owner never heard the lacking member's digest,
 * and a member that never heard this daemon's holdings at all; both show as agreement not reached
 * until the next change, never as reached where it is not.
 *
 * <p>Bounds: one entry per member whose holdings were heard, at most {@link Holdings#MAX_MEMBERS},
 * and every view drops the entries of members not in it.
 */
final class Repairs {
    /** A pair of digests: this daemon's and a member's. */
    private record Pair(String own, String heard) {
    }

    /** What is known of one member: its last digest, since when, the pair last repaired, the own digest last answered with. */
    private static final class Entry {
        String heard;
        long sinceNanos;
        Pair repaired;
        String answered;
    }

    /**
     * What a check found.
     *
     * @param members   the members to send the own record to now (each is marked repaired for its
     *                  current pair), in no particular order
     * @param nextNanos when some pair differs but is not yet due: the time until the first becomes
     *                  due, in ns; empty when no further check is needed until something changes
     */
    record Due(List<String> members, OptionalLong nextNanos) {
    }

    private final LongSupplier nanoClock;
    private final Map<String, Entry> byMember = new HashMap<>();
    private String own;
    private long ownSinceNanos;

    /** @param nanoClock a monotonic clock in ns ({@link System#nanoTime} in the daemon) */
    Repairs(LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
    }

    /** Notes this daemon's digest; its grace period starts again only when it differs from the last one noted. */
    synchronized void own(String digest) {
        if (!digest.equals(own)) {
            own = digest;
            ownSinceNanos = nanoClock.getAsLong();
        }
    }

    /**
     * Notes the digest a member told; its grace period starts again only when it differs from the
     * last one heard. A new member beyond {@link Holdings#MAX_MEMBERS} is ignored.
     */
    synchronized void heard(String member, String digest) {
        Entry e = entry(member);
        if (e == null) {
            return;
        }
        if (!digest.equals(e.heard)) {
            e.heard = digest;
            e.sinceNanos = nanoClock.getAsLong();
        }
    }

    /**
     * Notes that a member sent a record this daemon already holds.
     *
     * @param member    the member's identity
     * @param ownDigest this daemon's digest now
     * @return whether to send the member this daemon's holdings: the first time for this member and
     *         digest; never for a new member beyond {@link Holdings#MAX_MEMBERS}
     */
    synchronized boolean answer(String member, String ownDigest) {
        Entry e = entry(member);
        if (e == null || ownDigest.equals(e.answered)) {
            return false;
        }
        e.answered = ownDigest;
        return true;
    }

    /** @return the member's entry, made when missing; null for a new member beyond {@link Holdings#MAX_MEMBERS} */
    private Entry entry(String member) {
        Entry e = byMember.get(member);
        if (e == null && byMember.size() < Holdings.MAX_MEMBERS) {
            e = new Entry();
            byMember.put(member, e);
        }
        return e;
    }

    /** Forgets the members that are no longer in the view. */
    synchronized void retain(Set<String> members) {
        byMember.keySet().retainAll(members);
    }

    /**
     * Finds the members due a repair: in {@code view}, their digest differs from this daemon's, both
     * have stayed the same for at least {@code graceNanos}, and that pair was not repaired yet. Marks
     * them repaired.
     *
     * @param graceNanos the grace period, in ns (at least 0)
     * @param view       the identities of the current view's members
     * @return the members due, and when the next check is needed
     */
    synchronized Due due(long graceNanos, Set<String> view) {
        List<String> due = new ArrayList<>();
        if (own == null) {
            return new Due(due, OptionalLong.empty());
        }
        long now = nanoClock.getAsLong();
        long next = Long.MAX_VALUE;
        for (Map.Entry<String, Entry> m : byMember.entrySet()) {
            Entry e = m.getValue();
            Pair pair = new Pair(own, e.heard);
            if (e.heard == null || own.equals(e.heard) || pair.equals(e.repaired) || !view.contains(m.getKey())) {
                continue;
            }
            long stable = now - Math.max(ownSinceNanos, e.sinceNanos);
            if (stable >= graceNanos) {
                e.repaired = pair;
                due.add(m.getKey());
            } else {
                next = Math.min(next, graceNanos - stable);
            }
        }
        return new Due(due, next == Long.MAX_VALUE ? OptionalLong.empty() : OptionalLong.of(next));
    }

    /** @return how many members are tracked; for tests of the bound */
    synchronized int size() {
        return byMember.size();
    }
}
