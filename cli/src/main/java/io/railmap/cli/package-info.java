/**
 * {@code railmap}, what a person types. {@link io.railmap.cli.Railmap} builds the picocli command line
 * used by both {@code main} and the tests, and its {@code --help} lists the commands.
 *
 * <p>Where things are: one class per subcommand ({@code commands}, {@code lab}); options shared by
 * several commands as mixins ({@code options}); a running daemon only through its HTTP API
 * ({@code client}); configs that follow the cables ({@code follow}); every exception becomes an exit
 * code in one place ({@link io.railmap.cli.Failures}).
 */
package io.railmap.cli;
