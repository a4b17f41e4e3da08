/**
 * One request, answered: nodes and options in, a {@link io.railmap.matrix.plan.Plan} out (rank
 * order, rail-aligned matrix, findings), which every emitter reads.
 */
package io.railmap.matrix.plan;
