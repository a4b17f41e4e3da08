package io.railmap.daemon.probe;

/**
 * When hellos go out and how long a far end is believed: the timing formulas of the probe as pure
 * functions, kept out of the timer code so that they can be tested with tables.
 *
 * <p>After a port comes up (and again whenever it hears a new far end, so that a peer that just
 * came up learns of this port quickly, as LLDP's fast start does) the port sends
 * {@code fastCount} hellos {@code fastIntervalMs} apart, then one every {@code intervalMs}. Every
 * hello carries a TTL of {@code ceil(ttlFactor × intervalMs)}: the far end survives
 * {@code ttlFactor - 1} lost hellos in a row.
 *
 * @param intervalMs     steady time between hellos on one port, in ms. Default 1000. Lower finds a
 *                       dead far end sooner (after about {@code ttlFactor × intervalMs}) and costs one
 *                       ~200-byte datagram per port per interval
 * @param fastIntervalMs time between hellos during fast start, in ms; 10 to {@code intervalMs}.
 *                       Default 250
 * @param fastCount      hellos sent at {@code fastIntervalMs} after a port comes up or hears a new
 *                       far end; 0 to 100, 0 turns fast start off. Default 8 (two seconds)
 * @param ttlFactor      TTL as a multiple of {@code intervalMs}; 2 to 100. Default 3.5
 */
public record ProbeTiming(long intervalMs, long fastIntervalMs, int fastCount, double ttlFactor) {

    /** For daemons on real cables: a hello a second, 3.5 s TTL, 8 fast hellos 250 ms apart. */
    public static final ProbeTiming DEFAULTS = new ProbeTiming(1000, 250, 8, 3.5);

    /**
     * For labs of network namespaces and tests: {@link #DEFAULTS} four times faster (250 ms
     * interval, 875 ms TTL, fast hellos 50 ms apart).
     */
    public static final ProbeTiming LAB = DEFAULTS.withIntervals(250, 50);

    /** Shortest interval accepted, in ms. */
    public static final long MIN_INTERVAL_MS = 10;

    /**
     * Validates the ranges given above.
     *
     * @throws IllegalArgumentException when a value is out of its range, or the resulting TTL
     *                                  exceeds {@link ProbeDatagram#MAX_TTL_MS}
     */
    public ProbeTiming {
        if (intervalMs < MIN_INTERVAL_MS) {
            throw new IllegalArgumentException("probe interval " + intervalMs + " ms is below " + MIN_INTERVAL_MS);
        }
        if (fastIntervalMs < MIN_INTERVAL_MS || fastIntervalMs > intervalMs) {
            throw new IllegalArgumentException("fast-start interval " + fastIntervalMs + " ms is outside "
                    + MIN_INTERVAL_MS + ".." + intervalMs);
        }
        if (fastCount < 0 || fastCount > 100) {
            throw new IllegalArgumentException("fast-start count " + fastCount + " is outside 0..100");
        }
        if (!(ttlFactor >= 2 && ttlFactor <= 100)) {
            throw new IllegalArgumentException("TTL factor " + ttlFactor + " is outside 2..100");
        }
        if (Math.ceil(ttlFactor * intervalMs) > ProbeDatagram.MAX_TTL_MS) {
            throw new IllegalArgumentException("TTL of " + ttlFactor + " × " + intervalMs + " ms exceeds "
                    + ProbeDatagram.MAX_TTL_MS + " ms");
        }
    }

    /**
     * @param newIntervalMs     the steady interval in ms
     * @param newFastIntervalMs the fast-start interval in ms
     * @return a copy with those intervals
     * @throws IllegalArgumentException when they are out of range
     */
    public ProbeTiming withIntervals(long newIntervalMs, long newFastIntervalMs) {
        return new ProbeTiming(newIntervalMs, newFastIntervalMs, fastCount, ttlFactor);
    }

    /**
     * The pause after a hello, before the next one on the same port.
     *
     * @param sentInFastStart hellos already sent on this port since it came up or last restarted
     *                        fast start (the one just sent included); ≥ 0
     * @return {@code fastIntervalMs} while fewer than {@code fastCount} were sent, else
     *         {@code intervalMs}; in ms
     * @throws IllegalArgumentException when {@code sentInFastStart} is negative
     */
    public long delayAfterMs(int sentInFastStart) {
        if (sentInFastStart < 0) {
            throw new IllegalArgumentException("hellos sent " + sentInFastStart + " is negative");
        }
        return sentInFastStart < fastCount ? fastIntervalMs : intervalMs;
    }

    /** @return the TTL every hello carries, {@code ceil(ttlFactor × intervalMs)}, in ms */
    public long ttlMs() {
        return (long) Math.ceil(ttlFactor * intervalMs);
    }

    /**
     * @return the longest TTL a received hello is believed for, in ms: {@value #ACCEPTED_TTL_FACTOR}
     *         × {@link #ttlMs()} (10.5 s by default), at most {@link ProbeDatagram#MAX_TTL_MS}. A
     *         hello that asks for more gets this much: the receiver, not the sender, bounds how long
     *         a far end outlives its last hello. Daemons whose intervals differ by more than this
     *         factor would expire each other between hellos: a cluster uses one interval
     */
    public long maxAcceptedTtlMs() {
        return Math.min(ProbeDatagram.MAX_TTL_MS, ACCEPTED_TTL_FACTOR * ttlMs());
    }

    /** How many of its own TTLs a receiver believes a hello for, at most. */
    public static final int ACCEPTED_TTL_FACTOR = 3;

    /**
     * @param heardAtMs when the hello arrived, on a monotonic clock in ms
     * @param ttlMs     the TTL it carried, in ms, ≥ 0
     * @return when the far end expires, in ms on the same clock ({@code Long.MAX_VALUE} rather than
     *         overflowing)
     */
    public static long expiresAtMs(long heardAtMs, long ttlMs) {
        long sum = heardAtMs + ttlMs;
        return ((heardAtMs ^ sum) & (ttlMs ^ sum)) < 0 ? Long.MAX_VALUE : sum;
    }

    /**
     * @param nowMs       the current time, in ms on the clock of {@code expiresAtMs}
     * @param expiresAtMs from {@link #expiresAtMs(long, long)}
     * @return true when the far end has expired: at its expiry instant or after
     */
    public static boolean expired(long nowMs, long expiresAtMs) {
        return nowMs >= expiresAtMs;
    }
}
