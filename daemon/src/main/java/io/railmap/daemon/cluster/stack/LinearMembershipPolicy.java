package io.railmap.daemon.cluster.stack;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.jgroups.Address;
import org.jgroups.stack.MembershipChangePolicy;

/**
 * GMS's membership rules, JGroups' own ({@code GMS.DefaultMembershipPolicy}, jgroups 5.5:
 * {@code src/org/jgroups/protocols/pbcast/GMS.java}), computed in time linear in the view rather than
 * quadratic. JGroups builds each new membership in its {@code Membership}, a linked list that looks
 * for a duplicate before every add, so one computation of a view of n members costs n² address
 * comparisons, and it is computed not only for each view but whenever a failure detector hears a
 * suspicion (FD_SOCK2 and FD_ALL3 ask GMS whether the member is the coordinator that must act),
 * which FD_SOCK2 sends to every member and again every few seconds until the view excludes the
 * suspect. At 1,024 members that is about a million comparisons per suspicion per member
 * (docs/benchmarks.md, "At scale", has what it cost). The
 * results are the same lists (same members, same order: {@code LinearMembershipPolicyTest} compares
 * them with JGroups' own over seeded random inputs).
 *
 * <ul>
 *   <li>A view change: the current members without the leavers and the suspects, in their order,
 *       then the joiners not already there, in theirs; no duplicate, no null.</li>
 *   <li>A merge: the coordinators of the non-empty subviews (each subview's first member), the least
 *       of them by address order first; then every member of every subview in the order the
 *       subviews give, each once.</li>
 * </ul>
 */
final class LinearMembershipPolicy implements MembershipChangePolicy {
    @Override
    public List<Address> getNewMembership(Collection<Address> currentMembers, Collection<Address> joiners,
                                          Collection<Address> leavers, Collection<Address> suspects) {
        Set<Address> members = new LinkedHashSet<>();
        addAll(members, currentMembers);
        leavers.forEach(members::remove);
        suspects.forEach(members::remove);
        addAll(members, joiners);
        return new ArrayList<>(members);
    }

    @Override
    public List<Address> getNewMembership(Collection<Collection<Address>> subviews) {
        Address coordinator = subviews.stream().filter(v -> !v.isEmpty()).map(v -> v.iterator().next()).filter(Objects::nonNull)
                .min(Address::compareTo).orElse(null);
        Set<Address> members = new LinkedHashSet<>();
        if (coordinator != null) {
            members.add(coordinator);
        }
        subviews.forEach(v -> addAll(members, v));
        return new ArrayList<>(members);
    }

    /**
     * The coordinator of the view without some suspects, the first member of
     * {@code getNewMembership(current, [], [], suspects)}, without building that membership: the first
     * current member that is not suspected. A failure detector asks this for every suspicion it
     * hears ({@link LinearFdSock}); it costs the members before the coordinator, not the view.
     *
     * @param current  the members in view order (nulls and duplicates allowed, as JGroups passes them)
     * @param suspects the members suspected
     * @return that coordinator; null when every member is suspected
     */
    static Address coordinatorWithout(List<Address> current, Collection<Address> suspects) {
        Set<Address> out = suspects.isEmpty() ? Set.of() : new java.util.HashSet<>(suspects);
        for (Address a : current) {
            if (a != null && !out.contains(a)) {
                return a;
            }
        }
        return null;
    }

    /** Adds each address not yet there, in order, skipping nulls (as JGroups' {@code Membership.add}). */
    private static void addAll(Set<Address> members, Collection<Address> more) {
        for (Address a : more) {
            if (a != null) {
                members.add(a);
            }
        }
    }
}
