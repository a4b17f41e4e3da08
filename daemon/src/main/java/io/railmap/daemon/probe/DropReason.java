package io.railmap.daemon.probe;

/**
 * Why a received probe datagram was thrown away. Each reason is one value of the {@code reason} tag
 * of the {@code railmap.probe.dropped} counter. The first eight are decode failures
 * ({@link ProbeCodec#decode(byte[])}); the rest are decided after decoding, by
 * {@link ProbeIntake}.
 */
public enum DropReason {
    /** Longer than {@link ProbeCodec#MAX_DATAGRAM_BYTES}. */
    OVERSIZE("oversize"),
    /** Shorter than the header, or than the body length the header declares. */
    TRUNCATED("truncated"),
    /** The first four bytes are not railmap's magic: someone else's traffic on our group and port. */
    MAGIC("magic"),
    /** A protocol version this daemon does not speak. */
    VERSION("version"),
    /** A message type this version does not define. */
    TYPE("type"),
    /** Bytes after the body the header declares. */
    LENGTH("length"),
    /** The body is not UTF-8, not JSON, not one JSON object, or repeats a key. */
    BODY("body"),
    /** A field is missing, unknown, of the wrong JSON type, or out of its range. */
    FIELD("field"),
    /** Sent by a node of another cluster. */
    CLUSTER("cluster"),
    /** Sent by this node (looped back, or a cable from this node to itself). */
    SELF("self"),
    /** An older incarnation of a far end this port already hears in a newer one. */
    STALE("stale"),
    /** The sender's address carries no IPv6 scope, so the arrival port is unknown. */
    NO_SCOPE("no-scope"),
    /** The sender's scope names an interface that is not a probed port (or no longer is). */
    UNKNOWN_PORT("unknown-port");

    private final String tag;

    DropReason(String tag) {
        this.tag = tag;
    }

    /** @return the metric tag value, lower case with hyphens (e.g. {@code "unknown-port"}) */
    public String tag() {
        return tag;
    }
}
