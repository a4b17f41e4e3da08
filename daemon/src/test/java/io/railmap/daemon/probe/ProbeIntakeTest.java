package io.railmap.daemon.probe;

import static io.railmap.daemon.probe.Hellos.hello;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.railmap.matrix.model.PortRef;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ProbeIntakeTest {
    private static final String EN6_SIDE = "fe80:0:0:0:a0c9:c7ff:fea6:e077%3";
    private static final String EN7_SIDE = "fe80:0:0:0:9c0a:ffff:fe09:caef%4";

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final ProbeMetrics metrics = new ProbeMetrics(registry);
    private final ProbeIntake intake = new ProbeIntake(ProbeConfig.defaults("lab", "a", 1, "10.0.0.1:7246"), metrics);

    @BeforeEach
    void twoPorts() {
        intake.portUp("en6", 3);
        intake.portUp("en7", 4);
    }

    @Test
    void theArrivalPortIsTheInterfaceNamedByTheSendersScopeId() {
        // Whatever socket read them, these datagrams arrived on interfaces 4 and 3.
        intake.accept(EN7_SIDE, Hellos.encode(hello("b", "en6")), 0);
        intake.accept(EN6_SIDE, Hellos.encode(hello("b", "en7")), 0);

        assertThat(intake.view()).containsExactly(
                Map.entry("en6", List.of(PortRef.parse("b:en7"))),
                Map.entry("en7", List.of(PortRef.parse("b:en6"))));
        assertThat(received("en6")).isEqualTo(1);
        assertThat(received("en7")).isEqualTo(1);
    }

    @Test
    void aScopeGivenAsAnInterfaceNameNamesThePortToo() {
        intake.accept("fe80::1%en7", Hellos.encode(hello("b", "en6")), 0);

        assertThat(intake.view()).containsOnlyKeys("en7");
    }

    @Test
    void aSenderWithoutScopeIsDroppedAsNoScope() {
        assertThat(intake.accept("fd00:0:0:0:0:0:0:2", Hellos.encode(hello("b", "en6")), 0)).isEmpty();
        assertThat(intake.accept("fe80::1%", Hellos.encode(hello("b", "en6")), 0)).isEmpty();

        assertThat(dropped(DropReason.NO_SCOPE)).isEqualTo(2);
        assertThat(intake.view()).isEmpty();
    }

    @Test
    void aDatagramFromAnInterfaceThatIsNotProbedIsDroppedAsUnknownPort() {
        intake.accept("fe80::1%9", Hellos.encode(hello("b", "en6")), 0);
        intake.accept("fe80::1%99999999999", Hellos.encode(hello("b", "en6")), 0);
        intake.accept("fe80::1%en8", Hellos.encode(hello("b", "en6")), 0);

        assertThat(dropped(DropReason.UNKNOWN_PORT)).isEqualTo(3);
        assertThat(intake.view()).isEmpty();
    }

    @Test
    void otherClustersAndThisNodeAreDroppedAndCounted() {
        intake.accept(EN6_SIDE, Hellos.encode(hello("b", "en7").withCluster("other")), 0);
        intake.accept(EN6_SIDE, Hellos.encode(hello("a", "en7")), 0);

        assertThat(dropped(DropReason.CLUSTER)).isEqualTo(1);
        assertThat(dropped(DropReason.SELF)).isEqualTo(1);
        assertThat(intake.view()).isEmpty();
    }

    @Test
    void malformedDatagramsAreDroppedWithTheirDecodeReason() {
        byte[] valid = Hellos.encode(hello("b", "en7"));
        byte[] badVersion = valid.clone();
        badVersion[4] = 9;

        intake.accept(EN6_SIDE, badVersion, 0);
        intake.accept(EN6_SIDE, Arrays.copyOf(valid, valid.length - 1), 0);
        intake.accept(EN6_SIDE, "hello, world".getBytes(), 0);

        assertThat(dropped(DropReason.VERSION)).isEqualTo(1);
        assertThat(dropped(DropReason.TRUNCATED)).isEqualTo(1);
        assertThat(dropped(DropReason.MAGIC)).isEqualTo(1);
        assertThat(intake.view()).isEmpty();
    }

    @Test
    void anOlderIncarnationIsDroppedAsStale() {
        intake.accept(EN6_SIDE, Hellos.encode(hello("b", "en7", 9, 3500)), 0);
        intake.accept(EN6_SIDE, Hellos.encode(hello("b", "en7", 8, 0)), 0);

        assertThat(dropped(DropReason.STALE)).isEqualTo(1);
        assertThat(intake.view()).containsOnlyKeys("en6");
    }

    @Test
    void everyDatagramIsCountedOnceAsReceivedOrDropped() {
        intake.accept(EN6_SIDE, Hellos.encode(hello("b", "en7")), 0);
        intake.accept(EN6_SIDE, Hellos.encode(hello("b", "en7", 1, 0)), 0);
        intake.accept(EN6_SIDE, new byte[3], 0);
        intake.accept("fe80::1%9", new byte[3], 0);

        double total = registry.find(ProbeMetrics.RECEIVED).counters().stream().mapToDouble(c -> c.count()).sum()
                + registry.find(ProbeMetrics.DROPPED).counters().stream().mapToDouble(c -> c.count()).sum();
        assertThat(total).isEqualTo(4);
    }

    @Test
    void everyDropReasonIsRegisteredAtZeroUpFront() {
        assertThat(registry.find(ProbeMetrics.DROPPED).counters()).hasSize(DropReason.values().length);
    }

    @Test
    void aPortGoingDownLosesItsNeighboursAndStopsAcceptingDatagrams() {
        intake.accept(EN6_SIDE, Hellos.encode(hello("b", "en7")), 0);

        assertThat(intake.portDown("en6"))
                .containsExactly(new NeighbourEvent.Lost("en6", PortRef.parse("b:en7"), LossCause.CARRIER));
        intake.accept(EN6_SIDE, Hellos.encode(hello("b", "en7")), 1);
        assertThat(intake.view()).isEmpty();
        assertThat(dropped(DropReason.UNKNOWN_PORT)).isEqualTo(1);
    }

    @Test
    void aPortThatComesBackUnderANewIndexIsNamedByTheNewIndexOnly() {
        intake.portUp("en6", 12);

        intake.accept(EN6_SIDE, Hellos.encode(hello("b", "en7")), 0);
        intake.accept("fe80::1%12", Hellos.encode(hello("b", "en7")), 0);

        assertThat(dropped(DropReason.UNKNOWN_PORT)).isEqualTo(1);
        assertThat(intake.view()).containsOnlyKeys("en6");
    }

    @Test
    void aRenamedInterfaceIsNamedByItsNewNameOnly() {
        intake.portUp("en8", 3); // en6, interface 3, renamed to en8

        intake.accept(EN6_SIDE, Hellos.encode(hello("b", "en7")), 0);
        intake.accept("fe80::1%en6", Hellos.encode(hello("b", "en7")), 0);

        assertThat(intake.view()).containsOnlyKeys("en8");
        assertThat(dropped(DropReason.UNKNOWN_PORT)).isEqualTo(1);
    }

    @Test
    void expiryIsPassedThrough() {
        intake.accept(EN6_SIDE, Hellos.encode(hello("b", "en7")), 0);

        assertThat(intake.expire(3500)).containsExactly(new NeighbourEvent.Lost("en6", PortRef.parse("b:en7"), LossCause.EXPIRED));
    }

    private double received(String port) {
        return registry.get(ProbeMetrics.RECEIVED).tag("port", port).counter().count();
    }

    private long dropped(DropReason reason) {
        return metrics.droppedCount(reason);
    }
}
