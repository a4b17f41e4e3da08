/**
 * Membership and dissemination: every daemon holds every record. With its subpackages the only
 * place that uses JGroups; what it gives the rest of the daemon is
 * {@link io.railmap.daemon.cluster.Cluster} (start, leave, {@link io.railmap.daemon.cluster.Membership},
 * {@link io.railmap.daemon.cluster.Agreement}) and plain values. Operator's guide:
 * {@code daemon/CLUSTER.md}.
 *
 * <p>Packages, each depending only on the ones before it: {@code cluster.config} (what the flags
 * say), {@code cluster.stack} (JGroups' protocols, configured), this one (records).
 *
 * <p>Reading order, data flowing one way: {@code Cluster} (makes the channel, answers the queries)
 * hands what JGroups delivers to {@code ViewChanges} (each view) and {@code Receiver} (each
 * message) → {@code RecordIntake} (pure rules: a node's record comes from its current member, only
 * members, only their own record and incarnation, the newest version within an incarnation; parked
 * early records; {@link io.railmap.daemon.cluster.RejectReason}) →
 * {@link io.railmap.daemon.engine.Engine}. Outward, {@code Sender} sends the own record and holdings
 * ({@code Holdings}) and {@code RepairRounds} resends what was lost ({@code Repairs}). Payloads are
 * the public record JSON under the protocol's versions ({@code RecordMessages},
 * {@code ClusterProtocol}); meters are in {@link io.railmap.daemon.cluster.ClusterMetrics}.
 */
package io.railmap.daemon.cluster;
