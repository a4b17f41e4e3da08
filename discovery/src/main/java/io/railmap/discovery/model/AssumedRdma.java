package io.railmap.discovery.model;

import java.util.Optional;

/**
 * {@code --assume-rdma GLOBS}, for labs and tests only: a port whose netdev has no RDMA device but
 * matches GLOBS is reported with the RDMA device {@code rdma_<netdev>}, the name macOS gives the
 * device of a Thunderbolt netdev.
 *
 * <p>Why: jaccl opens RDMA devices by name, so railmap writes only
 * RDMA device names into jaccl outputs; a lab's veth pairs have no RDMA device, and this gives them
 * names in the Mac's form so that a lab still yields a real matrix. No such device exists: jaccl
 * cannot open it. It names no port that discovery would not take anyway (the netdev must be
 * selected by {@code --interfaces}, or be a Thunderbolt port), and never renames a real RDMA device.
 *
 * <p>GLOBS follow {@link InterfaceSelection}: comma-separated globs, and {@code !glob} to leave a
 * netdev out.
 */
public final class AssumedRdma {
    /** The prefix of an assumed device's name, as macOS names {@code rdma_en6}. */
    public static final String PREFIX = "rdma_";
    private static final AssumedRdma NONE = new AssumedRdma(null, InterfaceSelection.rdmaOnly());

    private final String globs;
    private final InterfaceSelection selection;

    private AssumedRdma(String globs, InterfaceSelection selection) {
        this.globs = globs;
        this.selection = selection;
    }

    /** @return no netdev is given an RDMA device (the default) */
    public static AssumedRdma none() {
        return NONE;
    }

    /**
     * @param globs for example {@code "en*,!en9"}; null or blank means {@link #none()}
     * @return the rule
     * @throws IllegalArgumentException when an entry is empty or not a glob (the message quotes it)
     */
    public static AssumedRdma parse(String globs) {
        if (globs == null || globs.isBlank()) {
            return NONE;
        }
        return new AssumedRdma(globs, InterfaceSelection.parse(globs));
    }

    /** @return the globs as given, when any */
    public Optional<String> globs() {
        return Optional.ofNullable(globs);
    }

    /**
     * @param netdev a netdev that has no RDMA device
     * @return {@code rdma_<netdev>} when the globs select it, else empty
     */
    public Optional<String> device(String netdev) {
        return selection.selectsPlain(netdev) ? Optional.of(PREFIX + netdev) : Optional.empty();
    }
}
