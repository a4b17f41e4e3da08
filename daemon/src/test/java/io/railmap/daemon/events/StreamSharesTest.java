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
        // a peer at its share is refused, whether or not slots are free: its own streams are never closed for it
        assertThat(decide(List.of("b", "a", "a"), "a")).isEqualTo("refuse");
        assertThat(decide(List.of("a", "b", "a", "b"), "b")).isEqualTo("refuse");
        // every slot taken: a peer with fewer than the busiest minus one takes the busiest's oldest
        assertThat(decide(List.of("b", "a", "a", "c"), "d")).isEqualTo("replace 1");
        // of two busiest, the one whose oldest stream is oldest
        assertThat(decide(List.of("b", "a", "a", "b"), "c")).isEqualTo("replace 0");
        // as many as the busiest, or one less: refused (a swap would gain nothing)
        assertThat(decide(List.of("a", "b", "c", "d"), "e")).isEqualTo("refuse");
        assertThat(decide(List.of("a", "a", "b", "c"), "b")).isEqualTo("refuse");
    }

    /**
     * The attack: one peer opens streams without end, in any order with other peers' requests
     * (and a stream closed for another is asked for again, as clients do). The attacker never holds
     * more than its share, a refused peer holds about as many as the busiest, and replacements stop:
     * once the requests stop changing, asking again changes nothing (no churn).
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
        }
        // every open stream's peer asks once more (a closed one reconnects): nothing is replaced any more
        for (String peer : List.copyOf(open)) {
            List<String> without = new java.util.ArrayList<>(open);
            without.remove(peer);
            assertThat(StreamShares.decide(without, peer, max, perPeer)).isNotInstanceOf(StreamShares.Replace.class);
        }
    }
}
