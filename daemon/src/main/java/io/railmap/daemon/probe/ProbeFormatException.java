package io.railmap.daemon.probe;

import java.util.Objects;

/**
 * A datagram that {@link ProbeCodec#decode(byte[])} refused. Malformed datagrams are an expected
 * condition on a shared multicast group, so this exception carries no stack trace: log its
 * {@link #getMessage() message} and count its {@link #reason() reason}.
 */
public final class ProbeFormatException extends Exception {
    private final DropReason reason;

    /**
     * @param reason the drop reason, one of the decode failures
     * @param detail what exactly was wrong, for a log line
     */
    public ProbeFormatException(DropReason reason, String detail) {
        super(Objects.requireNonNull(reason, "reason").tag() + ": " + detail, null, false, false);
        this.reason = reason;
    }

    /** @return why the datagram was refused */
    public DropReason reason() {
        return reason;
    }
}
