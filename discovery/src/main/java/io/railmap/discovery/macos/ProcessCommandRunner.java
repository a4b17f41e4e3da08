package io.railmap.discovery.macos;

import io.railmap.process.BoundedCommand;
import io.railmap.process.CommandFailedException;
import java.time.Duration;
import java.util.List;

/**
 * Runs the real commands as child processes through {@link BoundedCommand}: standard input closed,
 * standard output read up to {@value #MAX_OUTPUT_BYTES} bytes (the command is killed as soon as it
 * prints more), and a command still running at the time limit killed, with any processes it started.
 */
public final class ProcessCommandRunner implements CommandRunner {
    /** Default time limit: {@code system_profiler} takes a few seconds on a busy machine. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);
    /** Largest standard output read, in bytes ({@code system_profiler}'s JSON is tens of KB). */
    public static final int MAX_OUTPUT_BYTES = 16 << 20;

    private final Duration timeout;

    /** Uses {@link #DEFAULT_TIMEOUT}. */
    public ProcessCommandRunner() {
        this(DEFAULT_TIMEOUT);
    }

    /**
     * @param timeout how long one command may run
     * @throws IllegalArgumentException when the timeout is zero or negative
     */
    public ProcessCommandRunner(Duration timeout) {
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("command timeout " + timeout + " is not positive");
        }
        this.timeout = timeout;
    }

    /**
     * @throws CommandException when the program cannot be started (not installed), exits with a
     *                          non-zero status (the message quotes the start of its standard
     *                          error, escaped), runs past the time limit, prints more than
     *                          {@value #MAX_OUTPUT_BYTES} bytes or text that is not UTF-8, or the
     *                          thread is interrupted
     */
    @Override
    public CommandOutput run(MacCommand command) throws CommandException {
        return run(command.argv());
    }

    /** Runs any argument vector through {@link BoundedCommand}; the source of the output is the command line. */
    CommandOutput run(List<String> argv) throws CommandException {
        try {
            return new CommandOutput(String.join(" ", argv), BoundedCommand.run(argv, timeout, MAX_OUTPUT_BYTES));
        } catch (CommandFailedException e) {
            throw new CommandException(e.getMessage());
        }
    }
}
