package io.railmap.discovery.model;

/**
 * Discovery of a whole node failed: an input every port depends on is missing, cannot be read or
 * does not follow its format. The message names the input (a sysfs directory, a command line, a
 * capture file) and what is wrong with it.
 */
public final class DiscoveryException extends Exception {
    private static final long serialVersionUID = 1L;

    /** @param message the input and what is wrong with it */
    public DiscoveryException(String message) {
        super(message);
    }

    /**
     * @param message the input and what is wrong with it
     * @param cause   the underlying failure
     */
    public DiscoveryException(String message, Throwable cause) {
        super(message, cause);
    }
}
