/**
 * {@code railmap}, what a person types. {@link io.railmap.cli.Railmap} builds the picocli command
 * line used by both {@code main} and the tests; one class per subcommand in
 * {@link io.railmap.cli.commands}; shared options as mixins in {@link io.railmap.cli.options}; every
 * exception becomes an exit code in one place ({@link io.railmap.cli.Failures}). The CLI depends on
 * the matrix core and, for {@code railmap discover} only, on the daemon's discovery package;
 * everything else about a running daemon goes through its HTTP API.
 */
package io.railmap.cli;
