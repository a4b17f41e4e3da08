/**
 * Running jobs: the nodes' local ranks ({@link io.railmap.matrix.model.LocalRank}, as each node's
 * daemon found them) assembled into jobs across nodes ({@link io.railmap.matrix.job.Jobs}), and each
 * job checked against the cables as they are now with the code of {@code railmap check} and
 * {@code check --env} ({@link io.railmap.matrix.job.JobCheck}), giving a verdict per job
 * ({@link io.railmap.matrix.job.JobVerdict}) whose findings name the job, its ranks, nodes and pids.
 */
package io.railmap.matrix.job;
