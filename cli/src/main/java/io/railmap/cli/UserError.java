package io.railmap.cli;

/** A mistake in what the user gave (a file, a value); printed as one line and exit code {@link ExitCodes#INPUT}. */
public final class UserError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @param message names the input, what is wrong and what to do */
    public UserError(String message) {
        super(message);
    }
}
