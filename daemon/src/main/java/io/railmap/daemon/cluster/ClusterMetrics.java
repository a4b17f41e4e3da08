package io.railmap.daemon.cluster;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.IntSupplier;

/**
 * The cluster's meters, on the registry the daemon passes in. Names, with their Prometheus spelling:
 * <ul>
 *   <li>{@value #MEMBERS}: members in the current view, this one included ({@code railmap_cluster_members});</li>
 *   <li>{@value #VIEWS}: views installed, merges included ({@code railmap_cluster_views_total});</li>
 *   <li>{@value #MERGES}: views that merged partitions ({@code railmap_cluster_merges_total});</li>
 *   <li>{@value #SUSPECTED}: members this daemon suspected ({@code railmap_cluster_suspected_total});</li>
 *   <li>{@value #SENT}: own records sent ({@code railmap_cluster_records_sent_total});</li>
 *   <li>{@value #REPAIRS}: own records sent again to a member whose holdings differed from this
 *       daemon's for a grace period ({@link Repairs}; {@code railmap_cluster_repairs_total});</li>
 *   <li>{@value #RECEIVED}: record messages received from other members, taken or not
 *       ({@code railmap_cluster_records_received_total});</li>
 *   <li>{@value #REJECTED} (tag {@code reason}, a {@link RejectReason#tag()}): received records not
 *       taken ({@code railmap_cluster_records_rejected_total}). Every reason is registered at zero.</li>
 * </ul>
 * Thread-safe, as Micrometer meters are.
 */
public final class ClusterMetrics {
    /** Gauge of members in the view. */
    public static final String MEMBERS = "railmap.cluster.members";
    /** Counter of views installed. */
    public static final String VIEWS = "railmap.cluster.views";
    /** Counter of merge views. */
    public static final String MERGES = "railmap.cluster.merges";
    /** Counter of suspicions raised here. */
    public static final String SUSPECTED = "railmap.cluster.suspected";
    /** Counter of own records sent. */
    public static final String SENT = "railmap.cluster.records.sent";
    /** Counter of own records sent again as repairs. */
    public static final String REPAIRS = "railmap.cluster.repairs";
    /** Counter of records received. */
    public static final String RECEIVED = "railmap.cluster.records.received";
    /** Counter of records rejected, tagged {@code reason}. */
    public static final String REJECTED = "railmap.cluster.records.rejected";

    private final Counter views;
    private final Counter merges;
    private final Counter suspected;
    private final Counter sent;
    private final Counter repairs;
    private final Counter received;
    private final Map<RejectReason, Counter> rejected = new EnumMap<>(RejectReason.class);

    /**
     * @param registry where the meters live
     * @param members  the number of members in the current view
     */
    public ClusterMetrics(MeterRegistry registry, IntSupplier members) {
        Objects.requireNonNull(registry, "registry");
        // strongly referenced: Micrometer holds a gauge's state weakly, and nothing else holds this lambda
        Gauge.builder(MEMBERS, members, m -> m.getAsInt()).strongReference(true)
                .description("Members in the current view, this daemon included").register(registry);
        views = Counter.builder(VIEWS).description("Membership views installed, merges included").register(registry);
        merges = Counter.builder(MERGES).description("Views that merged partitions").register(registry);
        suspected = Counter.builder(SUSPECTED).description("Members this daemon suspected").register(registry);
        sent = Counter.builder(SENT).description("Own records sent to the cluster").register(registry);
        repairs = Counter.builder(REPAIRS).description("Own records sent again to members whose holdings differed for a grace period")
                .register(registry);
        received = Counter.builder(RECEIVED).description("Records received from other members").register(registry);
        for (RejectReason reason : RejectReason.values()) {
            rejected.put(reason, Counter.builder(REJECTED).tag("reason", reason.tag())
                    .description("Records received and not taken").register(registry));
        }
    }

    void view(boolean merge) {
        views.increment();
        if (merge) {
            merges.increment();
        }
    }

    void suspected() {
        suspected.increment();
    }

    void sent() {
        sent.increment();
    }

    void repaired(int members) {
        repairs.increment(members);
    }

    /** @return own records sent again as repairs so far */
    public double repairCount() {
        return repairs.count();
    }

    void received() {
        received.increment();
    }

    void rejected(RejectReason reason) {
        rejected.get(reason).increment();
    }

    /** @return records rejected for this reason so far */
    public double rejectedCount(RejectReason reason) {
        return rejected.get(reason).count();
    }

    /** @return records received so far */
    public double receivedCount() {
        return received.count();
    }
}
