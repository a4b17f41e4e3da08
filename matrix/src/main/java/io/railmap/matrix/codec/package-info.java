/**
 * The JSON formats: node records and snapshots ({@link io.railmap.matrix.codec.SnapshotCodec}), jaccl
 * devices files ({@link io.railmap.matrix.codec.DevicesCodec}) and mlx.launch hostfiles
 * ({@link io.railmap.matrix.codec.HostfileCodec}), the ring backend's hosts file
 * ({@link io.railmap.matrix.codec.RingHostsCodec}) and findings
 * ({@link io.railmap.matrix.codec.FindingJson}); {@link io.railmap.matrix.codec.CheckedFile} tells a
 * devices file from a hostfile. railmap's own formats are read strictly: a malformed document, an
 * unknown field or an unknown format version fails with a
 * {@link io.railmap.matrix.codec.FormatException} naming the source, the JSON path and the problem.
 * A hostfile belongs to MLX and is read as mlx.launch reads it: unknown keys are ignored, and what
 * mlx.launch would refuse or fail on is such an error. Codecs take and return text; reading files is
 * the caller's business.
 */
package io.railmap.matrix.codec;
