package io.railmap.daemon.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.railmap.daemon.cluster.RecordIntake.Receipt;
import io.railmap.daemon.cluster.RecordIntake.ViewChange;
import io.railmap.daemon.cluster.RecordIntake.ViewMember;
import io.railmap.daemon.engine.Engine;
import io.railmap.matrix.model.FarEndSource;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.model.PortState;
import io.railmap.matrix.model.SwitchPort;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The rules of dissemination on a real engine: which record is taken, kept, parked or rejected. */
class RecordIntakeTest {
    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final Engine engine = new Engine("a");
    private final ClusterMetrics metrics = new ClusterMetrics(new SimpleMeterRegistry(), () -> 0);
    private final RecordIntake intake = new RecordIntake(engine, metrics, nanos::get);

    private static final ViewMember A = member("a", 1, true);
    private static final ViewMember B = member("b", 2, false);
    private static final ViewMember C = member("c", 3, false);

    /** A member whose identity is a UUID ending in {@code n}, as a railmapd's member is its incarnation. */
    private static ViewMember member(String node, int n, boolean self) {
        return new ViewMember(String.format("00000000-0000-4000-8000-%012d", n), Optional.of(node), "10.0.0." + n + ":7800", self);
    }

    /** A record of node {@code node} as its member with identity ending in the node's position sends it. */
    private static NodeRecord record(String node, long version, String... netdevs) {
        return record(Map.of("a", A, "b", B, "c", C).get(node), node, version, netdevs);
    }

    private static NodeRecord record(ViewMember by, String node, long version, String... netdevs) {
        List<Port> ports = new ArrayList<>();
        for (String n : netdevs) {
            ports.add(new Port(node, n, Optional.empty(), 1, PortKind.ETHERNET, Optional.of(100.0), PortState.ACTIVE, Optional.empty(),
                    List.of()));
        }
        return new NodeRecord(node, version, ports, Optional.empty(), Optional.empty(), Optional.of(UUID.fromString(by.id())));
    }

    private Optional<RejectReason> from(ViewMember sender, NodeRecord record) {
        return receipt(sender, record).rejected();
    }

    private Receipt receipt(ViewMember sender, NodeRecord record) {
        byte[] bytes = RecordMessages.encode(record, ClusterProtocol.THIS);
        return intake.receive(sender.id(), sender.node(), bytes, 0, bytes.length);
    }

    private Optional<RejectReason> raw(ViewMember sender, byte[] bytes) {
        return intake.receive(sender.id(), sender.node(), bytes, 0, bytes.length).rejected();
    }

    private List<String> ports(String node) {
        return engine.snapshot().record(node).map(r -> r.ports().stream().map(Port::netdev).toList()).orElse(List.of());
    }

    @Test
    void withinAnIncarnationTheNewestVersionWinsWhateverTheOrderAndDuplicatesChangeNothing() {
        intake.view(1, List.of(A, B));

        assertThat(from(B, record("b", 5, "five"))).isEmpty();
        assertThat(from(B, record("b", 5, "five"))).contains(RejectReason.STALE);
        assertThat(from(B, record("b", 3, "three"))).contains(RejectReason.STALE);
        assertThat(from(B, record("b", 7, "seven"))).isEmpty();
        assertThat(from(B, record("b", 6, "six"))).contains(RejectReason.STALE);

        assertThat(ports("b")).containsExactly("seven");
        assertThat(metrics.receivedCount()).isEqualTo(5);
        assertThat(metrics.rejectedCount(RejectReason.STALE)).isEqualTo(3);
    }

    @Test
    void aMemberThatLeavesTakesItsRecordAlongAndNothingElseGoes() {
        intake.view(1, List.of(A, B, C));
        from(B, record("b", 1, "x"));
        from(C, record("c", 1, "y"));

        ViewChange change = intake.view(2, List.of(A, B));

        assertThat(change.left()).containsExactly(C);
        assertThat(change.joined()).isEmpty();
        assertThat(change.dropped()).containsExactly("c");
        assertThat(engine.snapshot().nodes()).containsExactly("a", "b");
    }

