/**
 * Wiring: which discovery source applies to this host and how their answers combine, shared by
 * railmapd and {@code railmap discover}. {@link io.railmap.discovery.sources.Sources} is the one list
 * of sources (and their {@link io.railmap.discovery.sources.Sources.Settings});
 * {@link io.railmap.discovery.sources.WithSwitchPorts} attaches the switch-port sources' answers to the
 * ports a port source found; {@link io.railmap.discovery.sources.ManagementAddress} picks the address the
 * cluster binds to by default.
 */
package io.railmap.discovery.sources;
