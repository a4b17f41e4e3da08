/**
 * Writers of what collective libraries and people read, each from a
 * {@link io.railmap.matrix.plan.Plan}: one class per output format, implementing
 * {@link io.railmap.matrix.emit.Format} and registered once in
 * {@link io.railmap.matrix.emit.Formats#ALL}, from which the CLI's {@code --format} and the API's
 * {@code format=} take their lists. Each class cites the library source of its format; users read
 * about them in {@code docs/cli.md} ({@code railmap matrix}).
 *
 * <p>A new format: its class and its line in {@code Formats.ALL} (and a
 * {@link io.railmap.matrix.emit.FormatOption} when it reads an option no format reads yet).
 */
package io.railmap.matrix.emit;
