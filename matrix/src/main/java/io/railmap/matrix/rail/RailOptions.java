package io.railmap.matrix.rail;

import io.railmap.matrix.model.Rates;

/**
 * Which cables become rails. Defaults ({@link #DEFAULTS}): only cables whose two ends are active,
 * no minimum rate, no cap on wires per pair, ring edges trimmed to an equal count.
 *
 * @param activeOnly     keep only cables with both ends {@code active}. Default is true.
 * @param minRateGbps    keep only cables whose rate (the lower of the two ends' rates) is at least
 *                       this many Gb/s; a cable of unknown rate passes only when this is 0. Default 0.
 * @param maxWires       at most this many cables per pair (the fastest ones); at least 1. Default is
 *                       {@link Integer#MAX_VALUE} (no cap).
 * @param equalRingWires when the rank order follows a cycle of the cable graph, trim every ring edge
 *                       (ranks r and r+1) to the smallest count on the cycle and at most
 *                       {@value io.railmap.matrix.jaccl.JacclRules#RING_MAX_CONNS}, as jaccl's ring requires. Default is true.
 */
public record RailOptions(boolean activeOnly, double minRateGbps, int maxWires, boolean equalRingWires) {
    /** Active cables only, any rate, any count, equal ring edges. */
    public static final RailOptions DEFAULTS = new RailOptions(true, 0.0, Integer.MAX_VALUE, true);

    /**
     * @throws IllegalArgumentException when {@code minRateGbps} is NaN, infinite or negative, or
     *                                  {@code maxWires} is below 1
     */
    public RailOptions {
        Rates.requireRate("the minimum rate", minRateGbps);
        if (maxWires < 1) {
            throw new IllegalArgumentException("the maximum number of wires per pair must be at least 1 (got " + maxWires + ")");
        }
    }

    /** @return a copy with {@code minRateGbps} replaced (validated as in the constructor) */
    public RailOptions withMinRateGbps(double value) {
        return new RailOptions(activeOnly, value, maxWires, equalRingWires);
    }

    /** @return a copy with {@code maxWires} replaced (validated as in the constructor) */
    public RailOptions withMaxWires(int value) {
        return new RailOptions(activeOnly, minRateGbps, value, equalRingWires);
    }

    /** @return a copy with {@code activeOnly} replaced */
    public RailOptions withActiveOnly(boolean value) {
        return new RailOptions(value, minRateGbps, maxWires, equalRingWires);
    }

    /** @return a copy with {@code equalRingWires} replaced */
    public RailOptions withEqualRingWires(boolean value) {
        return new RailOptions(activeOnly, minRateGbps, maxWires, value);
    }
}
