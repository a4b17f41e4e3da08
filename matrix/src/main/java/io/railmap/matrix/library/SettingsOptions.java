package io.railmap.matrix.library;

import io.railmap.matrix.model.Rates;
import java.util.Optional;

/**
 * What the user chose for every library's settings.
 *
 * @param minRateGbps compute NICs run at this rate or faster, in Gb/s; empty: the fastest rate class
 *                    present on the node
 * @param mxStripe    ModelExpress: {@code MX_RDMA_NIC_PIN=stripe} (builds that have the stripe mode)
 *                    rather than the explicit list of NICs
 */
public record SettingsOptions(Optional<Double> minRateGbps, boolean mxStripe) {
    /** No choice made: the fastest rate class, an explicit NIC list. */
    public static final SettingsOptions DEFAULTS = new SettingsOptions(Optional.empty(), false);

    /** @throws IllegalArgumentException when the rate is not a finite number ≥ 0 */
    public SettingsOptions {
        minRateGbps.ifPresent(r -> Rates.requireRate("--min-rate-gbps", r));
    }
}
