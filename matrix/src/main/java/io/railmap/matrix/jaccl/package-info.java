/**
 * jaccl's own rules, per MLX release, read from its source: which matrices it accepts and how it
 * runs them ({@link io.railmap.matrix.jaccl.JacclRules}, {@link io.railmap.matrix.jaccl.JacclMode}),
 * what init refuses ({@link io.railmap.matrix.jaccl.JacclInit}), the release differences
 * ({@link io.railmap.matrix.jaccl.MlxVersion}) and the variables it reads
 * ({@link io.railmap.matrix.jaccl.JacclVariables}).
 */
package io.railmap.matrix.jaccl;
