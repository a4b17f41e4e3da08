package io.railmap.daemon.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jgroups.Address;
import org.jgroups.MergeView;
import org.jgroups.View;
import org.jgroups.ViewId;
import org.jgroups.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What a join costs: real JGroups members in this JVM on loopback, lab timing, no key. A joiner
 * must get every record and every member's holdings, while the members already in the view send
 * theirs only to the joiner: without that, every view change made every member send its record to
 * every other, n² record messages per join.
 */
class JoinDisseminationTest {
    private static final String CLUSTER = "join-test";
    private static final Duration BOUND = Duration.ofSeconds(20);

    private final LoopbackMembers cluster = new LoopbackMembers(CLUSTER, Optional.empty(), List.of("a", "b", "c", "d", "e", "f"));

    @AfterEach
    void close() {
        cluster.close();
    }

    @Test
    void aJoinerGetsEveryRecordWhileTheOthersDoNotResendTheirsToEachOther() {
        List<String> first = List.of("a", "b", "c", "d", "e");
        first.forEach(cluster::start);
        cluster.awaitEveryoneHoldsEveryRecordAndAgrees(BOUND);
        Map<String, Cluster> members = cluster.members();
        Map<String, Double> receivedBefore = new LinkedHashMap<>();
        first.forEach(node -> receivedBefore.put(node, members.get(node).metrics().receivedCount()));

        cluster.start("f");

        cluster.awaitEveryoneHoldsEveryRecordAndAgrees(BOUND);
        assertThat(members.get("f").membership().members()).hasSize(6);
        for (String node : first) {
            // f's record, once or twice (its start and its first view may each send it); before, also
            // the 4 others' records again, as every member resent its own after every view
            double more = members.get(node).metrics().receivedCount() - receivedBefore.get(node);
            assertThat(more).as("record messages %s received after f joined", node).isBetween(1.0, 2.0);
        }
    }

    @Test
    void newcomersAreTheMembersNotInThePreviousViewAndAfterAMergeThoseOfTheOtherSubgroups() {
        Address a = UUID.randomUUID();
        Address b = UUID.randomUUID();
        Address c = UUID.randomUUID();
        Address d = UUID.randomUUID();
        View joined = View.create(a, 4, a, b, c, d);
        assertThat(ViewChanges.newcomers(List.of(a, b, c), joined, b)).containsExactly(d);
        assertThat(ViewChanges.newcomers(List.of(), joined, d)).containsExactlyInAnyOrder(a, b, c);
        assertThat(ViewChanges.newcomers(List.of(a, b, c, d), View.create(a, 5, a, b, d), a)).isEmpty();

        // c's view still held a and b, but they were in another partition: they may lack c's record
        View left = View.create(a, 6, a, b);
        View right = View.create(c, 6, c, d);
        MergeView merged = new MergeView(new ViewId(a, 7), new ArrayList<>(List.of(a, b, c, d)), new ArrayList<>(List.of(left, right)));
        assertThat(ViewChanges.newcomers(List.of(a, b, c, d), merged, c)).isEqualTo(Set.of(a, b));
        assertThat(ViewChanges.newcomers(List.of(a, b), merged, a)).isEqualTo(Set.of(c, d));

        // c was frozen: its own view still lists a and b, who dropped it; they are in both subgroups
        MergeView thawed = new MergeView(new ViewId(c, 9), new ArrayList<>(List.of(c, a, b)),
                new ArrayList<>(List.of(View.create(c, 5, c, a, b), View.create(a, 8, a, b))));
        assertThat(ViewChanges.newcomers(List.of(c, a, b), thawed, c)).isEqualTo(Set.of(a, b));
        assertThat(ViewChanges.newcomers(List.of(a, b), thawed, a)).isEqualTo(Set.of(c));
    }
}
