package io.railmap.daemon.probe;

/**
 * Why a received probe datagram was thrown away. Each reason is one value of the {@code reason} tag
 * of the {@code railmap.probe.dropped} counter. Decode and authentication failures come from
 * {@link ProbeCodec#decode(byte[], java.util.Optional)}; the rest are decided by {@link ProbeIntake}.
 * Values are append-only in spirit: a tag, once published, keeps its meaning.
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
    /** An authenticated hello, but this daemon has no cluster key to verify it with. */
    NO_KEY("no-key"),
    /** A hello without a tag, but this daemon has a cluster key and accepts only authenticated ones. */
    UNAUTHENTICATED("unauthenticated"),
    /** The tag does not verify: made with another key (another cluster, a forger), or bytes changed on the way. */
    BAD_TAG("bad-tag"),
    /**
     * A datagram this node sent itself, looped back to it: its source address is one of this
     * machine's own addresses. A local process (not the daemon, whose sockets never loop back) sent it.
     */
    LOOPED("looped"),
    /** The source address is not IPv6 link-local ({@code fe80::/10}), which every real hello's is. */
    SOURCE("source"),
    /**
     * A datagram seen before: its sequence number is not above the last one taken from that far end
     * on that port (even after that far end expired), or is more than the reorder window behind the
     * newest taken from its sender on any port.
     */
    REPLAY("replay"),
    /** The port already hears as many far ends as it may hold ({@link ProbeLimits}); a new one is not taken. */
    TABLE_FULL("table-full"),
    /** Sent by a node of another cluster. */
    CLUSTER("cluster"),
    /** Sent by this node (looped back, or a cable from this node to itself). */
    SELF("self"),
    /** An older incarnation of a sender whose newer one is alive, or of a far end this port already hears in a newer one. */
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
