/**
 * The link-local neighbour probe: how a node learns who is at the far end of each of its cables.
 *
 * <p>Every probed port sends a small datagram, a hello, to an IPv6 link-local multicast group
 * every second (faster for a moment after it comes up). A hello says "cluster C, node B, port X,
 * believe me for T ms". Link-local traffic never crosses a router, so a hello heard on port Y came
 * over Y's cable (or Y's switch): (B, X) is Y's neighbour until T runs out, Y loses carrier, or B
 * says goodbye. The wire format is specified in {@code daemon/PROBE.md};
 * {@link io.railmap.daemon.probe.ProbeCodec} implements it.
 *
 * <p>Reading order, data flowing one way:
 * {@link io.railmap.daemon.probe.ProbeConfig} and {@link io.railmap.daemon.probe.ProbeTiming}
 * (what and when, timing formulas as pure functions) →
 * {@link io.railmap.daemon.probe.ProbeDatagram} and {@link io.railmap.daemon.probe.ProbeCodec}
 * (the hello and its bytes) →
 * {@link io.railmap.daemon.probe.ProbeIntake} (a received datagram: arrival port from the packet,
 * decode, drop with a {@link io.railmap.daemon.probe.DropReason}, or record) →
 * {@link io.railmap.daemon.probe.NeighbourTable} (pure state; emits
 * {@link io.railmap.daemon.probe.NeighbourEvent}s) →
 * {@link io.railmap.daemon.probe.ProbeService} (the verticle: Vert.x sockets and timers only).
 * Counters are in {@link io.railmap.daemon.probe.ProbeMetrics}.
 */
package io.railmap.daemon.probe;
