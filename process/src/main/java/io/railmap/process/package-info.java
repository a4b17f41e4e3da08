/**
 * Running a child process to completion with every input bounded ({@link io.railmap.process.BoundedCommand}),
 * and ending a child with what it started ({@link io.railmap.process.ProcessTree}): the one process runner of
 * discovery's helper programs, the lab's iproute2 calls and {@code --on-change}.
 */
package io.railmap.process;
