package io.railmap.matrix.provenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.railmap.matrix.Cluster;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.PortState;
import io.railmap.matrix.model.Snapshot;
import io.railmap.matrix.rail.UnknownNodesException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.Test;

class ProvenanceTest {
    private final Snapshot crossed = new Cluster().cable("a:en6", "b:en7").cable("a:en7", "b:en6").snapshot();

    @RepeatedTest(20)
    void theDigestDependsOnTheRecordsNotOnTheirOrder(RepetitionInfo repetition) {
        List<NodeRecord> records = new ArrayList<>(crossed.records());
        Collections.shuffle(records, new Random(repetition.getCurrentRepetition()));
        assertThat(Provenance.of(records)).isEqualTo(Provenance.of(crossed.records()));
    }

    @Test
    void anyChangeToARecordChangesTheDigestAndSaysWhat() {
        Provenance before = Provenance.of(crossed.records());
        assertThat(before.digest()).matches("sha256:[0-9a-f]{64}");
        assertThat(before.recordList()).matches("a@1\\.[0-9a-f]{8},b@1\\.[0-9a-f]{8}");

        Snapshot down = new Cluster().cable("a:en6", "b:en7").cable("a:en7", "b:en6").state("b:en6", PortState.DOWN).snapshot();
        Provenance after = Provenance.of(down.records());
        assertThat(after.digest()).isNotEqualTo(before.digest());
        // same version, other contents: what a restarted daemon whose counter started over looks like
        assertThat(Provenance.changes(before.records(), down::record)).containsExactly("b's record changed (version 1, other contents: a restarted daemon)");
        NodeRecord bumped = new NodeRecord("b", 9, down.record("b").orElseThrow().ports());
        assertThat(Provenance.changes(before.records(), n -> n.equals("b") ? Optional.of(bumped) : crossed.record(n)))
                .containsExactly("b's record changed (version 1 -> 9)");
        assertThat(Provenance.changes(before.records(), n -> n.equals("a") ? Optional.empty() : crossed.record(n)))
                .containsExactly("a has no record now (its daemon left or stopped)");
        assertThat(Provenance.changes(before.records(), crossed::record)).isEmpty();
    }

    @Test
    void recordIdsParseBackAndRefuseGarbage() {
        RecordId id = Provenance.of(crossed.records()).records().get(0);
        assertThat(RecordId.parse("RAILMAP_RECORDS", id.toString())).isEqualTo(id);
        assertThat(RecordId.parse("x", "studio.a@12.0123abcd")).isEqualTo(new RecordId("studio.a", 12, "0123abcd"));
        assertThatThrownBy(() -> RecordId.parse("RAILMAP_RECORDS", "a@x.0123abcd")).hasMessageContaining("not a record id");
        assertThatThrownBy(() -> RecordId.parse("RAILMAP_RECORDS", "a@1.XYZ")).hasMessageContaining("8 hex digits");
        assertThatThrownBy(() -> RecordId.parse("RAILMAP_RECORDS", "a@1.0123abcd\u001b")).hasMessageContaining("\\x1b");
    }

    @Test
    void aRecordWithAnIncarnationIsKnownByItsIdentity() {
        NodeRecord b = crossed.record("b").orElseThrow();
        UUID run = UUID.randomUUID();
        NodeRecord held = new NodeRecord("b", 7, b.ports(), Optional.empty(), Optional.empty(), Optional.of(run));
        // an older daemon holds a newer one's record without the fields it does not know: the same record
        NodeRecord readByOlder = new NodeRecord("b", 7, List.of(), Optional.empty(), Optional.empty(), Optional.of(run));
        assertThat(Provenance.id(readByOlder)).isEqualTo(Provenance.id(held));
        NodeRecord restarted = new NodeRecord("b", 7, b.ports(), Optional.empty(), Optional.empty(), Optional.of(UUID.randomUUID()));
        assertThat(Provenance.id(restarted)).isNotEqualTo(Provenance.id(held));
        assertThat(Provenance.changes(List.of(Provenance.id(held)), n -> Optional.of(restarted)))
                .containsExactly("b's record changed (version 7, other contents: a restarted daemon)");
    }

    @Test
    void theRecordsOfAskedNodesOrTheOnesMissing() {
        assertThat(Provenance.of(crossed, List.of("b", "a"))).isEqualTo(Provenance.of(crossed.records()));
        assertThatThrownBy(() -> Provenance.of(crossed, List.of("a", "zz")))
                .isInstanceOf(UnknownNodesException.class).hasMessageContaining("zz");
    }

    /** Property: whatever records come, change and go, the digester's digest is the one {@link Provenance#of} gives. */
    @RepeatedTest(20)
    void aDigesterGivesTheDigestOfWhatIsHeldNow(RepetitionInfo repetition) {
        Random random = new Random(7919L * repetition.getCurrentRepetition());
        Provenance.Digester digester = new Provenance.Digester();
        Map<String, NodeRecord> held = new HashMap<>();
        for (int step = 0; step < 60; step++) {
            String node = "n" + random.nextInt(8);
            NodeRecord now = held.get(node);
            switch (random.nextInt(4)) {
                case 0 -> held.remove(node);
                // the same contents in a new object (a record decoded again)
                case 1 -> held.put(node, now == null ? new NodeRecord(node, 1, List.of()) : new NodeRecord(node, now.version(), now.ports(),
                        now.management(), now.rdmaEnabled(), now.incarnation()));
                case 2 -> held.put(node, new NodeRecord(node, now == null ? 1 : now.version() + 1, List.of(), Optional.empty(), Optional.empty(),
                        Optional.of(new UUID(repetition.getCurrentRepetition(), step))));
                // no incarnation: known by its contents
                default -> held.put(node, new NodeRecord(node, random.nextInt(3), List.of(), Optional.of("10.0.0." + random.nextInt(3)),
                        Optional.empty(), Optional.empty()));
            }
            List<NodeRecord> records = new ArrayList<>(held.values());
            Collections.shuffle(records, random);
            assertThat(digester.digest(records)).as("step %d", step).isEqualTo(Provenance.of(records).digest());
        }
    }
}
