package io.railmap.daemon.discovery;

import io.railmap.matrix.model.Names;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * The discovery flags, one definition for {@code railmapd} and {@code railmap discover} (a picocli
 * mixin; in railmapd's {@code --config} file the keys are the flag names without dashes).
 */
public final class DiscoveryOptions {
    @Option(names = "--node", paramLabel = "NAME", description = "This node's name. Default: the host name up to the first dot.")
    String node;

    @Option(names = "--interfaces", paramLabel = "GLOBS",
            description = "Netdevs without RDMA to take as ports, comma-separated globs ('veth*,en*'); '!glob' leaves any port "
                    + "out. RDMA ports are always taken. Default: RDMA ports only.")
    String interfaces;

    @Option(names = "--sysfs-root", paramLabel = "DIR", description = "Read the Linux sysfs tree under DIR instead of /.")
    Path sysfsRoot;

    @Option(names = "--macos-capture", paramLabel = "DIR",
            description = "Read captured macOS output from DIR instead of running the commands: system_profiler.json "
                    + "(system_profiler SPThunderboltDataType -json), networksetup.txt (networksetup -listallhardwareports), "
                    + "optionally ibv_devinfo.txt and rdma_ctl.txt.")
    Path macosCapture;

    /**
     * @return the node name given, or this machine's host name up to the first dot
     * @throws IllegalArgumentException when the given name is malformed
     * @throws IllegalStateException    when no name is given and the host name cannot be read
     */
    public String node() {
        return node != null ? Names.node("--node", node) : PortSources.hostname();
    }

    /**
     * @return the interface selection
     * @throws IllegalArgumentException naming the entry when a glob is malformed
     */
    public InterfaceSelection selection() {
        return InterfaceSelection.parse(interfaces);
    }

    /** @return the sysfs root, when given */
    public Optional<Path> sysfsRoot() {
        return Optional.ofNullable(sysfsRoot);
    }

    /** @return the macOS capture directory, when given */
    public Optional<Path> macosCapture() {
        return Optional.ofNullable(macosCapture);
    }

    /**
     * @param nodeName this node's name
     * @return the port source these flags describe ({@link PortSources#choose})
     * @throws IllegalArgumentException when both a sysfs root and a macOS capture are given
     */
    public PortSource source(String nodeName) {
        return PortSources.choose(nodeName, sysfsRoot(), macosCapture(), selection());
    }
}
