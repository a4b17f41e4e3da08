package io.railmap.daemon.probe;

import static io.railmap.daemon.probe.Hellos.hello;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.railmap.matrix.model.PortRef;
import java.net.InetAddress;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What a forger, a replayer or a flood can do to the intake: the rules of {@link ProbeIntake},
 * {@link SenderFloors} and the bounds of {@link NeighbourTable}, fed bytes as the socket would.
 */
class ProbeIntakeTrustTest {
    private static final String FROM_B_ON_EN6 = "fe80:0:0:0:a0c9:c7ff:fea6:e077%3";
    private static final String FROM_B_ON_EN7 = "fe80:0:0:0:9c0a:ffff:fe09:caef%4";
    private static final String OWN_EN6_ADDRESS = "fe80:0:0:0:1:2:3:4";
    private static final ProbeKey KEY = ProbeKeys.of("cluster");

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final ProbeMetrics metrics = new ProbeMetrics(registry);
    private ProbeIntake intake = intake(Optional.empty(), ProbeLimits.DEFAULTS);

    private ProbeIntake intake(Optional<ProbeKey> key, ProbeLimits limits) {
        ProbeIntake made = new ProbeIntake(ProbeConfig.defaults("lab", "a", 1, "10.0.0.1:7246").withKey(key).withLimits(limits), metrics);
        made.portUp("en6", 3);
        made.portUp("en7", 4);
        return made;
    }

    @BeforeEach
    void ownAddresses() throws Exception {
        intake.localAddresses(List.of(InetAddress.getByName(OWN_EN6_ADDRESS), InetAddress.getByName("10.0.0.1")));
    }

    @Test
    void aDatagramFromThisMachinesOwnAddressIsLoopedBackNeverAFarEnd() {
        // a local process sent it on en6 with multicast loopback on: the kernel hands the copy back on en6
        intake.accept(OWN_EN6_ADDRESS + "%3", Hellos.encode(hello("b", "en9")), 0);

        assertThat(intake.view()).isEmpty();
        assertThat(metrics.droppedCount(DropReason.LOOPED)).isEqualTo(1);
    }

    @Test
    void aSourceThatIsNotLinkLocalIsDropped() {
        intake.accept("fd00:0:0:0:0:0:0:2%3", Hellos.encode(hello("b", "en7")), 0);
        intake.accept("example.com%3", Hellos.encode(hello("b", "en7")), 0);

        assertThat(intake.view()).isEmpty();
        assertThat(metrics.droppedCount(DropReason.SOURCE)).isEqualTo(2);
    }

    @Test
    void withAKeyOnlyHellosTaggedWithTheSameKeyAreTaken() {
        intake = intake(Optional.of(KEY), ProbeLimits.DEFAULTS);

        intake.accept(FROM_B_ON_EN6, Hellos.encode(hello("b", "en7")), 0);
        intake.accept(FROM_B_ON_EN6, ProbeCodec.encode(hello("b", "en7"), Optional.of(ProbeKeys.of("forger"))), 0);
        assertThat(intake.view()).isEmpty();
        intake.accept(FROM_B_ON_EN6, ProbeCodec.encode(hello("b", "en7"), Optional.of(KEY)), 0);

        assertThat(intake.view()).containsKey("en6");
        assertThat(metrics.droppedCount(DropReason.UNAUTHENTICATED)).isEqualTo(1);
        assertThat(metrics.droppedCount(DropReason.BAD_TAG)).isEqualTo(1);
    }

    @Test
    void aCapturedDatagramSentAgainOnTheSamePortIsAReplayEvenAsAGoodbye() {
        intake = intake(Optional.of(KEY), ProbeLimits.DEFAULTS);
        ProbeDatagram hello = hello("b", "en7");
        byte[] captured = ProbeCodec.encode(hello, Optional.of(KEY));
        byte[] goodbye = ProbeCodec.encode(hello.withTtlMs(0), Optional.of(KEY));
        intake.accept(FROM_B_ON_EN6, captured, 0);
        intake.accept(FROM_B_ON_EN6, ProbeCodec.encode(hello.withSeq(hello.seq() + 5), Optional.of(KEY)), 10);

        assertThat(intake.accept(FROM_B_ON_EN6, captured, 20)).isEmpty();
        assertThat(intake.accept(FROM_B_ON_EN6, goodbye, 30)).as("an old goodbye cannot remove the cable").isEmpty();

        assertThat(intake.view().get("en6")).containsExactly(PortRef.parse("b:en7"));
        assertThat(metrics.droppedCount(DropReason.REPLAY)).isEqualTo(2);
    }

