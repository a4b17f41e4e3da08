/**
 * One class per subcommand of {@code railmap} (the lab's are in {@code io.railmap.cli.lab}), each registered
 * once in {@link io.railmap.cli.Railmap}'s {@code subcommands}, which help, the man pages and shell completion
 * read.
 */
package io.railmap.cli.commands;
