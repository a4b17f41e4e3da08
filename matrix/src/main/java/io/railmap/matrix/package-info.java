/**
 * The pure core of railmap: records in; topology, device matrix, ring order, checks and emitters
 * out. Nothing here opens a file or a socket, starts a thread or reads a clock.
 *
 * <p>Data flows one way through the packages:
 * {@link io.railmap.matrix.model} (ports and node records) →
 * {@link io.railmap.matrix.topology} (a multigraph of confirmed cables) →
 * {@link io.railmap.matrix.rail} (the rail-aligned {@code devices[i][j][k]} matrix), with
 * {@link io.railmap.matrix.ring} choosing a ring rank order and {@link io.railmap.matrix.check}
 * validating existing configs → {@link io.railmap.matrix.emit} (jaccl, env, mlx.launch, DOT).
 * {@link io.railmap.matrix.codec} reads and writes the public JSON formats.
 */
package io.railmap.matrix;
