/**
 * IPv4 addresses and which cable a TCP connection travels: the address plan that gives every cable a
 * subnet of its own ({@link io.railmap.matrix.address.AddressPlan}), the kernel's choice of the port a
 * connection leaves by ({@link io.railmap.matrix.address.Routes}), from which a cable's addresses are
 * judged ({@link io.railmap.matrix.address.CableRoutes}), and the addresses jaccl and mlx.launch accept
 * ({@link io.railmap.matrix.address.Addresses}).
 */
package io.railmap.matrix.address;
