package io.railmap.discovery.macos;

/**
 * A command gave no usable output: it could not be started, exited with a non-zero status, ran past
 * its time limit, or (from a capture directory) its file is missing or unreadable. The message names
 * the command or file and says which.
 */
public final class CommandException extends Exception {
    private static final long serialVersionUID = 1L;

    /** @param message the command or file, and what went wrong */
    public CommandException(String message) {
        super(message);
    }
}
