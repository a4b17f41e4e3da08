/**
 * The public JSON formats: node records and snapshots ({@link io.railmap.matrix.codec.SnapshotCodec})
 * and jaccl devices files ({@link io.railmap.matrix.codec.DevicesCodec}). Readers are strict: a
 * malformed document, an unknown field or an unknown format version fails with a
 * {@link io.railmap.matrix.codec.FormatException} naming the source, the JSON path and the problem.
 * Codecs take and return text; reading files is the caller's business.
 */
package io.railmap.matrix.codec;
