/**
 * The switch port at the far end of each netdev, from LLDP as lldpd heard it: lldpd's neighbour
 * table read with {@code lldpcli -u SOCKET -f json0 show neighbors details}
 * ({@link io.railmap.discovery.lldp.LldpdSource}) and parsed with Jackson
 * ({@link io.railmap.discovery.lldp.LldpNeighbours}): chassis ID, system name and port ID per
 * neighbour. {@code json0} rather than {@code json}: in {@code json} an interface, a chassis or a
 * neighbour list is an object or an array depending on how many there are (lldpcli(8)); {@code json0}
 * is always arrays.
 */
package io.railmap.discovery.lldp;
