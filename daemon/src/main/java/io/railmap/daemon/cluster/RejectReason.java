package io.railmap.daemon.cluster;

import java.util.Locale;

/** Why a record received from the cluster was not taken. Each is a tag of {@link ClusterMetrics#REJECTED}. */
public enum RejectReason {
    /**
     * A record message larger than {@link RecordMessages#MAX_BYTES}: far above any node's record, so a
     * buggy or hostile sender; dropped before it is decoded.
     */
    TOO_LARGE,
    /**
     * Not a record message: not UTF-8 or JSON, no valid protocol versions, or
     * a record that breaks a rule of the format (a bad name, a value of the wrong type, no
     * incarnation).
     */
    MALFORMED,
    /**
     * Written in a protocol version this daemon does not read: an older daemon's that this one no
     * longer reads, or a newer daemon's that only newer versions read ({@link ClusterProtocol}).
     */
    PROTOCOL,
    /**
     * A record that is not the sender's own: of another node than the member that sent it, or of
     * another incarnation (start of a daemon) than the sending member.
     */
    FOREIGN,
    /** A record claiming this very node: this daemon owns its record. */
    OWN,
    /**
     * Sent by a member that is not its node's current member: a member later in the view claims the
     * same node (a restarted daemon whose previous run is not yet dropped, or two daemons given one
     * node name).
     */
    SUPERSEDED,
    /** Of the incarnation held and not a higher version: a duplicate or one that arrived late. */
    STALE,
    /** Sent by a member that is not in the view (it left or was dropped before the record was handled). */
    NOT_MEMBER,
    /**
     * A record of a node this daemon holds no record of while it holds as many records as it may
     * ({@link RecordIntake#MAX_RECORDS}), or any record that would take the bytes of record messages
     * held past their bound ({@link RecordIntake#heldBytesFor}, an eighth of the heap).
     */
    FULL;

    /** @return the metric tag, e.g. {@code not-member} */
    public String tag() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
