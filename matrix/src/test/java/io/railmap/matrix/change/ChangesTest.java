package io.railmap.matrix.change;

import static org.assertj.core.api.Assertions.assertThat;

import io.railmap.matrix.Cluster;
import io.railmap.matrix.codec.SnapshotCodec;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.model.PortState;
import io.railmap.matrix.model.Snapshot;
import io.railmap.matrix.model.Thunderbolt;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ChangesTest {
    private static ClusterState state(Snapshot snapshot) {
        return ClusterState.of(snapshot, Set.of(), Optional.empty());
    }

    private static List<String> lines(List<Change> changes) {
        return changes.stream().map(c -> c.type().externalName() + " " + String.join(" ", c.subjects())).toList();
    }

    @Test
    void theFirstStateBringsItsRecordsAndCablesButNoPortUps() {
        Snapshot crossed = new Cluster().cable("a:en6", "b:en7").cable("a:en7", "b:en6").snapshot();
        List<Change> changes = Changes.between(ClusterState.EMPTY, state(crossed));

        assertThat(lines(changes)).filteredOn(l -> !l.startsWith("record-changed")).containsExactly(
                "cable-added a:en6 b:en7", "cable-added a:en7 b:en6");
        assertThat(changes).filteredOn(c -> c.type() == ChangeType.RECORD_CHANGED).extracting(c -> c.subjects().get(0))
                .containsExactly("a", "b");
        assertThat(changes.get(changes.size() - 1).message()).isEqualTo("cable a:en7–b:en6 added");
        assertThat(Changes.between(state(crossed), state(crossed))).isEmpty();
    }

    @Test
    void aCableThatGoesDownIsLostWithBothPortsDownAndComesBackUp() {
        ClusterState both = state(new Cluster().cable("a:en6", "b:en7").cable("a:en7", "b:en6").snapshot());
        ClusterState pulled = state(new Cluster().cable("a:en6", "b:en7").cable("a:en7", "b:en6", 100, PortState.DOWN).snapshot());

        assertThat(lines(Changes.between(both, pulled))).filteredOn(l -> !l.startsWith("record-changed")).containsExactly("port-down a:en7", "port-down b:en6", "cable-lost a:en7 b:en6");
        assertThat(lines(Changes.between(pulled, both))).filteredOn(l -> !l.startsWith("record-changed")).containsExactly("port-up a:en7", "port-up b:en6", "cable-added a:en7 b:en6");
    }

    @Test
    void membersAndADroppedRecordAreReported() {
        Snapshot ab = new Cluster().cable("a:en6", "b:en7").snapshot();
        Snapshot a = new Snapshot(List.of(ab.records().get(0)));
        List<Change> changes = Changes.between(ClusterState.of(ab, Set.of("a", "b"), Optional.empty()),
                ClusterState.of(a, Set.of("a", "c"), Optional.empty()));

        assertThat(lines(changes)).startsWith("member-left b", "member-joined c").contains("cable-lost a:en6 b:en7");
        assertThat(changes).filteredOn(c -> c.type() == ChangeType.RECORD_CHANGED).singleElement()
                .satisfies(c -> assertThat(c.message()).startsWith("record of b dropped (was b@"));
    }

    @Test
    void aSwappedCableRaisesCrossRailFindingsAndSwappingBackClearsThem() throws Exception {
        ClusterState clean = state(SnapshotCodec.readSnapshot("clean", Files.readString(Path.of("../examples/snapshots/two-leaves.json"))));
        ClusterState swapped = state(SnapshotCodec.readSnapshot("swapped",
                Files.readString(Path.of("../examples/snapshots/two-leaves-swapped.json"))));

        List<Change> raised = Changes.between(clean, swapped).stream().filter(c -> c.type() == ChangeType.FINDING_RAISED).toList();
        // a finding's subjects are its code, then the ports it is about: the two swapped NICs of gpu-01
        assertThat(raised).extracting(Change::subjects).containsExactlyInAnyOrder(
                List.of("cross-rail", "gpu-01:enp65s0f0np0"), List.of("cross-rail", "gpu-01:enp129s0f0np0"));
        assertThat(raised.get(0).message()).startsWith("error cross-rail raised: ");
        assertThat(Changes.between(swapped, clean)).filteredOn(c -> c.type() == ChangeType.FINDING_CLEARED).hasSameSizeAs(raised);
    }

    @Test
    void aCableThatBecomesOneSidedRaisesUnconfirmedCableAndConfirmingItAgainClearsIt() {
        ClusterState confirmed = state(new Cluster().cable("a:en6", "b:en7").snapshot());
        // a:en6 still hears b:en7, but b's record no longer has the port that hears a:en6 back
        ClusterState oneSided = state(new Cluster().oneSided("a:en6", "b:en7").snapshot());

        List<Change> lost = Changes.between(confirmed, oneSided);
        assertThat(lines(lost)).filteredOn(l -> !l.startsWith("record-changed")).containsExactly(
                "cable-lost a:en6 b:en7", "finding-raised unconfirmed-cable a:en6 b:en7");
        assertThat(lost.get(lost.size() - 1).message()).startsWith("warning unconfirmed-cable raised: a:en6 observed b:en7, but ")
                .endsWith("; the cable stays out of every matrix until both ends see each other");
        assertThat(oneSided.findings()).allSatisfy(f -> assertThat(f.ranks()).isEmpty());
        assertThat(lines(Changes.between(oneSided, confirmed))).filteredOn(l -> !l.startsWith("record-changed")).containsExactly(
                "cable-added a:en6 b:en7", "finding-cleared unconfirmed-cable a:en6 b:en7");
    }

    @Test
    void aPortWhoseSourcesStartToDisagreeRaisesSourcesDisagree() {
        // m3:en7 and m4:en2 name each other by Thunderbolt domain UUID; m3:en7's probe hears m4:en2, then m4:en3
        ClusterState agree = state(new Snapshot(List.of(thunderbolt("m3", "en7", "AAAA", "BBBB", PortRef.parse("m4:en2")),
                thunderbolt("m4", "en2", "BBBB", "AAAA"))));
        ClusterState disagree = state(new Snapshot(List.of(thunderbolt("m3", "en7", "AAAA", "BBBB", PortRef.parse("m4:en3")),
                thunderbolt("m4", "en2", "BBBB", "AAAA"))));

        List<Change> changes = Changes.between(agree, disagree);
        assertThat(lines(changes)).contains("cable-lost m3:en7 m4:en2", "finding-raised sources-disagree m3:en7 m4:en2 m4:en3");
        assertThat(changes).filteredOn(c -> c.subjects().get(0).equals("sources-disagree")).singleElement()
                .satisfies(c -> assertThat(c.message()).startsWith(
                        "warning sources-disagree raised: m3:en7: its Thunderbolt pairing names m4:en2 but its probe heard m4:en3; "));
        assertThat(lines(Changes.between(disagree, agree))).contains("finding-cleared sources-disagree m3:en7 m4:en2 m4:en3");
    }

    /** A node with one active Thunderbolt 5 port paired by domain UUID, whose probe heard {@code probed}. */
    private static NodeRecord thunderbolt(String node, String netdev, String domain, String peerDomain, PortRef... probed) {
        Thunderbolt tb = new Thunderbolt(Optional.of(domain), Optional.of(peerDomain), 1, Optional.of(80.0), false, Optional.of("Mac"));
        return new NodeRecord(node, 1, List.of(new Port(node, netdev, Optional.of("rdma_" + netdev), 1, PortKind.THUNDERBOLT,
                Optional.of(80.0), PortState.ACTIVE, Optional.of(tb), List.of(probed))));
    }

    @Test
    void agreementIsReportedWhenItFlipsOrAgreesOnOtherRecords() {
        Snapshot s = new Cluster().cable("a:en6", "b:en7").snapshot();
        ClusterState none = ClusterState.of(s, Set.of("a"), Optional.empty());
        ClusterState agreed = ClusterState.of(s, Set.of("a"), Optional.of(new ClusterState.Agreed(true, "sha256:1")));
        ClusterState lost = ClusterState.of(s, Set.of("a"), Optional.of(new ClusterState.Agreed(false, "sha256:2")));
        ClusterState lostAgain = ClusterState.of(s, Set.of("a"), Optional.of(new ClusterState.Agreed(false, "sha256:3")));
        ClusterState agreedOther = ClusterState.of(s, Set.of("a"), Optional.of(new ClusterState.Agreed(true, "sha256:4")));

        assertThat(lines(Changes.between(none, agreed))).containsExactly("agreement-reached sha256:1");
        assertThat(lines(Changes.between(agreed, lost))).containsExactly("agreement-lost sha256:2");
        assertThat(Changes.between(lost, lostAgain)).isEmpty();
        assertThat(lines(Changes.between(lost, agreedOther))).containsExactly("agreement-reached sha256:4");
        assertThat(lines(Changes.between(agreed, agreedOther))).containsExactly("agreement-reached sha256:4");
    }
}
