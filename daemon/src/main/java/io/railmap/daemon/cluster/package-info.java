/**
 * Membership and dissemination: every daemon holds every record. The only package that uses
 * JGroups; what it gives the rest of the daemon is {@link io.railmap.daemon.cluster.Cluster}
 * (start, leave, {@link io.railmap.daemon.cluster.Membership}) and plain values. Operator's guide:
 * {@code daemon/CLUSTER.md}.
 *
 * <p>Reading order, data flowing one way:
 * {@link io.railmap.daemon.cluster.ClusterConfig}, {@link io.railmap.daemon.cluster.ClusterTiming}
 * (presets, every value's trade-off, the detection bounds as pure functions),
 * {@link io.railmap.daemon.cluster.ClusterKey}, {@link io.railmap.daemon.cluster.Seed} and
 * {@link io.railmap.discovery.sources.ManagementAddress} (what the flags say) →
 * {@code ClusterStack} (JGroups' protocols, configured) and {@code NodeAddresses} (a member's
 * address carries its node name) → {@link io.railmap.daemon.cluster.Cluster} (the channel: sends the
 * own record on every change and view, hands views and messages on) → {@code RecordIntake} (pure
 * rules: a node's record comes from its current member, only members, only their own record and
 * incarnation, the newest version within an incarnation; parked early records;
 * {@link io.railmap.daemon.cluster.RejectReason}) → {@link io.railmap.daemon.engine.Engine}.
 * Payloads are the public record JSON under the protocol's versions ({@code RecordMessages},
 * {@code ClusterProtocol}); meters are in {@link io.railmap.daemon.cluster.ClusterMetrics}.
 */
package io.railmap.daemon.cluster;
