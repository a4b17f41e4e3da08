package io.railmap.lab;

import io.railmap.process.BoundedCommand;
import io.railmap.process.CommandFailedException;
import java.time.Duration;
import java.util.List;

/**
 * Runs iproute2 and other short commands through {@link BoundedCommand}, each bounded in time
 * ({@value #TIMEOUT_MS} ms) and output ({@value #MAX_OUTPUT_BYTES} bytes), with errors that name the
 * command.
 */
public final class Ip {
    /** How long one command may take, in ms. */
    public static final long TIMEOUT_MS = 20_000;
    /** The most output taken from one command, in bytes: far above {@code ip -s -j link show} of a lab namespace. */
    public static final int MAX_OUTPUT_BYTES = 16 << 20;
    private static final Duration TIMEOUT = Duration.ofMillis(TIMEOUT_MS);

    private Ip() {
    }

    /**
     * Runs a command to completion.
     *
     * @param command the program and its arguments
     * @return its standard output and error, merged
     * @throws LabException when it cannot start, times out, prints too much, or exits non-zero (with
     *                      the start of its output)
     */
    public static String run(String... command) {
        return run(List.of(command));
    }

    /** @see #run(String...) */
    public static String run(List<String> command) {
        try {
            return BoundedCommand.runMerged(command, TIMEOUT, MAX_OUTPUT_BYTES);
        } catch (CommandFailedException e) {
            throw new LabException(e.getMessage());
        }
    }

    /**
     * Runs a command whose standard output is data (JSON): a warning on its standard error is not
     * mixed in, but is part of the message when the command fails.
     *
     * @return its standard output
     * @throws LabException as {@link #run(String...)}, the message quoting its standard error
     */
    public static String output(String... command) {
        try {
            return BoundedCommand.run(List.of(command), TIMEOUT, MAX_OUTPUT_BYTES);
        } catch (CommandFailedException e) {
            throw new LabException(e.getMessage());
        }
    }

    /** Like {@link #run(String...)}, but a failure is ignored (for clean-up of what may not exist). */
    public static void runQuietly(String... command) {
        try {
            run(command);
        } catch (LabException ignored) {
            // already gone, or never made
        }
    }
}
