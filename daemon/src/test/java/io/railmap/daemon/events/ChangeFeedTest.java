package io.railmap.daemon.events;

import static org.assertj.core.api.Assertions.assertThat;

import io.railmap.daemon.testing.SyntheticRecords;
import io.railmap.matrix.model.LocalRank;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.model.PortState;
import io.railmap.matrix.model.Snapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ChangeFeedTest {
    /** Two nodes with the given crossed cables, each end hearing the other ({@code "en6-en7"}: a:en6 to b:en7). */
    private static Snapshot cables(String... pairs) {
        List<Port> a = new ArrayList<>();
        List<Port> b = new ArrayList<>();
        for (String pair : pairs) {
            String[] ends = pair.split("-");
            a.add(port("a", ends[0], "b:" + ends[1]));
            b.add(port("b", ends[1], "a:" + ends[0]));
        }
        return new Snapshot(List.of(new NodeRecord("a", 1, a), new NodeRecord("b", 1, b)));
    }

    private static Port port(String node, String netdev, String far) {
        return new Port(node, netdev, Optional.empty(), 1, PortKind.ETHERNET, Optional.empty(), PortState.ACTIVE,
                Optional.empty(), List.of(PortRef.parse(far)));
    }

    @Test
    void aRunningJobsFindingIsRaisedWhenItsRanksAppearAndClearedWhenTheyLeave() {
        // exo PR 2160 on crossed cables a:en6–b:en7, a:en7–b:en6: a names en6 towards b, b names en6 towards a
        Snapshot plain = cables("en6-en7", "en7-en6");
        Snapshot running = new Snapshot(plain.records().stream().map(r -> r.withRanks(List.of(new LocalRank(r.node().equals("a") ? 4242 : 4343,
                1_700_000_000_000L, Map.of("MLX_RANK", r.node().equals("a") ? "0" : "1", "MLX_JACCL_COORDINATOR", "10.0.0.1:32323"),
                Optional.of(r.node().equals("a") ? List.of(List.of(), List.of("en6")) : List.of(List.of("en6"), List.of())),
                Optional.empty(), Optional.empty())))).toList());
        EventLog events = new EventLog();
        List<String> seen = new ArrayList<>();
        ChangeFeed feed = new ChangeFeed(events);
        feed.observe(plain);
        events.subscribe(Optional.empty(), "test", e -> seen.add(e.change().type().externalName() + " " + e.change().message()), why -> { });

        feed.observe(running);
        feed.observe(running);
        assertThat(seen).filteredOn(e -> e.contains("job-")).singleElement().satisfies(e -> assertThat(e)
                .startsWith("finding-raised error job-rail-mismatch raised: job jaccl 10.0.0.1:32323, rank 0 (a, pid 4242) and rank 1 (b, pid 4343)")
                .contains("a:en6\u2013b:en7", "a:en7\u2013b:en6"));

        assertThat(feed.jobs("error")).isEqualTo(1);
        assertThat(feed.jobs("ok")).isZero();

        seen.clear();
        feed.observe(plain);
        assertThat(feed.jobs("error")).isZero();
        assertThat(seen).filteredOn(e -> e.contains("job-")).singleElement().satisfies(e -> assertThat(e)
                .startsWith("finding-cleared error job-rail-mismatch cleared: job jaccl 10.0.0.1:32323"));
    }

    @Test
    void oneLinePerChangeOfTheCablesAndNoneOtherwise() {
        ChangeFeed log = new ChangeFeed(new EventLog());
        assertThat(log.observe(cables("en6-en7"))).isEqualTo("topology: +1 (a:en6\u2013b:en7), -0; 1 cable among 2 nodes; ring: false");
        assertThat(log.observe(cables("en6-en7"))).isNull();
        assertThat(log.observe(cables("en6-en7", "en7-en6")))
                .isEqualTo("topology: +1 (a:en7\u2013b:en6), -0; 2 cables among 2 nodes; ring: true");
        assertThat(log.observe(cables("en7-en6")))
                .isEqualTo("topology: +0, -1 (a:en6\u2013b:en7); 1 cable among 2 nodes; ring: false");
    }

    @Test
    void aLineNamesTenCablesAddedAndTenLostAndCountsTheRest() {
        ChangeFeed log = new ChangeFeed(new EventLog());
        List<NodeRecord> ring = SyntheticRecords.ring(30, 1);

        String first = log.observe(new Snapshot(ring));
        String fewer = log.observe(new Snapshot(ring.subList(0, 20)));

        assertThat(first).startsWith("topology: +60 (s0000:en1\u2013s0001:en3, s0000:en2\u2013s0001:en4, s0000:en3\u2013s0029:en1, ")
                .endsWith(", and 50 more), -0; 60 cables among 30 nodes; ring: true");
        assertThat(first.split("\u2013")).hasSize(11);
        assertThat(fewer).startsWith("topology: +0, -22 (s0000:en3\u2013s0029:en1, s0000:en4\u2013s0029:en2, s0019:en1\u2013s0020:en3, ")
                .endsWith(", and 12 more); 38 cables among 20 nodes; ring: true");
    }

    @Test
    void ringIsFalseWhenEveryPairOfNodesHasOneCable() {
        List<Port> a = List.of(port("a", "en1", "b:en1"), port("a", "en2", "c:en1"));
        List<Port> b = List.of(port("b", "en1", "a:en1"), port("b", "en2", "c:en2"));
        List<Port> c = List.of(port("c", "en1", "a:en2"), port("c", "en2", "b:en2"));

        String line = new ChangeFeed(new EventLog()).observe(new Snapshot(List.of(new NodeRecord("a", 1, a), new NodeRecord("b", 1, b),
                new NodeRecord("c", 1, c))));

        assertThat(line).endsWith("; 3 cables among 3 nodes; ring: false");
    }
}
