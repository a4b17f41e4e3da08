package io.railmap.discovery.macos;

import io.railmap.discovery.model.DiscoveryException;
import io.railmap.discovery.model.IbvDevinfo;
import io.railmap.discovery.model.SkipException;
import io.railmap.matrix.model.PortState;
import io.railmap.matrix.model.RdmaLimits;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Which RDMA device backs a Thunderbolt netdev, its port state and its limits. macOS names the device of
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
 * Whether RDMA is turned on at all ({@link #enabled()}, the record's {@code rdmaEnabled}) is what
 * {@code rdma_ctl status} prints, whatever {@code ibv_devinfo} says.
 */
final class ThunderboltRdma {
    /** The parsed {@code ibv_devinfo}, when usable; it then decides alone. */
    private final Optional<IbvDevinfo> verbs;
    /** What {@code rdma_ctl status} said, when it gave a usable answer. */
    private final Optional<Boolean> enabled;
    /** Which rule applies and why, when a command was not usable. */
    private final Optional<String> note;

    private ThunderboltRdma(Optional<IbvDevinfo> verbs, Optional<Boolean> enabled, Optional<String> note) {
        this.verbs = verbs;
        this.enabled = enabled;
        this.note = note;
    }

    /**
     * Runs {@code ibv_devinfo} and {@code rdma_ctl status}. Never fails: when a command is not usable,
     * {@link #note()} says what that costs (which rule names the RDMA devices, or that the RDMA state
     * is unknown), naming the command or file and why.
     */
    static ThunderboltRdma read(CommandRunner runner) {
        Optional<IbvDevinfo> verbs = Optional.empty();
        String verbsWhy = null;
        try {
            CommandOutput output = runner.run(MacCommand.IBV_DEVINFO);
            verbs = Optional.of(IbvDevinfo.parse(output.source(), output.text()));
        } catch (CommandException | DiscoveryException e) {
            verbsWhy = e.getMessage();
        }
        Optional<RdmaCtlStatus> status = Optional.empty();
        String statusWhy = null;
        try {
            status = Optional.of(RdmaCtlStatus.parse(runner.run(MacCommand.RDMA_CTL)));
        } catch (CommandException | DiscoveryException e) {
            statusWhy = e.getMessage();
        }
        Optional<Boolean> enabled = status.map(s -> s == RdmaCtlStatus.ENABLED);
        String note;
        if (verbs.isPresent()) {
            note = status.isPresent() ? null : "RDMA state unknown: " + statusWhy;
        } else if (status.isPresent()) {
            note = "no RDMA port states (" + verbsWhy + "); rdma_ctl status: " + status.get().name().toLowerCase(Locale.ROOT)
                    + ", so " + (enabled.get() ? "enX has RDMA device rdma_enX" : "no RDMA devices");
        } else {
            note = "no RDMA devices named: " + verbsWhy + "; " + statusWhy;
        }
        return new ThunderboltRdma(verbs, enabled, Optional.ofNullable(note));
    }

    /** @return what a command that was not usable costs, naming it and why */
    Optional<String> note() {
        return note;
    }

    /** @return whether {@code rdma_ctl status} says RDMA over Thunderbolt is on; empty when it gave no usable answer */
    Optional<Boolean> enabled() {
        return enabled;
    }

    /** @return the RDMA device of {@code netdev}, when it has one by the rules above */
    Optional<String> device(String netdev) {
        String name = "rdma_" + netdev;
        if (verbs.isPresent()) {
            return verbs.get().lists(name) ? Optional.of(name) : Optional.empty();
        }
        return enabled.orElse(false) ? Optional.of(name) : Optional.empty();
    }

    /**
     * @param device an RDMA device
     * @param notes  where to add why a limit line of the device was left out
     * @return the device's limits as {@code ibv_devinfo -v} shows them, when it does
     */
    Optional<RdmaLimits> limits(String device, List<String> notes) {
        if (verbs.isEmpty()) {
            return Optional.empty();
        }
        notes.addAll(verbs.get().limitNotes(device));
        return verbs.get().limits(device);
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
