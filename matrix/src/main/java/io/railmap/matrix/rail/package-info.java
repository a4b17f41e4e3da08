/**
 * The rail-aligned device matrix {@code devices[i][j][k]} (ranks × ranks × rails). Both cells of a
 * pair are written from one ordered list of that pair's cables, so rail k on rank i and rail k on
 * rank j are always the two ends of one cable ({@link io.railmap.matrix.rail.RailAligner}).
 * Only cables whose two ends have an RDMA device are rails: jaccl opens devices by their RDMA name.
 */
package io.railmap.matrix.rail;
