package io.railmap.discovery.macos;

/** Runs one of discovery's commands and returns its standard output. The one seam tests swap. */
public interface CommandRunner {
    /**
     * @param command the command
     * @return its standard output and where it came from
     * @throws CommandException when the command gives no usable output (see {@link CommandException})
     */
    CommandOutput run(MacCommand command) throws CommandException;
}