    @Test
    void aRecordFromANodeNoLongerAMemberNeverReturnsIt() {
        intake.view(1, List.of(A, B, C));
        from(B, record("b", 1, "x"));
        from(C, record("c", 1, "y"));
        intake.view(2, List.of(A, B));

        // a late message of c, handled after the view that dropped c
        assertThat(from(C, record("c", 9, "late"))).isEmpty();
        assertThat(engine.snapshot().nodes()).containsExactly("a", "b");
        assertThat(intake.parkedCount()).isEqualTo(1);

        intake.view(3, List.of(A, B));

        assertThat(engine.snapshot().nodes()).containsExactly("a", "b");
        assertThat(intake.parkedCount()).isZero();
        assertThat(metrics.rejectedCount(RejectReason.NOT_MEMBER)).isEqualTo(1);
    }

    @Test
    void aRecordThatArrivesBeforeTheViewAdmittingItsSenderIsTakenWithThatView() {
        intake.view(1, List.of(A, B));
        from(B, record("b", 1, "x"));
        assertThat(from(C, record("c", 1, "early"))).isEmpty();
        assertThat(from(C, record("c", 2, "newer"))).isEmpty();
        assertThat(from(C, record("c", 1, "older"))).isEmpty();
        assertThat(engine.snapshot().nodes()).containsExactly("a", "b");

        ViewChange change = intake.view(2, List.of(A, B, C));

        assertThat(change.joined()).containsExactly(C);
        assertThat(ports("c")).containsExactly("newer");
        assertThat(intake.parkedCount()).isZero();
        assertThat(metrics.rejectedCount(RejectReason.NOT_MEMBER)).isZero();
    }

    @Test
    void aMemberSendsOnlyItsOwnRecordAndNobodyWritesThisNodes() {
        intake.view(1, List.of(A, B, C));

        assertThat(from(B, record(B, "c", 50, "forged"))).contains(RejectReason.FOREIGN);
        assertThat(from(B, record(B, "a", 50, "forged"))).contains(RejectReason.FOREIGN);
        // b's node, but C's incarnation: not the record of the start of b that sent it
        Receipt otherRun = receipt(B, record(C, "b", 50, "forged"));
        assertThat(otherRun.rejected()).contains(RejectReason.FOREIGN);
        assertThat(otherRun.why()).isEqualTo("a record of node b of incarnation " + C.id() + ", sent by member " + B.id());
        ViewMember impostor = member("a", 9, false);
        intake.view(2, List.of(A, B, C, impostor));
        assertThat(from(impostor, record(impostor, "a", 1_000_000, "forged"))).contains(RejectReason.OWN);
        ViewMember stranger = new ViewMember("00000000-0000-4000-8000-000000000008", Optional.empty(), "10.0.0.8:7800", false);
        intake.view(3, List.of(A, B, C, stranger));
        assertThat(from(stranger, record(stranger, "x", 1, "p"))).contains(RejectReason.FOREIGN);

        assertThat(engine.snapshot().nodes()).containsExactly("a");
        assertThat(engine.record().ports()).isEmpty();
        assertThat(metrics.rejectedCount(RejectReason.FOREIGN)).isEqualTo(4);
        assertThat(metrics.rejectedCount(RejectReason.OWN)).isEqualTo(1);
    }

    @Test
    void garbageIsCountedAndTheNextRecordIsStillTaken() {
        intake.view(1, List.of(A, B));
        String header = "{\"protocol\":{\"min\":1,\"max\":1,\"current\":1},\"record\":";
        Stream.of(new byte[0], "{".getBytes(StandardCharsets.UTF_8), new byte[] {(byte) 0xff, (byte) 0xfe, '{', '}'},
                // a bare record, without the protocol
                "{\"node\":\"b\",\"version\":1,\"ports\":[]}".getBytes(StandardCharsets.UTF_8),
                (header + "{\"node\":\"b c\",\"incarnation\":\"" + B.id() + "\",\"version\":1,\"ports\":[]}}").getBytes(StandardCharsets.UTF_8))
                .forEach(bytes -> assertThat(raw(B, bytes)).contains(RejectReason.MALFORMED));

        assertThat(from(B, record("b", 1, "ok"))).isEmpty();
        assertThat(ports("b")).containsExactly("ok");
        assertThat(metrics.rejectedCount(RejectReason.MALFORMED)).isEqualTo(5);
    }

