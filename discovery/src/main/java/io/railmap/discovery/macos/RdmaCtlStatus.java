package io.railmap.discovery.macos;

import io.railmap.discovery.model.DiscoveryException;
import io.railmap.discovery.model.Quote;

/** What {@code rdma_ctl status} prints: whether RDMA over Thunderbolt is turned on. */
enum RdmaCtlStatus {
    /** {@code enabled} */
    ENABLED,
    /** {@code disabled} */
    DISABLED;

    /**
     * @return the status
     * @throws DiscoveryException when the output, trimmed, is neither {@code enabled} nor
     *                            {@code disabled}; the message names the source
     */
    static RdmaCtlStatus parse(CommandOutput output) throws DiscoveryException {
        switch (output.text().strip()) {
            case "enabled":
                return ENABLED;
            case "disabled":
                return DISABLED;
            default:
                throw new DiscoveryException(output.source() + ": expected \"enabled\" or \"disabled\", found "
                        + Quote.value(output.text().strip()));
        }
    }
}
