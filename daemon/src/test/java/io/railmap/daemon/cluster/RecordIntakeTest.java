package io.railmap.daemon.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.railmap.daemon.cluster.RecordIntake.ViewChange;
import io.railmap.daemon.cluster.RecordIntake.ViewMember;
import io.railmap.daemon.engine.Engine;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.PortState;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The rules of dissemination on a real engine: which record is taken, kept, parked or rejected. */
class RecordIntakeTest {
    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final Engine engine = new Engine("a", () -> 100);
    private final ClusterMetrics metrics = new ClusterMetrics(new SimpleMeterRegistry(), () -> 0);
    private final RecordIntake intake = new RecordIntake(engine, metrics, nanos::get);

    private static final ViewMember A = new ViewMember("id-a", Optional.of("a"), "10.0.0.1:7800", true);
    private static final ViewMember B = new ViewMember("id-b", Optional.of("b"), "10.0.0.2:7800", false);
    private static final ViewMember C = new ViewMember("id-c", Optional.of("c"), "10.0.0.3:7800", false);

    private static NodeRecord record(String node, long version, String... netdevs) {
        List<Port> ports = new ArrayList<>();
        for (String n : netdevs) {
            ports.add(new Port(node, n, Optional.empty(), 1, PortKind.ETHERNET, Optional.of(100.0), PortState.ACTIVE, Optional.empty(),
                    List.of()));
        }
        return new NodeRecord(node, version, ports);
    }

    private Optional<RejectReason> from(ViewMember sender, NodeRecord record) {
        byte[] bytes = RecordMessages.encode(record);
        return intake.receive(sender.id(), sender.node(), bytes, 0, bytes.length);
    }

    private Optional<RejectReason> raw(ViewMember sender, byte[] bytes) {
        return intake.receive(sender.id(), sender.node(), bytes, 0, bytes.length);
    }

    private List<String> ports(String node) {
        return engine.snapshot().record(node).map(r -> r.ports().stream().map(Port::netdev).toList()).orElse(List.of());
    }

    @Test
    void theNewestVersionWinsWhateverTheOrderAndDuplicatesChangeNothing() {
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

        assertThat(from(B, record("c", 50, "forged"))).contains(RejectReason.FOREIGN);
        assertThat(from(B, record("a", 50, "forged"))).contains(RejectReason.FOREIGN);
        ViewMember impostor = new ViewMember("id-a2", Optional.of("a"), "10.0.0.9:7800", false);
        intake.view(2, List.of(A, B, C, impostor));
        assertThat(from(impostor, record("a", 1_000_000, "forged"))).contains(RejectReason.OWN);
        ViewMember stranger = new ViewMember("id-x", Optional.empty(), "10.0.0.8:7800", false);
        intake.view(3, List.of(A, B, C, stranger));
        assertThat(from(stranger, record("x", 1, "p"))).contains(RejectReason.FOREIGN);

        assertThat(engine.snapshot().nodes()).containsExactly("a");
        assertThat(engine.record().ports()).isEmpty();
        assertThat(metrics.rejectedCount(RejectReason.FOREIGN)).isEqualTo(3);
        assertThat(metrics.rejectedCount(RejectReason.OWN)).isEqualTo(1);
    }

    @Test
    void garbageIsCountedAndTheNextRecordIsStillTaken() {
        intake.view(1, List.of(A, B));
        Stream.of(new byte[0], "{".getBytes(StandardCharsets.UTF_8), new byte[] {(byte) 0xff, (byte) 0xfe, '{', '}'},
                "{\"node\":\"b\",\"version\":1,\"ports\":[],\"extra\":1}".getBytes(StandardCharsets.UTF_8),
                "{\"node\":\"b c\",\"version\":1,\"ports\":[]}".getBytes(StandardCharsets.UTF_8),
                new byte[RecordMessages.MAX_BYTES + 1])
                .forEach(bytes -> assertThat(raw(B, bytes)).contains(RejectReason.MALFORMED));

        assertThat(from(B, record("b", 1, "ok"))).isEmpty();
        assertThat(ports("b")).containsExactly("ok");
        assertThat(metrics.rejectedCount(RejectReason.MALFORMED)).isEqualTo(6);
    }