    @Test
    void anOldCaptureSentOnAnotherPortOrAfterTheFarEndExpiredIsAReplay() {
        ProbeDatagram first = hello("b", "en7");
        byte[] captured = Hellos.encode(first);
        intake.accept(FROM_B_ON_EN6, captured, 0);
        // b keeps talking: its counter runs far ahead of the captured datagram
        intake.accept(FROM_B_ON_EN6, Hellos.encode(first.withSeq(first.seq() + 100)), 1000);
        intake.expire(1_000_000);
        assertThat(intake.view()).isEmpty();

        intake.accept(FROM_B_ON_EN7, captured, 1_000_001); // onto the other cable
        intake.accept(FROM_B_ON_EN6, captured, 1_000_002); // onto the same cable, after expiry

        assertThat(intake.view()).isEmpty();
        assertThat(metrics.droppedCount(DropReason.REPLAY)).isEqualTo(2);
    }

    @Test
    void oneDatagramHeardOnTwoPortsOfASegmentCountsOnBoth() {
        byte[] datagram = Hellos.encode(hello("b", "en7"));
        intake.accept(FROM_B_ON_EN6, datagram, 0);
        intake.accept(FROM_B_ON_EN7, datagram, 0);

        assertThat(intake.view()).containsOnlyKeys("en6", "en7");
        assertThat(metrics.droppedCount(DropReason.REPLAY)).isZero();
    }

    @Test
    void anOlderRunOfALiveSenderIsStaleButAfterItsNewerRunFellSilentItIsTaken() {
        intake.accept(FROM_B_ON_EN6, Hellos.encode(hello("b", "en7", 9, 3500)), 0);
        intake.accept(FROM_B_ON_EN7, Hellos.encode(hello("b", "en6", 5, 3500)), 100);
        assertThat(intake.view()).containsOnlyKeys("en6");
        assertThat(metrics.droppedCount(DropReason.STALE)).isEqualTo(1);

        // run 9 went silent for longer than any TTL this daemon believes: b restarted with its clock behind
        long later = ProbeTiming.DEFAULTS.maxAcceptedTtlMs() + 1;
        intake.expire(later);
        intake.accept(FROM_B_ON_EN7, Hellos.encode(hello("b", "en6", 5, 3500)), later);
        assertThat(intake.view()).containsOnlyKeys("en7");
    }

    @Test
    void theReceiverBoundsTheTtlWhateverTheSenderAsks() {
        intake.accept(FROM_B_ON_EN6, Hellos.encode(hello("b", "en7", 1, ProbeDatagram.MAX_TTL_MS)), 0);

        long cap = ProbeTiming.DEFAULTS.maxAcceptedTtlMs();
        assertThat(cap).isLessThan(ProbeDatagram.MAX_TTL_MS);
        assertThat(intake.neighbours().get("en6")).singleElement().satisfies(n -> assertThat(n.expiresAtMs()).isEqualTo(cap));
        assertThat(intake.expire(cap)).hasSize(1);
    }

    @Test
    void aFloodOfMadeUpFarEndsIsBoundedAndTheRealCablesStay() {
        intake = intake(Optional.empty(), new ProbeLimits(8, 12, 64, 64));
        intake.accept(FROM_B_ON_EN7, Hellos.encode(hello("b", "en6")), 0); // the real cable on en7
        for (int i = 0; i < 10_000; i++) {
            intake.accept(FROM_B_ON_EN6, Hellos.encode(hello("forged" + i, "x")), i);
        }
        // the real far end keeps being refreshed while the flood goes on
        List<NeighbourEvent> refreshed = intake.accept(FROM_B_ON_EN7, Hellos.encode(hello("b", "en6")), 10_000);

        assertThat(refreshed).isEmpty();
        assertThat(intake.neighbours().get("en6")).hasSizeLessThanOrEqualTo(8);
        assertThat(intake.neighbours().get("en7")).singleElement()
                .satisfies(n -> assertThat(n.farEnd()).isEqualTo(PortRef.parse("b:en6")));
        assertThat(metrics.droppedCount(DropReason.TABLE_FULL)).isGreaterThanOrEqualTo(10_000 - 8);
    }

