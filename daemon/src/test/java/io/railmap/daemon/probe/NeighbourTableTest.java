package io.railmap.daemon.probe;

import static io.railmap.daemon.probe.Hellos.hello;
import static org.assertj.core.api.Assertions.assertThat;

import io.railmap.matrix.model.PortRef;
import java.util.List;
import org.junit.jupiter.api.Test;

class NeighbourTableTest {
    private final NeighbourTable table = new NeighbourTable();

    @Test
    void aHelloMakesTheSenderTheNeighbourOfTheArrivalPort() {
        List<NeighbourEvent> events = table.heard("en6", hello("b", "en7"), 1000);

        assertThat(events).singleElement().isInstanceOfSatisfying(NeighbourEvent.Found.class, found -> {
            assertThat(found.port()).isEqualTo("en6");
            assertThat(found.farEnd()).isEqualTo(PortRef.parse("b:en7"));
            assertThat(found.neighbour().expiresAtMs()).isEqualTo(4500);
            assertThat(found.neighbour().rdma()).contains("rdma_en7");
        });
        assertThat(table.view()).containsExactly(entry("en6", "b:en7"));
    }

    @Test
    void hearingTheSameFarEndAgainOnlyMovesItsExpiry() {
        table.heard("en6", hello("b", "en7"), 1000);

        assertThat(table.heard("en6", hello("b", "en7"), 3000)).isEmpty();
        assertThat(table.expire(4500)).isEmpty();
        assertThat(table.neighbours().get("en6")).singleElement()
                .satisfies(n -> assertThat(n.expiresAtMs()).isEqualTo(6500));
    }

    @Test
    void theTableLeavesSequenceNumbersToTheIntake() {
        // replays are judged once, by SenderFloors in ProbeIntake (ProbeIntakeTrustTest), which remembers
        // them after a far end expires; the table takes what it is given
        ProbeDatagram hello = hello("b", "en7");
        table.heard("en6", hello.withSeq(hello.seq() + 5), 1000);

        assertThat(table.admit("en6", hello)).isEqualTo(NeighbourTable.Admission.OK);
        assertThat(table.heard("en6", hello, 2000)).isEmpty();
        assertThat(table.neighbours().get("en6")).singleElement().satisfies(n -> assertThat(n.seq()).isEqualTo(hello.seq()));
    }

    @Test
    void aFarEndIsForgottenWhenItsTtlRunsOut() {
        table.heard("en6", hello("b", "en7"), 1000);

        assertThat(table.expire(4499)).isEmpty();
        assertThat(table.expire(4500)).containsExactly(new NeighbourEvent.Lost("en6", PortRef.parse("b:en7"), LossCause.EXPIRED));
        assertThat(table.view()).isEmpty();
        assertThat(table.expire(10_000)).isEmpty();
    }

