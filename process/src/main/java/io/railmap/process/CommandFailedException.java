package io.railmap.process;

/**
 * A helper program ({@link BoundedCommand}) gave no usable answer. The message names the command
 * line and says what went wrong.
 */
public final class CommandFailedException extends Exception {
    private static final long serialVersionUID = 1L;
    private final boolean notStarted;

    /**
     * @param message    the command line and what went wrong
     * @param notStarted true when the program could not be started at all (not installed, not executable)
     */
    public CommandFailedException(String message, boolean notStarted) {
        super(message);
        this.notStarted = notStarted;
    }

    /** @return true when the program could not be started at all */
    public boolean notStarted() {
        return notStarted;
    }
}
