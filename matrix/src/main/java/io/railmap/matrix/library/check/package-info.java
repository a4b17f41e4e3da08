/**
 * {@code railmap check --env}: an existing environment file's variables against one node's cables,
 * each read as its library reads it ({@link io.railmap.matrix.library.check.EnvCheck}, one class per
 * library, {@code ListedPorts} for what they share, {@code CNumber} for C's number parsing). Pure.
 */
package io.railmap.matrix.library.check;
