/**
 * Writers of what collective libraries and people read, each from a
 * {@link io.railmap.matrix.plan.Plan}: the jaccl devices file
 * ({@link io.railmap.matrix.codec.DevicesCodec#write}), the jaccl environment
 * ({@link io.railmap.matrix.emit.JacclEnv}), an mlx.launch hostfile
 * ({@link io.railmap.matrix.emit.LaunchHostfile}), Graphviz DOT ({@link io.railmap.matrix.emit.Dot})
 * and railmap's own JSON ({@link io.railmap.matrix.emit.PlanJson}). Formats are documented in
 * {@code shared/design/formats.md} with the library sources they come from.
 */
package io.railmap.matrix.emit;
