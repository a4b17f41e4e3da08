package io.railmap.daemon.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.model.PortState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class EngineTest {
    private static Port port(String node, String netdev) {
        return new Port(node, netdev, Optional.empty(), 1, PortKind.ETHERNET, Optional.of(10.0), PortState.ACTIVE,
                Optional.empty(), List.of());
    }

    private static NodeRecord record(String node, long version, String... netdevs) {
        List<Port> ports = new ArrayList<>();
        for (String n : netdevs) {
            ports.add(port(node, n));
        }
        return new NodeRecord(node, version, ports);
    }

    private static final UUID FIRST_RUN = UUID.fromString("00000000-0000-4000-8000-000000000001");
    private static final UUID SECOND_RUN = UUID.fromString("00000000-0000-4000-8000-000000000002");

    private static NodeRecord record(String node, UUID incarnation, long version, String... netdevs) {
        NodeRecord r = record(node, version, netdevs);
        return new NodeRecord(node, version, r.ports(), Optional.empty(), Optional.empty(), Optional.of(incarnation));
    }

    @Test
    void theOwnRecordMergesPortsAndNeighboursAndItsVersionGrowsOnEveryChangeOnly() {
        Engine engine = new Engine("a", Optional.empty(), FIRST_RUN);
        List<NodeRecord> published = new ArrayList<>();
        engine.onOwnRecord(published::add);

        engine.ports(List.of(port("a", "en6"), port("a", "en7")));
        engine.neighbours(Map.of("en6", List.of(PortRef.parse("b:en7"))));
        engine.neighbours(Map.of("en6", List.of(PortRef.parse("b:en7"))));

        assertThat(published).extracting(NodeRecord::version).containsExactly(1L, 2L);
        assertThat(published).extracting(NodeRecord::incarnation).containsOnly(Optional.of(FIRST_RUN));
        assertThat(engine.record().port("en6").orElseThrow().neighbours()).containsExactly(PortRef.parse("b:en7"));
        assertThat(engine.record().port("en7").orElseThrow().neighbours()).isEmpty();
    }

    @Test
    void theOwnRecordCarriesTheManagementAddressAndARaisedVersionWhenRdmaIsTurnedOn() {
        Engine engine = new Engine("a", Optional.of("10.231.0.1"));
        List<NodeRecord> published = new ArrayList<>();
        engine.onOwnRecord(published::add);

        engine.ports(List.of(port("a", "en6")), Optional.of(false));
        engine.ports(List.of(port("a", "en6")), Optional.of(false));
        engine.ports(List.of(port("a", "en6")), Optional.of(true));

        assertThat(published).extracting(NodeRecord::version).containsExactly(1L, 2L);
        assertThat(published).extracting(NodeRecord::rdmaEnabled).containsExactly(Optional.of(false), Optional.of(true));
        assertThat(engine.record().management()).contains("10.231.0.1");
        assertThat(engine.snapshot().record("a").orElseThrow().management()).contains("10.231.0.1");
    }

    @Test
    void eachStartIsANewIncarnationWhoseVersionsStartAgain() {
        Engine before = new Engine("a");
        for (int i = 0; i < 5; i++) {
            before.ports(List.of(port("a", "en" + i)));
        }
        Engine after = new Engine("a");
        after.ports(List.of(port("a", "en6")));

        assertThat(after.incarnation()).isNotEqualTo(before.incarnation());
        assertThat(after.record().incarnation()).contains(after.incarnation());
        assertThat(after.record().version()).isEqualTo(1).isLessThan(before.record().version());
    }

    @Test
    void withinAnIncarnationTheHigherVersionWinsWhateverTheOrderOfDelivery() {
        Engine engine = new Engine("a");
        assertThat(engine.accept(record("b", FIRST_RUN, 5, "x"))).isEqualTo(Engine.Accepted.NEW);
        assertThat(engine.accept(record("b", FIRST_RUN, 3, "old"))).isEqualTo(Engine.Accepted.STALE);
        assertThat(engine.accept(record("b", FIRST_RUN, 5, "same-version-other-content"))).isEqualTo(Engine.Accepted.STALE);
        assertThat(engine.accept(record("b", FIRST_RUN, 7, "y"))).isEqualTo(Engine.Accepted.NEWER);
        assertThat(engine.accept(record("b", FIRST_RUN, 6, "late"))).isEqualTo(Engine.Accepted.STALE);

        assertThat(engine.snapshot().record("b").orElseThrow().ports()).extracting(Port::netdev).containsExactly("y");
    }

    @Test
    void aRecordOfAnotherIncarnationReplacesTheOneHeldWhateverTheVersions() {
        Engine engine = new Engine("a");
        // the first run's versions came from a clock that was ahead, the second run's start again at 1
        engine.accept(record("b", FIRST_RUN, 1_795_361_613_310L, "old-run"));

        assertThat(engine.accept(record("b", SECOND_RUN, 1, "new-run"))).isEqualTo(Engine.Accepted.NEWER);
        assertThat(engine.snapshot().record("b").orElseThrow().incarnation()).contains(SECOND_RUN);
        assertThat(engine.snapshot().record("b").orElseThrow().ports()).extracting(Port::netdev).containsExactly("new-run");
    }

    @Test
    void nobodyElseWritesThisNodesRecord() {
        Engine engine = new Engine("a");
        assertThat(engine.accept(record("a", 1_000_000, "forged"))).isEqualTo(Engine.Accepted.OWN);
        assertThat(engine.record().ports()).isEmpty();
    }

    @Test
    void onlyTheRecordsOfEachNodesCurrentMemberRemain() {
        Engine engine = new Engine("a");
        engine.accept(record("b", FIRST_RUN, 1));
        engine.accept(record("c", FIRST_RUN, 1));
        engine.accept(record("d", SECOND_RUN, 1));

        // b has no member left; c's current member is another incarnation; d's is the one held
        assertThat(engine.retainOnly(Map.of("a", engine.incarnation(), "c", SECOND_RUN, "d", SECOND_RUN))).containsExactlyInAnyOrder("b", "c");
        assertThat(engine.snapshot().nodes()).containsExactly("a", "d");
        assertThat(engine.forget("d")).isTrue();
        assertThat(engine.forget("d")).isFalse();
        assertThat(engine.snapshot().nodes()).containsExactly("a");
    }
}
