package io.railmap.daemon.cluster.stack;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.jgroups.Address;
import org.jgroups.protocols.pbcast.GMS;
import org.jgroups.util.UUID;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.Test;

/** The linear policy gives JGroups' own {@code GMS.DefaultMembershipPolicy} results: same members, same order. */
class LinearMembershipPolicyTest {
    private final GMS.DefaultMembershipPolicy jgroups = new GMS.DefaultMembershipPolicy();
    private final LinearMembershipPolicy linear = new LinearMembershipPolicy();

    /** Property: a view change with members, joiners, leavers and suspects drawn from one pool (duplicates, overlaps, nulls). */
    @RepeatedTest(50)
    void aViewChangeGivesJGroupsOwnMembership(RepetitionInfo repetition) {
        Random random = new Random(104_729L * repetition.getCurrentRepetition());
        List<Address> pool = pool(random, 1 + random.nextInt(40));
        List<Address> current = draw(random, pool, random.nextInt(40));
        List<Address> joiners = draw(random, pool, random.nextInt(6));
        List<Address> leavers = draw(random, pool, random.nextInt(6));
        List<Address> suspects = draw(random, pool, random.nextInt(6));
        assertThat(linear.getNewMembership(current, joiners, leavers, suspects))
                .isEqualTo(jgroups.getNewMembership(current, joiners, leavers, suspects));
    }

    /** Property: the coordinator without some suspects is the first member of the view change that drops them. */
    @RepeatedTest(50)
    void theCoordinatorWithoutSuspectsIsTheFirstMemberOfTheViewWithoutThem(RepetitionInfo repetition) {
        Random random = new Random(15_485_863L * repetition.getCurrentRepetition());
        List<Address> pool = pool(random, 1 + random.nextInt(20));
        List<Address> current = draw(random, pool, random.nextInt(20));
        List<Address> suspects = draw(random, pool, random.nextInt(12));
        List<Address> next = jgroups.getNewMembership(current, List.of(), List.of(), suspects);
        assertThat(LinearMembershipPolicy.coordinatorWithout(current, suspects)).isEqualTo(next.isEmpty() ? null : next.get(0));
    }

    /** Property: a merge of up to five subviews that may overlap, one at least not empty. */
    @RepeatedTest(50)
    void aMergeGivesJGroupsOwnMembership(RepetitionInfo repetition) {
        Random random = new Random(7_919L * repetition.getCurrentRepetition());
        List<Address> pool = pool(random, 1 + random.nextInt(30));
        List<Collection<Address>> subviews = new ArrayList<>();
        subviews.add(draw(random, pool, 1 + random.nextInt(10)));
        for (int i = random.nextInt(5); i > 0; i--) {
            subviews.add(draw(random, pool, random.nextInt(10)));
        }
        Collections.shuffle(subviews, random);
        assertThat(linear.getNewMembership(subviews)).isEqualTo(jgroups.getNewMembership(subviews));
    }

    @Test
    void aViewOfAThousandMembersLosesItsSuspectsAndKeepsItsOrder() {
        List<Address> current = pool(new Random(1), 1_000);
        List<Address> suspects = List.of(current.get(0), current.get(500));
        List<Address> next = linear.getNewMembership(current, List.of(), List.of(), suspects);
        assertThat(next).hasSize(998).doesNotContainAnyElementsOf(suspects).startsWith(current.get(1));
        assertThat(next).isEqualTo(jgroups.getNewMembership(current, List.of(), List.of(), suspects));
    }

    private static List<Address> pool(Random random, int n) {
        List<Address> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new UUID(random.nextLong(), random.nextLong()));
        }
        return out;
    }

    /** @return {@code n} addresses from the pool, with repeats, and a null now and then */
    private static List<Address> draw(Random random, List<Address> pool, int n) {
        List<Address> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(random.nextInt(20) == 0 ? null : pool.get(random.nextInt(pool.size())));
        }
        return out;
    }
}
