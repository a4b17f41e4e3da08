/**
 * Every striping library's settings for one node, from the same cable map: which compute NICs a
 * node has ({@link io.railmap.matrix.library.ComputeNics}), the rail each is on, and one
 * {@link io.railmap.matrix.library.Library} per library (NCCL, UCX, NIXL, ModelExpress, NVSHMEM, ...)
 * that turns them into that library's variables, registered once in
 * {@link io.railmap.matrix.library.Libraries}. Pure: records in, settings out.
 */
package io.railmap.matrix.library;
