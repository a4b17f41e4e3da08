package io.railmap.daemon.probe;

import static org.assertj.core.api.Assertions.assertThat;

import io.railmap.matrix.model.PortRef;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class NeighbourEventTest {
    private static final Neighbour B_EN7 = new Neighbour(PortRef.parse("b:en7"), Optional.empty(), "02", 9, 1, "10.0.0.2:7246", 0, 3500);

    @Test
    void eachEventIsOneLogLineNamingPortFarEndAndWhatHappened() {
        assertThat(new NeighbourEvent.Found("en6", B_EN7).describe())
                .isEqualTo("en6: neighbour b:en7 found (incarnation 9, API 10.0.0.2:7246)");
        assertThat(new NeighbourEvent.Restarted("en6", B_EN7, 4).describe())
                .isEqualTo("en6: neighbour b:en7 restarted (incarnation 4 -> 9)");
        assertThat(new NeighbourEvent.Lost("en6", PortRef.parse("b:en7"), LossCause.GOODBYE).describe())
                .isEqualTo("en6: neighbour b:en7 lost (goodbye)");
    }

    @Test
    void everyKindOfEventIsCoveredAbove() {
        assertThat(List.of(NeighbourEvent.class.getPermittedSubclasses()))
                .containsExactlyInAnyOrder(NeighbourEvent.Found.class, NeighbourEvent.Restarted.class, NeighbourEvent.Lost.class);
    }

    @Test
    void everyLossCauseHasWords() {
        for (LossCause cause : LossCause.values()) {
            assertThat(new NeighbourEvent.Lost("en6", PortRef.parse("b:en7"), cause).describe()).endsWith("(" + cause.words() + ")");
        }
    }
}
