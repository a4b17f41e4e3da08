package io.railmap.daemon.discovery.macos;

import io.railmap.daemon.discovery.DiscoveryException;
import io.railmap.matrix.model.PortState;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.Locale;
import java.util.Optional;

/**
 * Which RDMA device backs a Thunderbolt netdev, and its port state. macOS names the device of
 * {@code enX} {@code rdma_enX}. In order:
 * <ol>
 *   <li>When {@code ibv_devinfo} gives usable output, it decides: {@code enX} has RDMA device
 *       {@code rdma_enX} exactly when that device is listed, and the state of its port 1 is the
 *       port's state (when the listing shows it).</li>
 *   <li>Otherwise, when {@code rdma_ctl status} prints {@code enabled}, every Thunderbolt netdev
 *       {@code enX} is taken to have {@code rdma_enX} (macOS creates one per Thunderbolt port when
 *       RDMA is on), with no state known from verbs.</li>
 *   <li>Otherwise ({@code disabled}, or neither command usable) no netdev has an RDMA device: none
 *       is named that cannot be shown to exist.</li>
 * </ol>
 */
final class ThunderboltRdma {
    private static final Logger LOG = System.getLogger(ThunderboltRdma.class.getName());

    /** The parsed {@code ibv_devinfo}, when usable; it then decides alone. */
    private final Optional<IbvDevinfo> verbs;
    /** {@code rdma_ctl status} said {@code enabled}; consulted only without {@link #verbs}. */
    private final boolean enabled;

    private ThunderboltRdma(Optional<IbvDevinfo> verbs, boolean enabled) {
        this.verbs = verbs;
        this.enabled = enabled;
    }

    /**
     * Runs {@code ibv_devinfo}, and {@code rdma_ctl status} only when that gives nothing usable.
     * Never fails: which rule applies is logged once at INFO when {@code ibv_devinfo} is not usable,
     * naming the command or file and why.
     */
    static ThunderboltRdma read(CommandRunner runner) {
        String why;
        try {
            return new ThunderboltRdma(Optional.of(IbvDevinfo.parse(runner.run(MacCommand.IBV_DEVINFO))), false);
        } catch (CommandException | DiscoveryException e) {
            why = e.getMessage();
        }
        try {
            RdmaCtlStatus status = RdmaCtlStatus.parse(runner.run(MacCommand.RDMA_CTL));
            LOG.log(Level.INFO, "no RDMA port states ({0}); rdma_ctl status: {1}, so {2}", why,
                    status.name().toLowerCase(Locale.ROOT),
                    status == RdmaCtlStatus.ENABLED ? "enX has RDMA device rdma_enX" : "no RDMA devices");
            return new ThunderboltRdma(Optional.empty(), status == RdmaCtlStatus.ENABLED);
        } catch (CommandException | DiscoveryException e) {
            LOG.log(Level.INFO, "no RDMA devices named: {0}; {1}", why, e.getMessage());
            return new ThunderboltRdma(Optional.empty(), false);
        }
    }

    /** @return the RDMA device of {@code netdev}, when it has one by the rules above */
    Optional<String> device(String netdev) {
        String name = "rdma_" + netdev;
        if (verbs.isPresent()) {
            return verbs.get().lists(name) ? Optional.of(name) : Optional.empty();
        }
        return enabled ? Optional.of(name) : Optional.empty();
    }

    /** @return the state of port 1 of {@code device} as {@code ibv_devinfo} shows it, when it does */
    Optional<PortState> state(String device) {
        return verbs.flatMap(v -> v.state(device, 1));
    }
}
