/**
 * Local link discovery: what ports this node has, before anyone has looked at the far end of a
 * cable. One {@link io.railmap.daemon.discovery.PortSource} per operating system reads the
 * system's own description of its links (Linux sysfs in {@code linux}, macOS command output in
 * {@code macos}) and returns a {@link io.railmap.daemon.discovery.Discovery}: the ports it found,
 * each a {@link io.railmap.daemon.discovery.LocalPort} wrapping a matrix
 * {@link io.railmap.matrix.model.Port} with no neighbours yet, and the ports it skipped, each with
 * a reason. A missing or odd value costs one port, never the whole node; only input that cannot be
 * read at all fails the discovery with a {@link io.railmap.daemon.discovery.DiscoveryException}.
 */
package io.railmap.daemon.discovery;
