package io.railmap.options;

import io.railmap.discovery.lldp.LldpdSource;
import io.railmap.discovery.model.AssumedRdma;
import io.railmap.discovery.model.InterfaceSelection;
import io.railmap.discovery.model.PortSource;
import io.railmap.discovery.sources.Sources;
import io.railmap.matrix.model.Names;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Function;
import picocli.CommandLine.Option;

/**
 * The discovery flags, one definition for {@code railmapd} and {@code railmap discover} (a picocli
 * mixin; in railmapd's {@code --config} file the keys are the flag names without dashes).
 */
public final class DiscoveryOptions {
    /** The longest {@code --interfaces} value, in characters. */
    public static final int MAX_INTERFACES_CHARS = 4096;
    /** The longest Unix socket path taken ({@code --lldpd-socket}, railmapd's {@code --api-socket}), in bytes (macOS: 104 with the terminating NUL; Linux: 108). */
    public static final int MAX_SOCKET_PATH_BYTES = 103;

    @Option(names = "--node", paramLabel = "NAME", description = "This node's name. Default: the host name up to the first dot.")
    String node;

    @Option(names = "--interfaces", paramLabel = "GLOBS",
            description = "Netdevs without RDMA to take as ports, comma-separated globs ('veth*,en*'); '!glob' leaves any port "
                    + "out. RDMA ports are always taken. Default: RDMA ports only.")
    String interfaces;

    @Option(names = "--assume-rdma", paramLabel = "GLOBS",
            description = "Labs and tests only: a selected netdev without an RDMA device whose name matches GLOBS "
                    + "('veth*,en*'; '!glob' leaves one out) is reported with the RDMA device rdma_<netdev>, as macOS names "
                    + "Thunderbolt RDMA devices. No such device exists; jaccl cannot open it. Default: none.")
    String assumeRdma;

    @Option(names = "--sysfs-root", paramLabel = "DIR", description = "Read the Linux sysfs tree under DIR instead of /.")
    Path sysfsRoot;

    @Option(names = "--macos-capture", paramLabel = "DIR",
            description = "Read captured macOS output from DIR instead of running the commands: system_profiler.json "
                    + "(system_profiler SPThunderboltDataType -json), networksetup.txt (networksetup -listallhardwareports), "
                    + "optionally ibv_devinfo.txt, rdma_ctl.txt and ifconfig.txt (ifconfig -a).")
    Path macosCapture;

    @Option(names = "--lldpd-socket", paramLabel = "PATH",
            description = "lldpd's control socket, through which lldpcli reads the LLDP neighbour of each port (the switch port "
                    + "at its far end). Not asked with --sysfs-root or --macos-capture. Default: lldpd's own, /run/lldpd.socket.")
    Path lldpdSocket;

