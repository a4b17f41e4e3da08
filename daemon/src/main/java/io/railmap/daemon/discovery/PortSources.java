package io.railmap.daemon.discovery;

import io.railmap.daemon.discovery.linux.SysfsPortSource;
import io.railmap.daemon.discovery.macos.CaptureDirectoryRunner;
import io.railmap.daemon.discovery.macos.ProcessCommandRunner;
import io.railmap.daemon.discovery.macos.ThunderboltPortSource;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/** Picks the {@link PortSource} for this machine or for captured input; shared by railmapd and {@code railmap discover}. */
public final class PortSources {
    private PortSources() {
    }

    /**
     * @param node          this node's name
     * @param sysfsRoot     read a sysfs tree under this directory instead of {@code /}
     * @param macosCapture  read macOS command captures from this directory ({@code system_profiler.json},
     *                      {@code networksetup.txt}, optionally {@code ibv_devinfo.txt}, {@code rdma_ctl.txt},
     *                      {@code ifconfig.txt})
     * @param selection     which interfaces are ports
     * @param assumed       which ports without an RDMA device get an assumed one (labs and tests)
     * @return macOS discovery from the capture when given; else Linux sysfs under the root when given;
     *         else the live system of this OS (macOS commands on a Mac, {@code /sys} elsewhere)
     * @throws IllegalArgumentException when both a sysfs root and a macOS capture are given
     */
    public static PortSource choose(String node, Optional<Path> sysfsRoot, Optional<Path> macosCapture,
                                    InterfaceSelection selection, AssumedRdma assumed) {
        if (sysfsRoot.isPresent() && macosCapture.isPresent()) {
            throw new IllegalArgumentException("give a sysfs root or a macOS capture directory, not both");
        }
        if (macosCapture.isPresent()) {
            return new ThunderboltPortSource(node, new CaptureDirectoryRunner(macosCapture.get()), selection, assumed);
        }
        if (sysfsRoot.isPresent()) {
            return new SysfsPortSource(node, sysfsRoot.get(), selection, assumed);
        }
        if (System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("mac")) {
            return new ThunderboltPortSource(node, new ProcessCommandRunner(), selection, assumed);
        }
        return SysfsPortSource.live(node, selection, assumed);
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
}
