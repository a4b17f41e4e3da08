package io.railmap.daemon.cluster;

import java.util.Locale;

/**
 * The versions of the cluster protocol a daemon reads and writes, which head every record message
 * ({@link RecordMessages}). Modelled on HashiCorp memberlist, whose members carry the protocol
 * versions they understand and the one they speak in every alive message ({@code net.go}:
 * {@code ProtocolVersionMin}, {@code ProtocolVersionMax}; {@code Vsn} = pmin, pmax, pcur) and check
 * them before using what a peer sends ({@code state.go}, {@code verifyProtocol}), and on Serf's
 * promise that each release speaks to the one before it, so daemons are upgraded one at a time.
 * Unlike memberlist, where every member must speak a version inside every other member's range (so
 * an upgrade first runs the new agents at the old version, Serf's {@code -protocol}), railmap's
 * messages are JSON that an older daemon reads by skipping what it does not know, so a newer daemon
 * writes its newest version and older ones read what they can.
 *
 * <p>The upgrade rule (versions 1, 2, … are append-only, like memberlist's message types): a new
 * version may only add what an older reader can skip, a field or a value of an enum (a port kind or
 * state: {@link io.railmap.matrix.codec.SnapshotCodec#readRecordSkipping}), and keeps {@code min}. A
 * change that an older reader cannot skip (a field removed, renamed, made required or given another
 * meaning) raises {@code min} to the version that makes it: such a daemon reads no older message and
 * no older daemon reads its messages, so a rolling upgrade across it needs the newer daemons to
 * write the older version for a while, as Serf's agents do.
 *
 * @param min     the oldest version this daemon reads; in a message, the oldest version that reads
 *                it (the sender's own {@code min})
 * @param max     the newest version this daemon (the sender) knows
 * @param current the version this daemon writes, the version a message is written in
 */
record ClusterProtocol(int min, int max, int current) {
    /** What this railmapd reads and writes. */
    static final ClusterProtocol THIS = new ClusterProtocol(1, 1, 1);
    /**
     * Test hook, never for a real cluster: protocol 2, which no railmapd has, as a newer daemon would
     * speak it if version 2 only added to version 1 ({@link RecordMessages#encode} adds fields and a
     * port that version 1 does not know). A daemon started with the system property
     * {@value #TEST_PROPERTY}{@code =next} speaks it, so that tests run an "N+1" daemon in a cluster
     * of this version's daemons.
     */
    static final ClusterProtocol SIMULATED_NEXT = new ClusterProtocol(1, 2, 2);
    /** The system property that turns on {@link #SIMULATED_NEXT} (tests only). */
    static final String TEST_PROPERTY = "railmap.test.protocol";

    /** @throws IllegalArgumentException unless 1 ≤ min ≤ current ≤ max */
    ClusterProtocol {
        if (min < 1 || current < min || max < current) {
            throw new IllegalArgumentException("protocol min " + min + ", max " + max + ", current " + current
                    + " is not 1 ≤ min ≤ current ≤ max");
        }
    }

    /**
     * @return {@link #SIMULATED_NEXT} when the system property {@value #TEST_PROPERTY} is
     *         {@code next}, else {@link #THIS}
     * @throws IllegalArgumentException naming the property when it holds another value
     */
    static ClusterProtocol fromSystemProperty() {
        String value = System.getProperty(TEST_PROPERTY);
        if (value == null) {
            return THIS;
        }
        if (value.toLowerCase(Locale.ROOT).equals("next")) {
            return SIMULATED_NEXT;
        }
        throw new IllegalArgumentException("system property " + TEST_PROPERTY + " is \"" + io.railmap.matrix.model.Names.escape(value)
                + "\"; the only value is next (a test hook: speak a simulated next protocol version)");
    }

    /**
     * @param message the versions heading a message
     * @return whether this daemon reads it: it is written in a version this daemon still reads
     *         ({@code current ≥ min}) and readable by a version this daemon knows
     *         ({@code message.min ≤ max}); a message of a newer version is read by skipping what
     *         this daemon does not know
     */
    boolean reads(ClusterProtocol message) {
        return message.current >= min && message.min <= max;
    }

    /**
     * @param message the versions of a message this daemon does not read ({@link #reads} false)
     * @return why, naming both sides' versions and which side to upgrade
     */
    String whyNotRead(ClusterProtocol message) {
        String here = "this daemon reads protocol " + range();
        if (message.min > max) {
            return "it writes protocol " + message.current + ", which only daemons of protocol " + message.min + " and newer read; "
                    + here + ": upgrade this daemon";
        }
        return "it writes protocol " + message.current + " (it knows " + message.range() + "); " + here + ": upgrade that daemon";
    }

    /** @return the versions as a range, {@code 1} or {@code 1–2} */
    String range() {
        return min == max ? Integer.toString(min) : min + "–" + max;
    }
}
