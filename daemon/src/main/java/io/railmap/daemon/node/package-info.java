/**
 * This node at run time: polling local discovery for link changes, one poll at a time, on each link
 * event the kernel announces and once a tick ({@link io.railmap.daemon.node.LinkEvents},
 * {@link io.railmap.daemon.node.DiscoveryPolls}, {@link io.railmap.daemon.node.LinkWatcher}), asking
 * the switch-port sources at their own cadence ({@link io.railmap.daemon.node.SwitchPortWatch}), keeping
 * the probe on the ports with carrier ({@link io.railmap.daemon.node.ProbeLinks}), and logging what
 * changed, port by port and for the topology as a whole ({@link io.railmap.daemon.events.ChangeFeed},
 * rebuilt on a thread of its own, coalesced: {@link io.railmap.daemon.node.Rebuilds}).
 */
package io.railmap.daemon.node;
