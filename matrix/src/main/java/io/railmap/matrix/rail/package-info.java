/**
 * The rail-aligned device matrix {@code devices[i][j][k]} (ranks × ranks × rails). Both cells of a
 * pair are written from one ordered list of that pair's cables, so rail k on rank i and rail k on
 * rank j are always the two ends of one cable ({@link io.railmap.matrix.rail.RailAligner}).
 * {@link io.railmap.matrix.rail.JacclRules} holds the shape rules jaccl applies to such a matrix.
 */
package io.railmap.matrix.rail;
