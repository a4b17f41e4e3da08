/**
 * Every striping library's settings for one node, from the same cable map: which compute NICs a
 * node has ({@link io.railmap.matrix.library.ComputeNics}), the rail each is on, and one
 * {@link io.railmap.matrix.library.Library} per library that turns them into that library's
 * variables and names the {@link io.railmap.matrix.library.EnvRules} by which it reads them back
 * ({@code railmap check --env}, {@link io.railmap.matrix.library.EnvCheck}). Libraries are registered
 * once, in {@link io.railmap.matrix.library.Libraries#ALL}. Pure: records in, settings out.
 *
 * <p>A new library: its {@code Library} class, its {@code EnvRules} class (or those of a library it
 * reads like), and its line in {@code Libraries.ALL}.
 */
package io.railmap.matrix.library;
