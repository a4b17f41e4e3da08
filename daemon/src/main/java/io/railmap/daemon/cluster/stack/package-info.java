/**
 * The cluster's JGroups protocol stack: {@link io.railmap.daemon.cluster.stack.ClusterStack} builds
 * it in code (no XML) from a {@link io.railmap.daemon.cluster.config.ClusterConfig}, out of JGroups'
 * own protocols and the subclasses here, each named for what it changes; the member's address
 * ({@link io.railmap.daemon.cluster.stack.NodeAddresses}) carries its node name.
 *
 * <p>Wire: a subclass that stands in for a JGroups protocol takes that protocol's id
 * ({@code ClassConfigurator.getProtocolId}), so its headers are the parent's and a daemon with the
 * plain protocol reads every message. Nothing here knows records; dissemination is in
 * {@link io.railmap.daemon.cluster}.
 */
package io.railmap.daemon.cluster.stack;
