package io.railmap.cli.options;

import io.railmap.matrix.model.Rates;
import io.railmap.matrix.rail.RailOptions;
import picocli.CommandLine.Option;

/** The options that choose which cables become rails ({@link RailOptions}). */
public final class RailOptionsMixin {
    @Option(names = "--min-rate-gbps", paramLabel = "X", defaultValue = "0",
            description = "Only cables of at least X Gb/s (a finite number >= 0; a cable of unknown rate passes only at 0). Default: ${DEFAULT-VALUE}.")
    double minRateGbps;

    @Option(names = "--max-wires", paramLabel = "N",
            description = "At most N cables per pair, the fastest (N >= 1). Default: no cap.")
    Integer maxWires;

    @Option(names = "--include-down",
            description = "Also use cables whose ports are not active. Default: only active cables.")
    boolean includeDown;

    @Option(names = "--equal-ring-wires", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "When the rank order follows a cycle, trim every ring edge to the same wire count (at most 4), as jaccl's ring needs. Default: on.")
    boolean equalRingWires;

    /**
     * @return the options
     * @throws IllegalArgumentException naming the flag when a value is out of range
     */
    public RailOptions options() {
        Rates.requireRate("--min-rate-gbps", minRateGbps);
        if (maxWires != null && maxWires < 1) {
            throw new IllegalArgumentException("--max-wires must be at least 1 (got " + maxWires + ")");
        }
        return new RailOptions(!includeDown, minRateGbps, maxWires == null ? Integer.MAX_VALUE : maxWires, equalRingWires);
    }
}
