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

    @Test
    void theOwnRecordMergesPortsAndNeighboursAndItsVersionGrowsOnEveryChangeOnly() {
        Engine engine = new Engine("a", () -> 1_000);
        List<NodeRecord> published = new ArrayList<>();
        engine.onOwnRecord(published::add);

        engine.ports(List.of(port("a", "en6"), port("a", "en7")));
        engine.neighbours(Map.of("en6", List.of(PortRef.parse("b:en7"))));
        engine.neighbours(Map.of("en6", List.of(PortRef.parse("b:en7"))));

        assertThat(published).extracting(NodeRecord::version).containsExactly(1_001L, 1_002L);
        assertThat(engine.record().port("en6").orElseThrow().neighbours()).containsExactly(PortRef.parse("b:en7"));
        assertThat(engine.record().port("en7").orElseThrow().neighbours()).isEmpty();
    }

    @Test
    void theOwnRecordCarriesTheManagementAddressAndARaisedVersionWhenRdmaIsTurnedOn() {
        Engine engine = new Engine("a", Optional.of("10.231.0.1"), () -> 1_000);
        List<NodeRecord> published = new ArrayList<>();
        engine.onOwnRecord(published::add);

        engine.ports(List.of(port("a", "en6")), Optional.of(false));
        engine.ports(List.of(port("a", "en6")), Optional.of(false));
        engine.ports(List.of(port("a", "en6")), Optional.of(true));

        assertThat(published).extracting(NodeRecord::version).containsExactly(1_001L, 1_002L);
        assertThat(published).extracting(NodeRecord::rdmaEnabled).containsExactly(Optional.of(false), Optional.of(true));
        assertThat(engine.record().management()).contains("10.231.0.1");
        assertThat(engine.snapshot().record("a").orElseThrow().management()).contains("10.231.0.1");
    }

    @Test
    void aRestartedDaemonStartsAboveItsOldVersions() {
        Engine before = new Engine("a", () -> 1_000);
        before.ports(List.of(port("a", "en6")));
        Engine after = new Engine("a", () -> 5_000);
        after.ports(List.of(port("a", "en6")));
        assertThat(after.record().version()).isGreaterThan(before.record().version());
    }

    @Test
    void theNewestVersionWinsWhateverTheOrderOfDelivery() {
        Engine engine = new Engine("a", () -> 0);
        assertThat(engine.accept(record("b", 5, "x"))).isEqualTo(Engine.Accepted.NEW);
        assertThat(engine.accept(record("b", 3, "old"))).isEqualTo(Engine.Accepted.STALE);
        assertThat(engine.accept(record("b", 5, "same-version-other-content"))).isEqualTo(Engine.Accepted.STALE);
        assertThat(engine.accept(record("b", 7, "y"))).isEqualTo(Engine.Accepted.NEWER);
        assertThat(engine.accept(record("b", 6, "late"))).isEqualTo(Engine.Accepted.STALE);

        assertThat(engine.snapshot().record("b").orElseThrow().ports()).extracting(Port::netdev).containsExactly("y");
    }

    @Test
    void nobodyElseWritesThisNodesRecord() {
        Engine engine = new Engine("a", () -> 10);
        assertThat(engine.accept(record("a", 1_000_000, "forged"))).isEqualTo(Engine.Accepted.OWN);
        assertThat(engine.record().ports()).isEmpty();
    }

    @Test
    void aNodeThatIsNoLongerAMemberLosesItsRecordAndNothingElseDoes() {
        Engine engine = new Engine("a", () -> 0);
        engine.accept(record("b", 1));
        engine.accept(record("c", 1));

        assertThat(engine.retainOnly(List.of("a", "c"))).containsExactly("b");
        assertThat(engine.snapshot().nodes()).containsExactly("a", "c");
        assertThat(engine.forget("c")).isTrue();
        assertThat(engine.forget("c")).isFalse();
        assertThat(engine.snapshot().nodes()).containsExactly("a");
    }
}