    @Test
    void aRestartedDaemonsRecordReplacesTheOldOneWhateverItsVersionAndTheOldRunsRecordsAreRefused() {
        ViewMember oldB = B;
        ViewMember newB = member("b", 22, false);
        intake.view(1, List.of(A, oldB, C));
        // the first run's versions came from a wall clock that was ahead; after the restart the clock is
        // behind, and versions no longer come from any clock: the new run starts again at 1
        assertThat(from(oldB, record(oldB, "b", 1_795_361_613_310L, "old"))).isEmpty();

        // this daemon's own clock goes backwards too (it is only used for ages)
        nanos.addAndGet(-60_000_000_000L);
        ViewChange restart = intake.view(2, List.of(A, oldB, C, newB));
        assertThat(restart.duplicates()).containsExactly(Map.entry("b", List.of("10.0.0.2:7800", "10.0.0.22:7800")));
        // the old run is superseded at once: its record leaves with the view that admits the new run
        assertThat(restart.dropped()).containsExactly("b");
        assertThat(from(oldB, record(oldB, "b", 1_795_361_613_311L, "old-late"))).contains(RejectReason.SUPERSEDED);
        assertThat(from(newB, record(newB, "b", 1, "new"))).isEmpty();
        assertThat(ports("b")).containsExactly("new");
        assertThat(from(newB, record(newB, "b", 2, "newer"))).isEmpty();
        assertThat(from(newB, record(newB, "b", 1, "new"))).contains(RejectReason.STALE);

        ViewChange oldGone = intake.view(3, List.of(A, C, newB));
        assertThat(oldGone.dropped()).isEmpty();
        assertThat(oldGone.duplicates()).isEmpty();
        assertThat(ports("b")).containsExactly("newer");
        assertThat(engine.snapshot().record("b").orElseThrow().incarnation()).contains(UUID.fromString(newB.id()));
        assertThat(metrics.rejectedCount(RejectReason.SUPERSEDED)).isEqualTo(1);
        nanos.addAndGet(-1_000_000_000L); // and back again: an age is never negative
        assertThat(intake.membership("lab", id -> "?").members()).filteredOn(m -> m.node().equals(Optional.of("b")))
                .singleElement().satisfies(m -> {
                    assertThat(m.recordVersion()).hasValue(2);
                    assertThat(m.recordAgeMs()).hasValue(0);
                });
    }

    @Test
    void whenTheLaterOfTwoMembersOfANodeLeavesItsRecordGoesAndTheEarliersIsTakenAgain() {
        ViewMember other = member("b", 22, false);
        intake.view(1, List.of(A, B, C, other));
        assertThat(from(B, record("b", 5, "first"))).contains(RejectReason.SUPERSEDED);
        assertThat(from(other, record(other, "b", 1, "second"))).isEmpty();

        ViewChange left = intake.view(2, List.of(A, B, C));

        assertThat(left.dropped()).containsExactly("b");
        assertThat(engine.snapshot().nodes()).containsExactly("a");
        // every member sends its record after every view: the remaining member's is taken
        assertThat(from(B, record("b", 5, "first"))).isEmpty();
        assertThat(ports("b")).containsExactly("first");
    }

    @Test
    void aRecordThatArrivedBeforeTheViewIsJudgedAgainstItsNodesCurrentMember() {
        ViewMember newB = member("b", 22, false);
        intake.view(1, List.of(A, B));
        assertThat(from(newB, record(newB, "b", 1, "early"))).isEmpty();
        assertThat(intake.parkedCount()).isEqualTo(1);

        intake.view(2, List.of(A, B, newB));

        assertThat(ports("b")).containsExactly("early");
        assertThat(from(B, record("b", 9, "old-run"))).contains(RejectReason.SUPERSEDED);
    }

