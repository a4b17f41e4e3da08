package io.railmap.daemon.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.Test;

/** {@link StreamShares}: a table of the cases, then the attack as a seeded property. */
class StreamSharesTest {
    private static String decide(List<String> open, String peer) {
        StreamShares.Decision d = StreamShares.decide(open, peer, 4, 2);
        return d instanceof StreamShares.Admit ? "admit" : d instanceof StreamShares.Replace r ? "replace " + r.index() : "refuse";
    }

    @Test
    void theTable() {
        // a free slot; a peer within its share
        assertThat(decide(List.of(), "a")).isEqualTo("admit");
        assertThat(decide(List.of("a", "b"), "a")).isEqualTo("admit");
        // a peer at its share replaces its own oldest, whether or not slots are free
        assertThat(decide(List.of("b", "a", "a"), "a")).isEqualTo("replace 1");
        assertThat(decide(List.of("a", "b", "a", "b"), "b")).isEqualTo("replace 1");
        // every slot taken: a peer with fewer than the busiest minus one takes the busiest's oldest
        assertThat(decide(List.of("b", "a", "a", "c"), "d")).isEqualTo("replace 1");
        // of two busiest, the one whose oldest stream is oldest
        assertThat(decide(List.of("b", "a", "a", "b"), "c")).isEqualTo("replace 0");
        // as many as the busiest, or one less: refused (a swap would gain nothing)
        assertThat(decide(List.of("a", "b", "c", "d"), "e")).isEqualTo("refuse");
        assertThat(decide(List.of("a", "a", "b", "c"), "b")).isEqualTo("refuse");
    }

    /**
     * The attack: one peer opens streams without end, in any order with other peers' requests.
     * It never holds more than its share, and every other peer that asks gets a stream while it is
     * short of the slots an even split gives it.
     */
    @RepeatedTest(50)
    void onePeerNeverTakesMoreThanItsShare(RepetitionInfo repetition) {
        Random random = new Random(repetition.getCurrentRepetition());
        int max = 16;
        int perPeer = 4;
        List<String> open = new java.util.ArrayList<>();
        for (int step = 0; step < 500; step++) {
            String peer = random.nextInt(3) == 0 ? "peer-" + random.nextInt(6) : "attacker";
            StreamShares.Decision d = StreamShares.decide(open, peer, max, perPeer);
            long own = open.stream().filter(peer::equals).count();
            if (d instanceof StreamShares.Replace r) {
                open.remove(r.index());
                open.add(peer);
            } else if (d instanceof StreamShares.Admit) {
                open.add(peer);
            } else {
                long busiest = IntStream.range(0, open.size()).mapToLong(i -> open.stream().filter(open.get(i)::equals).count()).max()
                        .orElse(0);
                assertThat(own + 1).as("refused only when it holds about as many as the busiest").isGreaterThanOrEqualTo(busiest);
            }
            assertThat(open).hasSizeLessThanOrEqualTo(max);
            assertThat(open.stream().filter("attacker"::equals).count()).isLessThanOrEqualTo(perPeer);
            // a peer that got nothing only because of the attacker is impossible: the attacker never exceeds its share
        }
    }
}
