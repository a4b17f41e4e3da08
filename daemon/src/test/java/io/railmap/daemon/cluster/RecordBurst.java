package io.railmap.daemon.cluster;

import io.railmap.daemon.cluster.RecordIntake.ViewMember;
import io.railmap.matrix.model.NodeRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * A burst of records arriving at a running cluster member as a merge of partitions delivers them,
 * through the member's receive path below JGroups ({@link RecordIntake}, with the daemon's real
 * {@code Engine} and its listeners): first every record, from senders not yet in this member's view
 * (parked), then the merge view that admits them all (every parked record taken at once), then each
 * sender's next version as its own message, from several threads at once as JGroups' pool delivers
 * messages of different senders. The members of the view before stay in it.
 */
public final class RecordBurst {
    private RecordBurst() {
    }

    /**
     * @param cluster the member the records arrive at
     * @param records one record per made-up member, all of version v; version v + 1 follows
     * @param threads how many threads deliver the second round
     * @return the records rejected, which should be none
     * @throws IllegalArgumentException when there are more records than a member parks
     */
    public static long arrive(Cluster cluster, List<NodeRecord> records, int threads) throws Exception {
        if (records.size() > RecordIntake.MAX_PARKED) {
            throw new IllegalArgumentException(records.size() + " records; a member parks at most " + RecordIntake.MAX_PARKED);
        }
        RecordIntake intake = cluster.intake();
        List<ViewMember> senders = new ArrayList<>();
        List<NodeRecord> owned = new ArrayList<>();
        for (NodeRecord r : records) {
            // a member's identity is the incarnation its records carry (ClusterProtocol, RecordIntake)
            UUID incarnation = UUID.randomUUID();
            senders.add(new ViewMember(incarnation.toString(), Optional.of(r.node()), "192.0.2.1:7800", false));
            owned.add(new NodeRecord(r.node(), r.version(), r.ports(), r.management(), r.rdmaEnabled(), Optional.of(incarnation)));
        }
        long rejected = 0;
        for (int i = 0; i < records.size(); i++) {
            rejected += deliver(intake, senders.get(i), owned.get(i));
        }
        List<ViewMember> merged = new ArrayList<>(intake.members());
        merged.addAll(senders);
        intake.view(cluster.membership().viewId() + 1, merged);

        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Long>> rounds = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int first = t;
                rounds.add(pool.submit(() -> {
                    long bad = 0;
                    for (int i = first; i < records.size(); i += threads) {
                        NodeRecord r = owned.get(i);
                        bad += deliver(intake, senders.get(i), new NodeRecord(r.node(), r.version() + 1, r.ports(), r.management(),
                                r.rdmaEnabled(), r.incarnation()));
                    }
                    return bad;
                }));
            }
            for (Future<Long> round : rounds) {
                rejected += round.get(10, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
        return rejected;
    }

    private static long deliver(RecordIntake intake, ViewMember sender, NodeRecord record) {
        byte[] bytes = RecordMessages.encode(record, ClusterProtocol.THIS);
        return intake.receive(sender.id(), sender.node(), bytes, 0, bytes.length).rejected().isPresent() ? 1 : 0;
    }
}
