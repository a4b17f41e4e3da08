/**
 * Reading a file someone named: a snapshot, a devices file, a record, a lab topology, a capture, the
 * cluster key file, railmapd's config file. {@link io.railmap.discovery.input.InputFile} is the one rule
 * (a regular file, under the cap of its {@link io.railmap.discovery.input.InputKind}, UTF-8 text), used
 * by the daemon and by the {@code railmap} command line alike.
 *
 * <p>It lives here because the core ({@code matrix}) does no I/O and this is the lowest module that
 * both the daemon and the command line depend on; the lab module reads no file a user names (the
 * command line reads its topology file).
 */
package io.railmap.discovery.input;
