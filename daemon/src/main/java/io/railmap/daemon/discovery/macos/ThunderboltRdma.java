package io.railmap.daemon.discovery.macos;

import io.railmap.daemon.discovery.DiscoveryException;
import io.railmap.daemon.discovery.SkipException;
import io.railmap.matrix.model.PortState;
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
    /** The parsed {@code ibv_devinfo}, when usable; it then decides alone. */
    private final Optional<IbvDevinfo> verbs;
    /** {@code rdma_ctl status} said {@code enabled}; consulted only without {@link #verbs}. */
    private final boolean enabled;
    /** Which rule applies and why, when {@code ibv_devinfo} was not usable. */
    private final Optional<String> note;

    private ThunderboltRdma(Optional<IbvDevinfo> verbs, boolean enabled, Optional<String> note) {
        this.verbs = verbs;
        this.enabled = enabled;
        this.note = note;
    }

    /**
     * Runs {@code ibv_devinfo}, and {@code rdma_ctl status} only when that gives nothing usable.
     * Never fails: when {@code ibv_devinfo} is not usable, {@link #note()} says which rule applies,
     * naming the command or file and why.
     */
    static ThunderboltRdma read(CommandRunner runner) {
        String why;
        try {
            return new ThunderboltRdma(Optional.of(IbvDevinfo.parse(runner.run(MacCommand.IBV_DEVINFO))), false, Optional.empty());
        } catch (CommandException | DiscoveryException e) {
            why = e.getMessage();
        }
        try {
            RdmaCtlStatus status = RdmaCtlStatus.parse(runner.run(MacCommand.RDMA_CTL));
            return new ThunderboltRdma(Optional.empty(), status == RdmaCtlStatus.ENABLED, Optional.of(
                    "no RDMA port states (" + why + "); rdma_ctl status: " + status.name().toLowerCase(Locale.ROOT)
                            + ", so " + (status == RdmaCtlStatus.ENABLED ? "enX has RDMA device rdma_enX" : "no RDMA devices")));
        } catch (CommandException | DiscoveryException e) {
            return new ThunderboltRdma(Optional.empty(), false, Optional.of("no RDMA devices named: " + why + "; " + e.getMessage()));
        }
    }

    /** @return which rule names the RDMA devices and why, when {@code ibv_devinfo} was not usable */
    Optional<String> note() {
        return note;
    }

    /** @return the RDMA device of {@code netdev}, when it has one by the rules above */
    Optional<String> device(String netdev) {
        String name = "rdma_" + netdev;
        if (verbs.isPresent()) {
            return verbs.get().lists(name) ? Optional.of(name) : Optional.empty();
        }
        return enabled ? Optional.of(name) : Optional.empty();
    }

    /**
     * @return the state of port 1 of {@code device} as {@code ibv_devinfo} shows it, when it does
     * @throws SkipException when {@code ibv_devinfo}'s block for the device has an odd line
     */
    Optional<PortState> state(String device) throws SkipException {
        if (verbs.isEmpty()) {
            return Optional.empty();
        }
        Optional<String> problem = verbs.get().problem(device);
        if (problem.isPresent()) {
            throw new SkipException(problem.get());
        }
        return verbs.get().state(device, 1);
    }
}
