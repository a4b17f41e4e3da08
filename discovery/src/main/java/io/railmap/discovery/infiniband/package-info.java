/**
 * The switch port, or the HCA port of a back-to-back cable, at the far end of each active InfiniBand
 * port, from infiniband-diags and the HCA's node GUID in sysfs:
 * {@code smpquery -D nodeinfo} and {@code nodedesc} one hop out of that port
 * ({@link io.railmap.discovery.infiniband.InfinibandSource}, parsed by
 * {@link io.railmap.discovery.infiniband.SmpQuery}); why these and not a fabric sweep is in
 * docs/decisions.md.
 */
package io.railmap.discovery.infiniband;