    /**
     * @return the node name given, or this machine's host name up to the first dot
     * @throws IllegalArgumentException naming {@code --node} when the given name breaks the rules of
     *                                  {@link Names#node}, or when none is given and the host name
     *                                  cannot be read or is no valid node name
     */
    public String node() {
        if (node != null) {
            return Names.node("--node", node);
        }
        String hostname;
        try {
            hostname = Sources.hostname();
        } catch (IllegalStateException e) {
            throw new IllegalArgumentException(e.getMessage());
        }
        try {
            return Names.node("this machine's host name", hostname);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage() + ": give the node name with --node");
        }
    }

    /**
     * @return the interface selection
     * @throws IllegalArgumentException naming {@code --interfaces} when it holds a control character,
     *                                  is over {@value #MAX_INTERFACES_CHARS} characters, or an entry
     *                                  is empty or not a glob
     */
    public InterfaceSelection selection() {
        return globs("--interfaces", interfaces, InterfaceSelection::parse);
    }

    /**
     * @return which netdevs without RDMA are given an assumed RDMA device ({@link AssumedRdma})
     * @throws IllegalArgumentException naming {@code --assume-rdma} when it holds a control character,
     *                                  is over {@value #MAX_INTERFACES_CHARS} characters, or an entry
     *                                  is empty or not a glob
     */
    public AssumedRdma assumedRdma() {
        return globs("--assume-rdma", assumeRdma, AssumedRdma::parse);
    }

    /** The one reading of a GLOBS flag: printable, at most {@value #MAX_INTERFACES_CHARS} characters, then parsed. */
    private static <T> T globs(String flag, String value, Function<String, T> parse) {
        if (value != null) {
            Names.printable(flag, value);
            if (value.length() > MAX_INTERFACES_CHARS) {
                throw new IllegalArgumentException(flag + " is " + value.length() + " characters long; at most "
                        + MAX_INTERFACES_CHARS + " are taken");
            }
        }
        try {
            return parse.apply(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(flag + ": " + e.getMessage());
        }
    }

    /**
     * @return the sysfs root, when given
     * @throws IllegalArgumentException naming {@code --sysfs-root} when it is not a directory, or
     *                                  when {@code --macos-capture} is given too
     */
    public Optional<Path> sysfsRoot() {
        return directory("--sysfs-root", sysfsRoot);
    }

    /**
     * @return the macOS capture directory, when given
     * @throws IllegalArgumentException naming {@code --macos-capture} when it is not a directory, or
     *                                  when {@code --sysfs-root} is given too
     */
    public Optional<Path> macosCapture() {
        return directory("--macos-capture", macosCapture);
    }

    private Optional<Path> directory(String flag, Path dir) {
        if (sysfsRoot != null && macosCapture != null) {
            throw new IllegalArgumentException("give --sysfs-root or --macos-capture, not both");
        }
        if (dir != null && !Files.isDirectory(dir)) {
            throw new IllegalArgumentException(flag + " " + Names.escape(dir.toString(), 256)
                    + (Files.exists(dir) ? " is not a directory" : " does not exist") + ": give a directory");
        }
        return Optional.ofNullable(dir);
    }

    /**
     * @return lldpd's control socket: {@code --lldpd-socket}, else {@link LldpdSource#DEFAULT_SOCKET}
     * @throws IllegalArgumentException as {@link #unixSocketPath}, naming {@code --lldpd-socket}
     */
    public Path lldpdSocket() {
        return lldpdSocket == null ? LldpdSource.DEFAULT_SOCKET : unixSocketPath("--lldpd-socket", lldpdSocket);
    }

    /**
     * The one check of a Unix socket path given on the command line ({@code --lldpd-socket},
     * railmapd's {@code --api-socket}).
     *
     * @param flag the flag that gave it, for the message
     * @param path the path as given
     * @return {@code path}
     * @throws IllegalArgumentException naming the flag when the path is empty, holds a control
     *                                  character or is longer than {@value #MAX_SOCKET_PATH_BYTES}
     *                                  bytes in UTF-8
     */
    public static Path unixSocketPath(String flag, Path path) {
        String text = path.toString();
        if (text.isEmpty()) {
            throw new IllegalArgumentException(flag + " is empty: give a Unix socket path");
        }
        Names.printable(flag, text);
        int bytes = text.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_SOCKET_PATH_BYTES) {
            throw new IllegalArgumentException(flag + " " + Names.escape(text, 120) + " is " + bytes + " bytes long; a Unix socket path"
                    + " may have at most " + MAX_SOCKET_PATH_BYTES + " (choose a shorter one)");
        }
        return path;
    }

    /**
     * @param nodeName this node's name
     * @return where the facts come from, as these flags say
     * @throws IllegalArgumentException naming the flag when a directory is missing, both are given, or
     *                                  --interfaces, --assume-rdma or --lldpd-socket is malformed
     */
    public Sources.Settings settings(String nodeName) {
        return new Sources.Settings(nodeName, sysfsRoot(), macosCapture(), selection(), assumedRdma(), lldpdSocket());
    }

    /**
     * @param nodeName this node's name
     * @return the port source these flags describe, switch ports asked once per discovery
     *         ({@link Sources#withSwitchPorts}, for {@code railmap discover})
     * @throws IllegalArgumentException as {@link #settings}
     */
    public PortSource source(String nodeName) {
        return Sources.withSwitchPorts(settings(nodeName));
    }
}
