package io.railmap.lab;

/** The lab cannot do what was asked (not root, iproute2 missing, a command failed); the message says why. */
public final class LabException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @param message what went wrong and, where possible, what to do */
    public LabException(String message) {
        super(message);
    }
}
