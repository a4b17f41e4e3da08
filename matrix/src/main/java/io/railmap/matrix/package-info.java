/**
 * The pure core of railmap: records in; topology, device matrix, ring order, checks and emitters
 * out. Nothing here opens a file or a socket, starts a thread or reads a clock.
 *
 * <p>Data flows one way: a package depends only on packages of the lines above its own, never on
 * one of its line or below ({@code ArchitectureTest} reads this list and enforces it; a new package
 * gets a line here).
 * <ol>
 *   <li>{@link io.railmap.matrix.model}: ports, node records, snapshots</li>
 *   <li>{@link io.railmap.matrix.finding}: what every stage reports (code, severity, sentence)</li>
 *   <li>{@link io.railmap.matrix.codec}: the public JSON formats</li>
 *   <li>{@link io.railmap.matrix.jaccl} (jaccl's rules), {@link io.railmap.matrix.topology} (the
 *       cable multigraph), {@link io.railmap.matrix.ring} (ring rank orders)</li>
 *   <li>{@link io.railmap.matrix.rail}: the rail-aligned {@code devices[i][j][k]} matrix</li>
 *   <li>{@link io.railmap.matrix.provenance} (the records a result came from),
 *       {@link io.railmap.matrix.address} (addresses and routes),
 *       {@link io.railmap.matrix.fabric} (rails on switched fabrics)</li>
 *   <li>{@link io.railmap.matrix.check}: existing configs against the cables</li>
 *   <li>{@link io.railmap.matrix.plan} (a request answered),
 *       {@link io.railmap.matrix.change} (events between two states),
 *       {@link io.railmap.matrix.draw} (the SVG picture)</li>
 *   <li>{@link io.railmap.matrix.library} (every library's settings and env checks),
 *       {@link io.railmap.matrix.emit} (the output formats)</li>
 *   <li>{@link io.railmap.matrix.job}: running jobs assembled from the nodes' ranks and checked</li>
 * </ol>
 */
package io.railmap.matrix;
