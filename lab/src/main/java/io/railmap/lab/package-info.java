/**
 * Virtual clusters on one Linux machine, for {@code railmap lab} and the end-to-end tests: each node
 * is a network namespace, each cable a veth pair with the topology file's interface names at its
 * ends, a management bridge lives in a namespace of its own, and a real railmapd runs in every node.
 * A switch is a namespace with a bridge over its ports and an lldpd ({@link io.railmap.lab.Lldpd});
 * in a lab with switches every node runs lldpd too. When asked, every node runs an sshd on its
 * management address, reached through an ssh client shim in the management namespace
 * ({@link io.railmap.lab.LabSsh}).
 * Everything made carries a prefix ({@link io.railmap.lab.LabNames}), so the lab never touches
 * anything it did not create. Needs root and iproute2, lldpd for a lab with switches, and OpenSSH
 * (openssh-server) for ssh. {@link io.railmap.lab.MlxRuntime} gives the tests and benchmarks that
 * run MLX itself its pinned runtime ({@code bin/mlx-venv}).
 */
package io.railmap.lab;
