package io.railmap.daemon.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.OptionalLong;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.Test;

/** The repair rule with plain values and a clock the test moves. */
class RepairsTest {
    private static final long GRACE = 3_000;
    private final AtomicLong now = new AtomicLong(1_000_000);
    private final Repairs repairs = new Repairs(now::get);

    private void after(long ns) {
        now.addAndGet(ns);
    }

    private Repairs.Due due(String... view) {
        return repairs.due(GRACE, Set.of(view));
    }

    @Test
    void aDifferingPairIsDueOnceAfterTheGracePeriodAndNotBefore() {
        repairs.own("x");
        repairs.heard("m", "y");
        repairs.heard("n", "x");
        after(GRACE - 1);
        assertThat(due("m", "n")).isEqualTo(new Repairs.Due(List.of(), OptionalLong.of(1)));
        after(1);
        assertThat(due("m", "n").members()).containsExactly("m");
        after(10 * GRACE);
        assertThat(due("m", "n")).as("once for that pair").isEqualTo(new Repairs.Due(List.of(), OptionalLong.empty()));
    }

    @Test
    void aChangeOnEitherSideStartsTheGracePeriodAgainAndANewPairIsDueAgain() {
        repairs.own("x");
        repairs.heard("m", "y");
        after(GRACE - 10);
        repairs.heard("m", "z");
        after(20);
        assertThat(due("m").nextNanos()).as("m's change restarted it").hasValue(GRACE - 20);
        repairs.heard("m", "z"); // the same digest again is no change
        after(GRACE);
        assertThat(due("m").members()).containsExactly("m");
        repairs.own("w");
        after(GRACE - 1);
        assertThat(due("m").members()).as("own changed: a new pair, not yet due").isEmpty();
        after(1);
        assertThat(due("m").members()).containsExactly("m");
        repairs.own("z");
        after(GRACE);
        assertThat(due("m")).as("agreement: nothing due, no check").isEqualTo(new Repairs.Due(List.of(), OptionalLong.empty()));
    }

    @Test
    void onlyMembersOfTheViewAreRepairedAndAViewForgetsTheOthers() {
        repairs.heard("m", "y");
        after(GRACE);
        assertThat(due("m").members()).as("before the own digest is known").isEmpty();
        repairs.own("x");
        repairs.heard("gone", "y");
        after(GRACE);
        assertThat(due("m").members()).containsExactly("m");
        repairs.retain(Set.of("m"));
        assertThat(repairs.size()).isEqualTo(1);
        for (int i = 0; i < Holdings.MAX_MEMBERS + 10; i++) {
            repairs.heard("member-" + i, "y");
        }
        assertThat(repairs.size()).isEqualTo(Holdings.MAX_MEMBERS);
    }

    @Test
    void aStaleRecordIsAnsweredOncePerMemberAndOwnDigestAndMakesNoRepair() {
        repairs.own("x");
        assertThat(repairs.answer("m", "x")).isTrue();
        assertThat(repairs.answer("m", "x")).as("the same digest again").isFalse();
        assertThat(repairs.answer("n", "x")).as("another member").isTrue();
        assertThat(repairs.answer("m", "w")).as("a new own digest").isTrue();
        after(10 * GRACE);
        assertThat(due("m", "n")).as("answered, never heard: nothing to repair").isEqualTo(new Repairs.Due(List.of(), OptionalLong.empty()));
        repairs.retain(Set.of("n"));
        assertThat(repairs.answer("m", "w")).as("m left and came back").isTrue();
        for (int i = 0; i < Holdings.MAX_MEMBERS + 10; i++) {
            repairs.answer("member-" + i, "x");
        }
        assertThat(repairs.size()).isEqualTo(Holdings.MAX_MEMBERS);
        assertThat(repairs.answer("member-" + (Holdings.MAX_MEMBERS + 5), "x")).as("beyond the bound").isFalse();
    }

    /**
     * Random digests heard and own changes at random times: a member is due exactly when its pair
     * differs, has stood for the grace period, and was not repaired before; and never twice for one pair.
     */
    @RepeatedTest(50)
    void randomHistoriesRepairEachStablePairOnce(RepetitionInfo info) {
        Random random = new Random(7_919L * info.getCurrentRepetition());
        String[] digests = {"x", "y", "z"};
        String[] members = {"m0", "m1", "m2", "m3"};
        java.util.Map<String, String> heard = new java.util.HashMap<>();
        java.util.Map<String, Long> heardSince = new java.util.HashMap<>();
        java.util.Map<String, String> repaired = new java.util.HashMap<>();
        String own = "x";
        long ownSince = now.get();
        repairs.own(own);
        for (int step = 0; step < 200; step++) {
            int what = random.nextInt(10);
            if (what < 3) {
                String m = members[random.nextInt(members.length)];
                String d = digests[random.nextInt(digests.length)];
                repairs.heard(m, d);
                if (!d.equals(heard.get(m))) {
                    heard.put(m, d);
                    heardSince.put(m, now.get());
                }
            } else if (what < 4) {
                String d = digests[random.nextInt(digests.length)];
                repairs.own(d);
                if (!d.equals(own)) {
                    own = d;
                    ownSince = now.get();
                }
            } else if (what < 6) {
                Repairs.Due due = due(members);
                for (String m : members) {
                    boolean expected = heard.containsKey(m) && !heard.get(m).equals(own)
                            && now.get() - Math.max(ownSince, heardSince.get(m)) >= GRACE
                            && !(own + "/" + heard.get(m)).equals(repaired.get(m));
                    assertThat(due.members().contains(m)).as("step %d, %s", step, m).isEqualTo(expected);
                    if (expected) {
                        repaired.put(m, own + "/" + heard.get(m));
                    }
                }
            } else {
                after(random.nextInt((int) GRACE));
            }
        }
    }
}
