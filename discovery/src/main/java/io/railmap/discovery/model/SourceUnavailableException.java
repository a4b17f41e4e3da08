package io.railmap.discovery.model;

/** A {@link SwitchPortSource}'s helper program cannot be asked at all; the message says why and what to do. */
public final class SourceUnavailableException extends Exception {
    private static final long serialVersionUID = 1L;

    /** @param message the command or socket, what went wrong, and what to do */
    public SourceUnavailableException(String message) {
        super(message);
    }
}