    @Test
    void aNodeClaimedByTwoMembersIsReportedAndKeptWhileOneRemains() {
        ViewMember oldB = B;
        ViewMember newB = new ViewMember("id-b2", Optional.of("b"), "10.0.0.2:7800", false);
        intake.view(1, List.of(A, oldB));
        from(oldB, record("b", 10, "old"));

        ViewChange restart = intake.view(2, List.of(A, oldB, newB));
        assertThat(restart.duplicates()).containsOnlyKeys("b");
        from(newB, record("b", 20, "new"));

        ViewChange oldGone = intake.view(3, List.of(A, newB));
        assertThat(oldGone.dropped()).isEmpty();
        assertThat(oldGone.duplicates()).isEmpty();
        assertThat(ports("b")).containsExactly("new");
    }

    @Test
    void membershipListsTheViewInOrderWithTheVersionAndAgeOfEachRecord() {
        intake.view(7, List.of(B, A, C));
        from(B, record("b", 4, "x"));
        nanos.addAndGet(1_500_000_000L);
        intake.ownChanged();
        nanos.addAndGet(250_000_000L);

        Membership m = intake.membership("lab", id -> id.equals("id-b") ? "10.0.0.22:7800" : "?");

        assertThat(m.cluster()).isEqualTo("lab");
        assertThat(m.viewId()).isEqualTo(7);
        assertThat(m.members()).containsExactly(
                new Member(Optional.of("b"), "10.0.0.22:7800", false, true, OptionalLong.of(4), OptionalLong.of(1_750)),
                new Member(Optional.of("a"), "10.0.0.1:7800", true, false, OptionalLong.of(100), OptionalLong.of(250)),
                new Member(Optional.of("c"), "10.0.0.3:7800", false, false, OptionalLong.empty(), OptionalLong.empty()));
    }

    @Test
    void beyondTheRecordBoundRecordsOfNewNodesAreRejectedWhileHeldOnesKeepUpdating() {
        RecordIntake small = new RecordIntake(engine, metrics, nanos::get, 3, 1 << 20);
        List<ViewMember> members = new ArrayList<>(List.of(A));
        for (int i = 0; i < 5; i++) {
            members.add(new ViewMember("id-n" + i, Optional.of("n" + i), "10.0.1." + i + ":7800", false));
        }
        small.view(1, members);
        List<Optional<RejectReason>> results = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            byte[] bytes = RecordMessages.encode(record("n" + i, 1, "en1"));
            results.add(small.receive("id-n" + i, Optional.of("n" + i), bytes, 0, bytes.length));
        }
        byte[] update = RecordMessages.encode(record("n0", 2, "en1", "en2"));

        assertThat(results).containsExactly(Optional.empty(), Optional.empty(), Optional.of(RejectReason.FULL),
                Optional.of(RejectReason.FULL), Optional.of(RejectReason.FULL));
        assertThat(small.receive("id-n0", Optional.of("n0"), update, 0, update.length)).isEmpty();
        assertThat(engine.snapshot().nodes()).containsExactly("a", "n0", "n1");
        assertThat(ports("n0")).containsExactly("en1", "en2");
    }

    @Test
    void theBytesOfRecordsHeldAreBounded() {
        byte[] one = RecordMessages.encode(record("b", 1, "en1"));
        RecordIntake small = new RecordIntake(engine, metrics, nanos::get, 100, one.length + 10L);
        small.view(1, List.of(A, B, C));
        assertThat(small.receive(B.id(), B.node(), one, 0, one.length)).isEmpty();
        byte[] two = RecordMessages.encode(record("c", 1, "en1"));
        assertThat(small.receive(C.id(), C.node(), two, 0, two.length)).contains(RejectReason.FULL);
        // when b leaves, its bytes are freed and c's record fits
        small.view(2, List.of(A, C));
        assertThat(small.receive(C.id(), C.node(), two, 0, two.length)).isEmpty();
    }
}