    @Test
    void theWholeTableIsBoundedAcrossPorts() {
        intake = intake(Optional.empty(), new ProbeLimits(8, 10, 64, 64));
        for (int i = 0; i < 20; i++) {
            intake.accept(FROM_B_ON_EN6, Hellos.encode(hello("f" + i, "x")), 0);
            intake.accept(FROM_B_ON_EN7, Hellos.encode(hello("g" + i, "x")), 0);
        }
        int held = intake.neighbours().values().stream().mapToInt(List::size).sum();
        assertThat(held).isEqualTo(10);
    }

    @Test
    void aDatagramIsTakenAtMostOnceOnEachPortEvenAfterItsFarEndExpired() {
        intake = intake(Optional.of(KEY), ProbeLimits.DEFAULTS);
        // b was cabled to en6, then went away (or was recabled): its last datagrams are within the
        // reorder window of the newest this daemon took from b, and nothing newer ever comes
        ProbeDatagram last = hello("b", "en7");
        byte[] captured = ProbeCodec.encode(last, Optional.of(KEY));
        intake.accept(FROM_B_ON_EN6, captured, 0);
        long ttl = ProbeTiming.DEFAULTS.maxAcceptedTtlMs();
        intake.expire(ttl);
        assertThat(intake.view()).isEmpty();

        List<NeighbourEvent> again = intake.accept(FROM_B_ON_EN6, captured, ttl + 1);
        List<NeighbourEvent> otherPort = intake.accept(FROM_B_ON_EN7, captured, ttl + 2);
        intake.expire(2 * ttl + 2);
        List<NeighbourEvent> otherPortAgain = intake.accept(FROM_B_ON_EN7, captured, 2 * ttl + 3);

        assertThat(again).as("the same cable, after expiry").isEmpty();
        assertThat(otherPort).as("another cable, once: within the reorder window").hasSize(1);
        assertThat(otherPortAgain).as("that cable again, after expiry").isEmpty();
        assertThat(intake.view()).isEmpty();
        assertThat(metrics.droppedCount(DropReason.REPLAY)).isEqualTo(2);
    }

    @Test
    void afterThisDaemonRestartsACapturedHelloIsTakenOnceAndLastsOneAcceptedTtl() {
        ProbeDatagram hello = hello("b", "en7", 1, ProbeDatagram.MAX_TTL_MS);
        byte[] captured = ProbeCodec.encode(hello, Optional.of(KEY));
        intake = intake(Optional.of(KEY), ProbeLimits.DEFAULTS);
        intake.accept(FROM_B_ON_EN6, captured, 0);
        intake.accept(FROM_B_ON_EN6, ProbeCodec.encode(hello.withSeq(hello.seq() + 1_000), Optional.of(KEY)), 1_000);

        // this daemon restarts: what it remembered of b is gone, and b is silent (or on another cable)
        intake = intake(Optional.of(KEY), ProbeLimits.DEFAULTS);
        long start = 5_000_000;
        long cap = ProbeTiming.DEFAULTS.maxAcceptedTtlMs();
        List<NeighbourEvent> replayed = intake.accept(FROM_B_ON_EN6, captured, start);
        List<NeighbourEvent> replayedAgain = intake.accept(FROM_B_ON_EN6, captured, start + 1);

        assertThat(replayed).singleElement().isInstanceOf(NeighbourEvent.Found.class);
        assertThat(replayedAgain).isEmpty();
        assertThat(intake.neighbours().get("en6")).singleElement()
                .satisfies(n -> assertThat(n.expiresAtMs()).isEqualTo(start + cap));
        assertThat(intake.expire(start + cap - 1)).isEmpty();
        assertThat(intake.expire(start + cap)).singleElement().isInstanceOf(NeighbourEvent.Lost.class);
        assertThat(intake.accept(FROM_B_ON_EN6, captured, start + cap + 1)).isEmpty();
        assertThat(intake.view()).isEmpty();
        assertThat(metrics.droppedCount(DropReason.REPLAY)).isEqualTo(2);
    }
}