    @Test
    void whyAMessageWasRejectedIsKeptForTheLogAndBounded() {
        intake.view(1, List.of(A, B));
        String longName = "x".repeat(5_000);
        byte[] bad = ("{\"protocol\":{\"min\":1,\"max\":1,\"current\":1},\"record\":{\"node\":\"b\",\"incarnation\":\"" + B.id()
                + "\",\"version\":1,\"ports\":[{\"netdev\":\"en1\",\"kind\":\"ethernet\",\"state\":\"active\",\"rateGbps\":\""
                + longName + "\"}]}}").getBytes(StandardCharsets.UTF_8);

        Receipt receipt = intake.receive(B.id(), B.node(), bad, 0, bad.length);

        assertThat(receipt.rejected()).contains(RejectReason.MALFORMED);
        assertThat(receipt.why()).startsWith("record from b: at $.record.ports[0].rateGbps: expected a number, found the string \"xxx")
                .hasSizeLessThan(RecordIntake.MAX_WHY_CHARS + 20).doesNotContain("\n");
    }

    @Test
    void aNewerProtocolsRecordIsTakenWithoutWhatThisDaemonDoesNotKnow() {
        intake.view(1, List.of(A, B));
        byte[] next = RecordMessages.encode(record("b", 3, "en1", "en2"), ClusterProtocol.SIMULATED_NEXT);

        Receipt receipt = intake.receive(B.id(), B.node(), next, 0, next.length);

        assertThat(receipt.rejected()).isEmpty();
        assertThat(receipt.sender()).contains(ClusterProtocol.SIMULATED_NEXT);
        assertThat(receipt.skipped()).contains("$.record.simulatedNext: unknown field ignored",
                "$.record.ports[2]: port simnext0 of kind \"simulated-next\" left out (a kind this daemon does not know)");
        assertThat(engine.snapshot().record("b")).contains(record("b", 3, "en1", "en2"));
    }

    @Test
    void aMessageOfAProtocolThisDaemonDoesNotReadIsRejectedSayingWhichVersionsEachSideSpeaks() {
        RecordIntake newer = new RecordIntake(engine, metrics, nanos::get, RecordIntake.MAX_RECORDS, 16L << 20,
                new ClusterProtocol(2, 3, 3));
        newer.view(1, List.of(A, B));
        byte[] old = RecordMessages.encode(record("b", 3, "en1"), ClusterProtocol.THIS);

        Receipt tooOld = newer.receive(B.id(), B.node(), old, 0, old.length);

        assertThat(tooOld.rejected()).contains(RejectReason.PROTOCOL);
        assertThat(tooOld.why()).isEqualTo("record from b: it writes protocol 1 (it knows 1); this daemon reads protocol 2–3: upgrade that daemon");
        assertThat(engine.snapshot().nodes()).containsExactly("a");
        assertThat(metrics.rejectedCount(RejectReason.PROTOCOL)).isEqualTo(1);
    }

    @Test
    void membershipListsTheViewInOrderWithTheVersionAndAgeOfEachRecord() {
        intake.view(7, List.of(B, A, C));
        from(B, record("b", 4, "x"));
        nanos.addAndGet(1_500_000_000L);
        intake.ownChanged();
        nanos.addAndGet(250_000_000L);

        Membership m = intake.membership("lab", id -> id.equals(B.id()) ? "10.0.0.22:7800" : "?");

        assertThat(m.cluster()).isEqualTo("lab");
        assertThat(m.viewId()).isEqualTo(7);
        assertThat(m.members()).containsExactly(
                new Member(Optional.of("b"), "10.0.0.22:7800", false, true, OptionalLong.of(4), OptionalLong.of(1_750)),
                new Member(Optional.of("a"), "10.0.0.1:7800", true, false, OptionalLong.of(0), OptionalLong.of(250)),
                new Member(Optional.of("c"), "10.0.0.3:7800", false, false, OptionalLong.empty(), OptionalLong.empty()));
    }

    @Test
    void beyondTheRecordBoundRecordsOfNewNodesAreRejectedWhileHeldOnesKeepUpdating() {
        RecordIntake small = new RecordIntake(engine, metrics, nanos::get, 3, 1 << 20, ClusterProtocol.THIS);
        List<ViewMember> members = new ArrayList<>(List.of(A));
        for (int i = 0; i < 5; i++) {
            members.add(member("n" + i, 100 + i, false));
        }
        small.view(1, members);
        List<Optional<RejectReason>> results = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            ViewMember m = members.get(i + 1);
            byte[] bytes = RecordMessages.encode(record(m, "n" + i, 1, "en1"), ClusterProtocol.THIS);
            results.add(small.receive(m.id(), m.node(), bytes, 0, bytes.length).rejected());
        }
        byte[] update = RecordMessages.encode(record(members.get(1), "n0", 2, "en1", "en2"), ClusterProtocol.THIS);

