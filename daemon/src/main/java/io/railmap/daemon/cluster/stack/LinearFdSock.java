package io.railmap.daemon.cluster.stack;

import java.util.Collection;
import java.util.List;
import org.jgroups.Address;
import org.jgroups.Event;
import org.jgroups.conf.ClassConfigurator;
import org.jgroups.protocols.FD_SOCK2;
import org.jgroups.util.Util;

/**
 * JGroups' FD_SOCK2 (failure detection by a TCP connection to the next member) whose handling of a
 * suspicion costs time linear in the view rather than quadratic.
 *
 * <p>FD_SOCK2 sends each suspicion to every member, and again every few seconds until the view
 * excludes the suspect; every member that hears one asks whether it is the coordinator that must
 * act (jgroups 5.5, {@code src/org/jgroups/protocols/FD_SOCK2.java}, {@code suspect}). To answer,
 * JGroups copies the membership GMS computes into a new {@code Membership}, a linked list that looks
 * for a duplicate before every add: n² address comparisons per suspicion heard, at 1,024 members
 * about half a million (docs/benchmarks.md, "At scale", has what it cost); a daemon pays it alone, a
 * few ms per suspicion. Here the answer
 * is the first member not suspected, which is the first member of the membership the stack's GMS
 * computes ({@link LinearMembershipPolicy#coordinatorWithout}), without computing it; everything
 * else is FD_SOCK2's: the same history, the same set of suspects kept, the same SUSPECT event up
 * and down the stack from the coordinator.
 *
 * <p>The wire is FD_SOCK2's (same protocol id, same headers): a daemon with plain FD_SOCK2 reads
 * every message. {@code LinearFdSockTest} checks that the coordinator, and only it, passes a
 * suspicion on.
 */
final class LinearFdSock extends FD_SOCK2 {
    LinearFdSock() {
        // FD_SOCK2's id, so that its headers are FD_SOCK2's on the wire and an older daemon reads them
        setId(ClassConfigurator.getProtocolId(FD_SOCK2.class));
    }

    /**
     * Takes suspects heard from a member (or found by this one): remembers them, and passes every
     * member suspected so far up and down the stack as one SUSPECT event when this member is the
     * coordinator of the membership without them.
     *
     * @param suspects the members suspected; this member itself is removed from it
     */
    @Override
    protected void suspect(Collection<Address> suspects) {
        if (suspects == null) {
            return;
        }
        suspects.remove(local_addr);
        for (Address s : suspects) {
            suspect_history.add(Util.utcNow() + ": " + s);
        }
        suspected_mbrs.add(suspects);
        List<Address> suspected = suspected_mbrs.getMembers();
        if (suspected.isEmpty()) {
            return;
        }
        if (local_addr != null && local_addr.equals(coordinatorWithout(suspected))) {
            log.debug("%s: suspecting %s", local_addr, suspected);
            up_prot.up(new Event(Event.SUSPECT, suspected));
            down_prot.down(new Event(Event.SUSPECT, suspected));
        }
    }

    /**
     * @param suspected members suspected
     * @return the first member of the membership without them (null when none is left), by the rules
     *         of the stack's GMS: {@link LinearMembershipPolicy}, which {@link ClusterStack} sets
     */
    private Address coordinatorWithout(List<Address> suspected) {
        return LinearMembershipPolicy.coordinatorWithout(members.getMembers(), suspected);
    }
}
