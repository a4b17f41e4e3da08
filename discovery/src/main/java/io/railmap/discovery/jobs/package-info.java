/**
 * Finding the ranks of collective jobs running on this node (docs/jobs.md): which processes hold
 * collective settings in their environment, only those settings, and the devices file and hostfile
 * they name. {@link io.railmap.discovery.jobs.LinuxRanks} reads {@code /proc};
 * {@link io.railmap.discovery.jobs.EnvironFilter} is the one place an environment's bytes are seen,
 * and it keeps only {@link io.railmap.matrix.model.JobVariables#NAMES}.
 */
package io.railmap.discovery.jobs;
