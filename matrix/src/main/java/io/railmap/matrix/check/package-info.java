/**
 * Checks an existing jaccl devices file, or the one mlx.launch would write from a hostfile, against
 * the cable graph and returns {@link io.railmap.matrix.finding.Finding}s: above all
 * {@code mismatched-rail}, the two ends of a rail naming different cables, which hangs large
 * transfers without an error. {@link io.railmap.matrix.check.FileCheck} is the entry for a file as a
 * user hands it over; {@link io.railmap.matrix.check.Checker} checks a matrix for given ranks.
 */
package io.railmap.matrix.check;
