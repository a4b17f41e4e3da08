package io.railmap.daemon.cluster;

import java.util.Locale;

/** Why a record received from the cluster was not taken. Each is a tag of {@link ClusterMetrics#REJECTED}. */
public enum RejectReason {
    /** Not a record: not JSON, not the record format, a bad name, or larger than the limit. */
    MALFORMED,
    /** A record of another node than the member that sent it: a member only sends its own record. */
    FOREIGN,
    /** A record claiming this very node: this daemon owns its record. */
    OWN,
    /** Not newer than the record held for that node: a duplicate or one that arrived late. */
    STALE,
    /** Sent by a member that is not in the view (it left or was dropped before the record was handled). */
    NOT_MEMBER,
    /**
     * A record of a node this daemon holds no record of, while it holds as many records, or as many
     * bytes of records, as it may ({@link RecordIntake#MAX_RECORDS}, {@link RecordIntake#MAX_RECORD_BYTES}).
     */
    FULL;

    /** @return the metric tag, e.g. {@code not-member} */
    public String tag() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
