package io.railmap.daemon.cluster;

import io.railmap.daemon.cluster.config.ClusterKey;
import io.railmap.daemon.cluster.config.ClusterTiming;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jgroups.stack.Protocol;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Anti-entropy in a real cluster: JGroups members in this JVM on loopback, lab timing (a 5 s repair
 * grace), a cluster key. A record message lost to one member is sent again by its owner once the
 * digests have differed for the grace period (and its holdings to every member, so that they stay in
 * order), a holdings message lost on its own is told again in answer to the repair it causes; a
 * cluster in agreement sends nothing.
 */
class RepairTest {
    private static final String CLUSTER = "repair-test";
    private static final ClusterKey KEY = ClusterKey.parse("test key", Base64.getEncoder().encodeToString(
            "a secret of thirty-two bytes ...".getBytes(StandardCharsets.US_ASCII)));
    private static final Duration GRACE = Duration.ofMillis(ClusterTiming.LAB.repairGraceMs());
    /** Forming or joining, and for a repair its grace period, on a loaded machine. */
    private static final Duration BOUND = Duration.ofSeconds(20).plus(GRACE);

    private final LoopbackMembers cluster = new LoopbackMembers(CLUSTER, Optional.of(KEY), List.of("a", "b", "c"));

    @AfterEach
    void close() {
        cluster.close();
    }

    private void awaitEveryoneHoldsEveryRecordAndAgrees() {
        cluster.awaitEveryoneHoldsEveryRecordAndAgrees(BOUND);
    }

    private double repairs() {
        return cluster.members().values().stream().mapToDouble(m -> m.metrics().repairCount()).sum();
    }

    @Test
    void aRecordLostToOneMemberIsSentAgainByItsOwnerOnceTheDigestsStopChanging() {
        SentHoldings sentByA = new SentHoldings();
        cluster.start("a", protocols -> {
            List<Protocol> out = new ArrayList<>(protocols);
            out.add(sentByA);
            return out;
        });
        cluster.start("b");
        awaitEveryoneHoldsEveryRecordAndAgrees();
        assertThat(repairs()).as("repairs before c joins").isZero();

        // c loses a's record: a sends it once when c joins, and nothing below c retransmits it
        LosesOne loses = LosesOne.firstRecord("a");
        cluster.start("c", protocols -> {
            List<Protocol> out = new ArrayList<>(protocols);
            out.add(loses);
            return out;
        });

        await("c lost a's record").atMost(BOUND).until(() -> loses.lost() == 1);
        awaitEveryoneHoldsEveryRecordAndAgrees();
        // only a holds a's record to send: once, for the one pair of digests (a's, c's without a's record)
        assertThat(cluster.members().get("a").metrics().repairCount()).as("a's repairs").isEqualTo(1);
        // b may have sent c its record, and c its own to a and b, if their checks came before a's repair arrived
        assertThat(repairs()).as("repairs in all").isBetween(1.0, 4.0);
        // a's repair told its holdings to every member (c joined a view of three: a newcomer as half of
        // the others is told by multicast too), never to c alone, where it could overtake a's next digest
        assertThat(sentByA.destinations()).as("where a's holdings went").isNotEmpty().containsOnly(Optional.empty());
    }

    @Test
    void aHoldingsMessageLostOnItsOwnIsToldAgainWhenItsReceiverRepairs() {
        cluster.start("a");
        cluster.start("b");
        LosesOne loses = LosesOne.nextHoldings("a");
        cluster.start("c", protocols -> {
            List<Protocol> out = new ArrayList<>(protocols);
            out.add(loses);
            return out;
        });
        awaitEveryoneHoldsEveryRecordAndAgrees();

        // a's record changes and c loses the holdings a sends next: c holds a's new record, but a's
        // digest as it was; c resends its record to a after the grace, and a answers with its holdings
        loses.arm();
        cluster.changeRecord("a");
        await("c lost a's holdings").atMost(BOUND).until(() -> loses.lost() == 1);
        awaitEveryoneHoldsEveryRecordAndAgrees();
        assertThat(cluster.members().get("c").metrics().repairCount()).as("c's repairs").isEqualTo(1);
        assertThat(cluster.members().get("a").metrics().repairCount()).as("a's repairs").isZero();
    }

    @Test
    void aClusterInAgreementSendsNothingForTwoGracePeriods() {
        List.of("a", "b", "c").forEach(cluster::start);
        awaitEveryoneHoldsEveryRecordAndAgrees();
        Map<String, Double> received = new LinkedHashMap<>();
        cluster.members().forEach((node, m) -> received.put(node, m.metrics().receivedCount()));

        await("no record message for two grace periods").during(GRACE.multipliedBy(2)).atMost(GRACE.multipliedBy(2).plusSeconds(10))
                .untilAsserted(() -> cluster.members().forEach((node, m) ->
                        assertThat(m.metrics().receivedCount()).as("records received by %s", node).isEqualTo(received.get(node))));
        assertThat(repairs()).as("repairs in all").isZero();
        awaitEveryoneHoldsEveryRecordAndAgrees();
    }
}
