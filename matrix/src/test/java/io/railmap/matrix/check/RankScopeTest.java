package io.railmap.matrix.check;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A rank list names each node once, so a finding's ranks are one per node. */
class RankScopeTest {
    @Test
    void aNodeGivenTwiceIsRefusedNamingItAndBothRanks() {
        assertThatThrownBy(() -> RankScope.of(List.of("a", "b", "a")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("node a is both rank 0 and rank 2");
    }

    @Test
    void eachNodeInScopeGivesItsOneRank() {
        RankScope scope = RankScope.of(List.of("b", "a"));
        assertThat(scope.onNodes("a", "c", "b")).contains(List.of(1, 0));
        assertThat(scope.onNodes("c")).isEmpty();
    }
}
