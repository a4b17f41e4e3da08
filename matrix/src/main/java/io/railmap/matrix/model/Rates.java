package io.railmap.matrix.model;

/** The one rule for a rate or speed in Gb/s: a finite number, at least 0. */
public final class Rates {
    private Rates() {
    }

    /**
     * @param what  what the number is, for the message (e.g. {@code "--min-rate-gbps"})
     * @param value the number in Gb/s
     * @return the value
     * @throws IllegalArgumentException when the value is NaN, infinite or negative
     */
    public static double requireRate(String what, double value) {
        if (!Double.isFinite(value) || value < 0) {
            throw new IllegalArgumentException(what + " must be a finite number of Gb/s, at least 0 (got " + value + ")");
        }
        return value;
    }
}
