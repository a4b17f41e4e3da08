package io.railmap.discovery.sources;

import io.railmap.discovery.infiniband.InfinibandSource;
import io.railmap.discovery.linux.SysfsPortSource;
import io.railmap.discovery.lldp.LldpdSource;
import io.railmap.discovery.macos.CaptureDirectoryRunner;
import io.railmap.discovery.macos.ProcessCommandRunner;
import io.railmap.discovery.macos.ThunderboltPortSource;
import io.railmap.discovery.model.AssumedRdma;
import io.railmap.discovery.model.InterfaceSelection;
import io.railmap.discovery.model.PortSource;
import io.railmap.discovery.model.SwitchPortSource;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * Every source of what this host has, in one place, shared by railmapd and {@code railmap discover}.
 * A new source touches three files: its package, its entry in a list here, and, when it needs a
 * setting, that setting's component in {@link Settings} and its flag in {@code
 * io.railmap.options.DiscoveryOptions} (railmapd takes the settings whole; {@code
 * DiscoveryOptionsTest} fails when a setting has no flag).
 * <ul>
 *   <li>{@link #ports}: the first port source that applies gives the node's ports: a macOS capture
 *       directory, a Linux sysfs tree, this Mac's commands, this Linux host's {@code /sys}. On Linux
 *       one source reads RDMA ports, Thunderbolt host-to-host links and plain netdevs together
 *       ({@link SysfsPortSource}): a link's RDMA device and netdev must not be reported twice.</li>
 *   <li>{@link #switchPorts}: every switch-port source that applies is asked for the switch at the
 *       far end of each port, the first naming one for a netdev winning: lldpd, then InfiniBand
 *       (smpquery). None applies when the ports come from a capture or a tree, which are not this
 *       host's live links.</li>
 * </ul>
 */
public final class Sources {
    /**
     * Where the facts come from, as the flags say.
     *
     * @param node         this node's name
     * @param sysfsRoot    read a sysfs tree under this directory instead of {@code /}
     * @param macosCapture read macOS command captures from this directory ({@code system_profiler.json},
     *                     {@code networksetup.txt}, optionally {@code ibv_devinfo.txt}, {@code rdma_ctl.txt},
     *                     {@code ifconfig.txt})
     * @param selection    which interfaces are ports
     * @param assumed      which ports without an RDMA device get an assumed one (labs and tests)
     * @param lldpdSocket  lldpd's control socket
     */
    public record Settings(String node, Optional<Path> sysfsRoot, Optional<Path> macosCapture, InterfaceSelection selection,
                           AssumedRdma assumed, Path lldpdSocket) {
        /**
         * @throws IllegalArgumentException when both a sysfs root and a macOS capture are given
         * @throws NullPointerException     when a component is null
         */
        public Settings {
            Objects.requireNonNull(node, "node");
            Objects.requireNonNull(selection, "selection");
            Objects.requireNonNull(assumed, "assumed");
            Objects.requireNonNull(lldpdSocket, "lldpdSocket");
            if (sysfsRoot.isPresent() && macosCapture.isPresent()) {
                throw new IllegalArgumentException("give a sysfs root or a macOS capture directory, not both");
            }
        }

        /** @return true when the ports come from a capture or a tree, not from this host's live links */
        public boolean captured() {
            return sysfsRoot.isPresent() || macosCapture.isPresent();
        }
    }

    /** Port sources, first that applies wins. */
    private static final List<Function<Settings, Optional<PortSource>>> PORT_SOURCES = List.of(
            s -> s.macosCapture().map(dir -> new ThunderboltPortSource(s.node(), new CaptureDirectoryRunner(dir), s.selection(), s.assumed())),
            s -> s.sysfsRoot().map(root -> new SysfsPortSource(s.node(), root, s.selection(), s.assumed())),
            s -> onMac() ? Optional.of(new ThunderboltPortSource(s.node(), new ProcessCommandRunner(), s.selection(), s.assumed()))
                    : Optional.empty(),
            s -> Optional.of(SysfsPortSource.live(s.node(), s.selection(), s.assumed())));

    /** Switch-port sources, every one that applies is asked, in this order. */
    private static final List<Function<Settings, Optional<SwitchPortSource>>> SWITCH_PORT_SOURCES = List.of(
            s -> s.captured() ? Optional.empty() : Optional.of(new LldpdSource(s.lldpdSocket())),
            s -> s.captured() ? Optional.empty() : Optional.of(new InfinibandSource()));

    private Sources() {
    }

    /**
     * @param settings where the facts come from
     * @return the port source: the first in the list above that applies
     */
    public static PortSource ports(Settings settings) {
        return PORT_SOURCES.stream().flatMap(f -> f.apply(settings).stream()).findFirst().orElseThrow();
    }

    /**
     * @param settings where the facts come from
     * @return the switch-port sources that apply, in the order above; none for a capture or a tree
     */
    public static List<SwitchPortSource> switchPorts(Settings settings) {
        return SWITCH_PORT_SOURCES.stream().flatMap(f -> f.apply(settings).stream()).toList();
    }

    /**
     * @param settings where the facts come from
     * @return the port source ({@link #ports}) whose ports carry the switch port at their far end as
     *         the switch-port sources ({@link #switchPorts}) tell it, all asked once per discovery
     *         (railmapd asks the switch-port sources on a schedule of their own instead)
     */
    public static PortSource withSwitchPorts(Settings settings) {
        List<SwitchPortSource> switches = switchPorts(settings);
        return new WithSwitchPorts(ports(settings), found -> WithSwitchPorts.readAll(switches, found));
    }

    /**
     * @return this machine's host name up to the first dot ({@code studio-a.local} → {@code studio-a}),
     *         the default node name
     * @throws IllegalStateException when the host name cannot be read; pass a node name instead
     */
    public static String hostname() {
        try {
            String name = InetAddress.getLocalHost().getHostName();
            int dot = name.indexOf('.');
            return dot > 0 ? name.substring(0, dot) : name;
        } catch (UnknownHostException e) {
            throw new IllegalStateException("cannot read this machine's host name (" + e.getMessage() + "): give the node name with --node");
        }
    }

    /** @return true when this JVM runs on macOS ({@code os.name}), where ports come from macOS's commands */
    public static boolean onMac() {
        return System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("mac");
    }
}
