/**
 * What a cluster member is told, validated: {@link io.railmap.daemon.cluster.config.ClusterConfig}
 * (addresses, ports, discovery), {@link io.railmap.daemon.cluster.config.ClusterTiming} (presets,
 * every value's trade-off, the detection bounds as pure functions),
 * {@link io.railmap.daemon.cluster.config.ClusterKey} and {@link io.railmap.daemon.cluster.config.Seed}.
 * Plain values: read by the stack ({@link io.railmap.daemon.cluster.stack}) and by dissemination
 * ({@link io.railmap.daemon.cluster}), importing neither.
 */
package io.railmap.daemon.cluster.config;
