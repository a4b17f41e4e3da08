package io.railmap.discovery.model;

/**
 * One port cannot be discovered. Thrown by the code that reads one port and caught by its
 * {@link PortSource}, which records the message as a {@link SkippedPort} reason and moves on to
 * the next port.
 */
public final class SkipException extends Exception {
    private static final long serialVersionUID = 1L;

    /** @param reason why the port is skipped, naming the value or file at fault */
    public SkipException(String reason) {
        super(reason);
    }
}
