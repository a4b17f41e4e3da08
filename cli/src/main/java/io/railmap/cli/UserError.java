package io.railmap.cli;

/**
 * A mistake in what the user gave (a file, a value), or a daemon's refusal of a request
 * ({@link io.railmap.cli.client.DaemonClient.Refused}); printed as one line and exit code
 * {@link ExitCodes#INPUT}.
 */
public class UserError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @param message names the input, what is wrong and what to do */
    public UserError(String message) {
        super(message);
    }
}
