package io.railmap.cli.commands;

import io.railmap.cli.UserError;
import io.railmap.cli.options.OutputOption;
import io.railmap.daemon.discovery.Discovery;
import io.railmap.daemon.discovery.DiscoveryException;
import io.railmap.daemon.discovery.InterfaceSelection;
import io.railmap.daemon.discovery.LocalPort;
import io.railmap.daemon.discovery.PortSources;
import io.railmap.daemon.discovery.SkippedPort;
import io.railmap.matrix.codec.SnapshotCodec;
import io.railmap.matrix.model.Names;
import io.railmap.matrix.model.NodeRecord;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code railmap discover}: this node's ports, once, without a daemon. */
@Command(mixinStandardHelpOptions = true, name = "discover", sortOptions = false,
        description = "Discover this node's ports once, without a daemon, and print its record (version 0, no neighbours: "
                + "far ends are learnt by the daemons' link probe). Skipped ports and their reasons go to standard error.",
        footer = {"", "Examples:",
            "  railmap discover --interfaces 'en*'",
            "  railmap discover --node studio-a --macos-capture captures/studio-a",
            "  railmap discover --node gpu1 --sysfs-root /tmp/sysfs-copy -o gpu1.json"})
public final class DiscoverCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--node", paramLabel = "NAME", description = "This node's name. Default: the host name up to the first dot.")
    String node;

    @Option(names = "--sysfs-root", paramLabel = "DIR", description = "Read the Linux sysfs tree under DIR instead of /.")
    Path sysfsRoot;

    @Option(names = "--macos-capture", paramLabel = "DIR",
            description = "Read captured macOS output from DIR: system_profiler.json (system_profiler SPThunderboltDataType -json), "
                    + "networksetup.txt (networksetup -listallhardwareports), optionally ibv_devinfo.txt and rdma_ctl.txt.")
    Path macosCapture;

    @Option(names = "--interfaces", paramLabel = "GLOBS",
            description = "Netdevs without RDMA to take as ports, comma-separated globs ('veth*,en*'); '!glob' leaves a port out. "
                    + "Default: RDMA ports only.")
    String interfaces;

    @Mixin
    OutputOption output;

    @Override
    public Integer call() {
        String name = node == null ? PortSources.hostname() : Names.node("--node", node);
        Discovery discovery;
        try {
            discovery = PortSources.choose(name, Optional.ofNullable(sysfsRoot), Optional.ofNullable(macosCapture),
                    InterfaceSelection.parse(interfaces)).discover();
        } catch (DiscoveryException e) {
            throw new UserError("discovery failed: " + e.getMessage());
        }
        PrintWriter err = spec.commandLine().getErr();
        for (SkippedPort skipped : discovery.skipped()) {
            err.println("railmap: skipped " + skipped.port() + ": " + skipped.reason());
        }
        err.flush();
        NodeRecord record = new NodeRecord(name, 0, discovery.ports().stream().map(LocalPort::port).toList());
        output.write(SnapshotCodec.write(record), spec.commandLine().getOut());
        return 0;
    }
}