        assertThat(results).containsExactly(Optional.empty(), Optional.empty(), Optional.of(RejectReason.FULL),
                Optional.of(RejectReason.FULL), Optional.of(RejectReason.FULL));
        assertThat(small.receive(members.get(1).id(), Optional.of("n0"), update, 0, update.length).rejected()).isEmpty();
        assertThat(engine.snapshot().nodes()).containsExactly("a", "n0", "n1");
        assertThat(ports("n0")).containsExactly("en1", "en2");
    }

    @Test
    void theBytesOfRecordsHeldAreBounded() {
        byte[] one = RecordMessages.encode(record("b", 1, "en1"), ClusterProtocol.THIS);
        RecordIntake small = new RecordIntake(engine, metrics, nanos::get, 100, one.length + 10L, ClusterProtocol.THIS);
        small.view(1, List.of(A, B, C));
        assertThat(small.receive(B.id(), B.node(), one, 0, one.length).rejected()).isEmpty();
        byte[] two = RecordMessages.encode(record("c", 1, "en1"), ClusterProtocol.THIS);
        assertThat(small.receive(C.id(), C.node(), two, 0, two.length).rejected()).contains(RejectReason.FULL);
        // when b leaves, its bytes are freed and c's record fits
        small.view(2, List.of(A, C));
        assertThat(small.receive(C.id(), C.node(), two, 0, two.length).rejected()).isEmpty();
    }

    /**
     * A record of a large node as discovery makes it: {@code ports} RoCE ports ({@code enp<i>s0f1np1},
     * {@code mlx5_<i>}, 400 Gb/s), each with an IPv4 and an IPv6 address, a GID index, the leaf switch
     * port LLDP names, and {@code farEnds} far ends named like real nodes and ports.
     */
    private static NodeRecord large(ViewMember by, String node, int ports, int farEnds) {
        List<Port> out = new ArrayList<>();
        for (int p = 0; p < ports; p++) {
            List<PortRef> heard = new ArrayList<>();
            for (int f = 0; f < farEnds; f++) {
                heard.add(new PortRef(String.format("gpu-node-%04d", f + 1), "enp" + p + "s0f1np1"));
            }
            SwitchPort leaf = new SwitchPort(FarEndSource.LLDP, String.format("0c:42:a1:00:%02x:%02x", p / 256, p % 256),
                    Optional.of("leaf-rail" + p + "-row12-rack07"), "Ethernet1/" + (p + 1) + "/1");
            out.add(new Port(node, "enp" + p + "s0f1np1", Optional.of("mlx5_" + p), 1, PortKind.ROCE, Optional.of(400.0), PortState.ACTIVE,
                    Optional.empty(), List.of("10.200." + p + ".17", "fe80::ec0d:9aff:fe" + Integer.toHexString(16 + p) + ":1a2b"), true,
                    Optional.empty(), Optional.of(leaf), Optional.of(3), heard));
        }
        return new NodeRecord(node, 1, out, Optional.of("10.0.0.17"), Optional.of(true), Optional.of(UUID.fromString(by.id())));
    }

    @Test
    void aLargeNodesRecordFitsTheBoundManyTimesOver() {
        // the measurements RecordMessages.MAX_BYTES names: 64 cabled ports, and 8 ports on switched rails of 256 nodes
        int cabled = RecordMessages.encode(large(B, "b", 64, 1), ClusterProtocol.THIS).length;
        int switched = RecordMessages.encode(large(B, "b", 8, 255), ClusterProtocol.THIS).length;

        assertThat(cabled).isBetween(20_000, RecordMessages.MAX_BYTES / 8);
        assertThat(switched).isBetween(80_000, RecordMessages.MAX_BYTES / 2);
    }

    /** @return the message of {@code record} padded with JSON whitespace to exactly {@code length} bytes */
    private static byte[] padded(NodeRecord record, int length) {
        byte[] message = RecordMessages.encode(record, ClusterProtocol.THIS);
        byte[] out = Arrays.copyOf(message, length);
        Arrays.fill(out, message.length, length, (byte) ' ');
        return out;
    }

    @Test
    void aRecordMessageOverTheBoundIsRejectedAsTooLargeAndCountedAndTheNextIsTaken() {
        intake.view(1, List.of(A, B, C));
        byte[] atBound = padded(record("c", 1, "en1"), RecordMessages.MAX_BYTES);
        byte[] overBound = padded(record("b", 1, "en1"), RecordMessages.MAX_BYTES + 1);
        byte[] huge = RecordMessages.encode(large(B, "b", 64, 100), ClusterProtocol.THIS);

        Receipt over = intake.receive(B.id(), B.node(), overBound, 0, overBound.length);
        Receipt wellOver = intake.receive(B.id(), B.node(), huge, 0, huge.length);

        assertThat(huge.length).isGreaterThan(RecordMessages.MAX_BYTES);
        assertThat(over.rejected()).contains(RejectReason.TOO_LARGE);
        assertThat(over.why()).isEqualTo("record from b: " + (RecordMessages.MAX_BYTES + 1) + " bytes, over the "
                + RecordMessages.MAX_BYTES + " a record message may have");
        assertThat(wellOver.rejected()).contains(RejectReason.TOO_LARGE);
        assertThat(metrics.rejectedCount(RejectReason.TOO_LARGE)).isEqualTo(2);
        assertThat(intake.bytesHeldAndParked()).containsExactly(0, 0);
        assertThat(intake.receive(C.id(), C.node(), atBound, 0, atBound.length).rejected()).isEmpty();
        assertThat(from(B, record("b", 2, "ok"))).isEmpty();
        assertThat(engine.snapshot().nodes()).containsExactly("a", "b", "c");
    }

    @Test
    void theBytesHeldAndParkedNeverPassTheirBoundsWhateverMembersSend() {
        int one = RecordMessages.encode(large(B, "n0", 8, 1), ClusterProtocol.THIS).length;
        long bound = 10L * one;
        RecordIntake small = new RecordIntake(engine, metrics, nanos::get, 1_000, bound, ClusterProtocol.THIS);
        List<ViewMember> members = new ArrayList<>(List.of(A));
        for (int i = 0; i < 40; i++) {
            members.add(member("n" + i, 100 + i, false));
        }
        small.view(1, members);
        long mostHeld = 0;
        long mostParked = 0;
        for (int round = 1; round <= 3; round++) {
            for (int i = 0; i < 40; i++) {
                ViewMember m = members.get(i + 1);
                // each round every node's record grows: updates of held records must stay within the bound too
                byte[] bytes = RecordMessages.encode(large(m, "n" + i, 8 * round, 1), ClusterProtocol.THIS);
                small.receive(m.id(), m.node(), bytes, 0, bytes.length);
                mostHeld = Math.max(mostHeld, small.bytesHeldAndParked()[0]);
                // and members not yet in the view, whose records wait
                ViewMember early = member("p" + i, 1_000 + i, false);
                byte[] waiting = RecordMessages.encode(large(early, "p" + i, 8 * round, 1), ClusterProtocol.THIS);
                small.receive(early.id(), early.node(), waiting, 0, waiting.length);
                mostParked = Math.max(mostParked, small.bytesHeldAndParked()[1]);
            }
        }

        assertThat(mostHeld).isBetween(bound / 2, bound);
        assertThat(mostParked).isPositive().isLessThanOrEqualTo(bound / RecordIntake.PARKED_SHARE);
        assertThat(metrics.rejectedCount(RejectReason.FULL)).isPositive();
        assertThat(metrics.rejectedCount(RejectReason.NOT_MEMBER)).isPositive();
        assertThat(engine.snapshot().nodes().size()).isBetween(2, 11);
    }

    @Test
    void theBytesHeldAreAnEighthOfTheHeap() {
        // bin/railmapd's -Xmx128m: the serial collector reports a max heap of about 123.8 MiB
        assertThat(RecordIntake.heldBytesFor(129_761_280L)).isEqualTo(16_220_160L);
        assertThat(RecordIntake.heldBytesFor(1L << 30)).isEqualTo(128L << 20);
        assertThat(RecordIntake.heldBytesFor(1L << 20)).isEqualTo(RecordMessages.MAX_BYTES);
    }
}
