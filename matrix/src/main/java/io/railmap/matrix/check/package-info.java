/**
 * Checks an existing jaccl devices file against the cable graph and returns
 * {@link io.railmap.matrix.check.Finding}s: above all {@code mismatched-rail}, the two ends of a
 * rail naming different cables, which hangs large transfers without an error.
 */
package io.railmap.matrix.check;