    @Test
    void theNextExpiryIsTheFirstFarEndsAndNeverLaterThanIt() {
        assertThat(table.nextExpiryMs()).isEqualTo(Long.MAX_VALUE);
        table.heard("en6", hello("b", "en7"), 1000);
        table.heard("en7", hello("c", "en1", 1, 1000), 1200);
        assertThat(table.nextExpiryMs()).isEqualTo(2200);

        // refreshing the earliest far end leaves a lower bound until the next sweep makes it exact
        table.heard("en7", hello("c", "en1", 1, 3500), 2000);
        assertThat(table.nextExpiryMs()).isEqualTo(2200);
        assertThat(table.expire(2200)).isEmpty();
        assertThat(table.nextExpiryMs()).isEqualTo(4500);

        // a shorter TTL brings it forward at once
        table.heard("en6", hello("b", "en7", 1, 500), 2500);
        assertThat(table.nextExpiryMs()).isEqualTo(3000);
        assertThat(table.expire(3000)).containsExactly(new NeighbourEvent.Lost("en6", PortRef.parse("b:en7"), LossCause.EXPIRED));
        assertThat(table.nextExpiryMs()).isEqualTo(5500);
        assertThat(table.expire(5500)).hasSize(1);
        assertThat(table.nextExpiryMs()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void aGoodbyeForgetsTheFarEndAtOnce() {
        table.heard("en6", hello("b", "en7", 5, 3500), 1000);

        assertThat(table.heard("en6", hello("b", "en7", 5, 0), 1001))
                .containsExactly(new NeighbourEvent.Lost("en6", PortRef.parse("b:en7"), LossCause.GOODBYE));
        assertThat(table.view()).isEmpty();
    }

    @Test
    void aGoodbyeFromAFarEndNotHeardChangesNothing() {
        table.heard("en6", hello("b", "en7"), 1000);

        assertThat(table.heard("en7", hello("b", "en7", 1, 0), 1001)).isEmpty();
        assertThat(table.heard("en6", hello("c", "en7", 1, 0), 1001)).isEmpty();
        assertThat(table.view()).containsExactly(entry("en6", "b:en7"));
    }

    @Test
    void aNewerIncarnationReplacesTheOldAndIsReportedAsARestart() {
        table.heard("en6", hello("b", "en7", 5, 3500), 1000);

        List<NeighbourEvent> events = table.heard("en6", hello("b", "en7", 9, 3500), 2000);

        assertThat(events).singleElement().isInstanceOfSatisfying(NeighbourEvent.Restarted.class, r -> {
            assertThat(r.previousIncarnation()).isEqualTo(5);
            assertThat(r.neighbour().incarnation()).isEqualTo(9);
        });
        assertThat(table.neighbours().get("en6")).singleElement()
                .satisfies(n -> assertThat(n.incarnation()).isEqualTo(9));
    }

    @Test
    void anOlderIncarnationIsStaleAndChangesNothingNotEvenAsAGoodbye() {
        table.heard("en6", hello("b", "en7", 9, 3500), 1000);

        assertThat(table.admit("en6", hello("b", "en7", 5, 3500))).isEqualTo(NeighbourTable.Admission.STALE);
        assertThat(table.admit("en6", hello("b", "en7", 9, 3500))).isEqualTo(NeighbourTable.Admission.OK);
        assertThat(table.admit("en7", hello("b", "en7", 5, 3500))).isEqualTo(NeighbourTable.Admission.OK);
        assertThat(table.heard("en6", hello("b", "en7", 5, 60_000), 2000)).isEmpty();
        assertThat(table.heard("en6", hello("b", "en7", 5, 0), 2000)).isEmpty();
        assertThat(table.neighbours().get("en6")).singleElement().satisfies(n -> {
            assertThat(n.incarnation()).isEqualTo(9);
            assertThat(n.expiresAtMs()).isEqualTo(4500);
        });
    }

    @Test
    void losingCarrierForgetsEverythingThatPortHeardAndNothingElse() {
        table.heard("en6", hello("b", "en7"), 1000);
        table.heard("en6", hello("c", "en1"), 1000);
        table.heard("en7", hello("b", "en6"), 1000);

        assertThat(table.carrierLost("en6")).containsExactly(
                new NeighbourEvent.Lost("en6", PortRef.parse("b:en7"), LossCause.CARRIER),
                new NeighbourEvent.Lost("en6", PortRef.parse("c:en1"), LossCause.CARRIER));
        assertThat(table.view()).containsExactly(entry("en7", "b:en6"));
        assertThat(table.carrierLost("en6")).isEmpty();
    }

    @Test
    void severalFarEndsOnOnePortAreAllKept() {
        table.heard("en6", hello("c", "en1"), 1000);
        table.heard("en6", hello("b", "en7"), 1000);
        table.heard("en6", hello("b", "en10"), 1000);

        assertThat(table.view().get("en6")).containsExactly(
                PortRef.parse("b:en7"), PortRef.parse("b:en10"), PortRef.parse("c:en1"));
    }

    @Test
    void theSameFarEndHeardOnTwoPortsIsKeptAndExpiresPerPort() {
        table.heard("en6", hello("b", "en7"), 1000);
        table.heard("en7", hello("b", "en7"), 2000);

        assertThat(table.expire(4500)).containsExactly(new NeighbourEvent.Lost("en6", PortRef.parse("b:en7"), LossCause.EXPIRED));
        assertThat(table.view()).containsExactly(entry("en7", "b:en7"));
    }

    @Test
    void portsAreListedInNaturalOrder() {
        table.heard("en10", hello("b", "x"), 0);
        table.heard("en2", hello("b", "y"), 0);
        table.heard("en6", hello("b", "z"), 0);

        assertThat(table.view().keySet()).containsExactly("en2", "en6", "en10");
    }

    @Test
    void theViewIsACopy() {
        table.heard("en6", hello("b", "en7"), 0);
        var before = table.view();

        table.carrierLost("en6");

        assertThat(before).containsExactly(entry("en6", "b:en7"));
    }

    private static java.util.Map.Entry<String, List<PortRef>> entry(String port, String... farEnds) {
        return java.util.Map.entry(port, java.util.Arrays.stream(farEnds).map(PortRef::parse).toList());
    }
}
