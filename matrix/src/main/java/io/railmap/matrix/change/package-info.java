/**
 * What changed between two states of the cluster, as events a person or a launcher follows: cables
 * added and lost, ports up and down, members joined and left, records changed, findings raised and
 * cleared, agreement reached and lost. Pure: the daemon feeds it states ({@link io.railmap.matrix.change.ClusterState})
 * and streams what {@link io.railmap.matrix.change.Changes#between} returns.
 */
package io.railmap.matrix.change;
