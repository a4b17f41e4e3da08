package io.railmap.cli.commands;

import io.railmap.cli.UserError;
import io.railmap.cli.options.OutputOption;
import io.railmap.discovery.model.Discovery;
import io.railmap.discovery.model.DiscoveryException;
import io.railmap.discovery.model.LocalPort;
import io.railmap.discovery.model.SkippedPort;
import io.railmap.discovery.sources.ManagementAddress;
import io.railmap.matrix.codec.SnapshotCodec;
import io.railmap.matrix.model.Names;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.options.DiscoveryOptions;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code railmap discover}: this node's ports, once, without a daemon. */
@Command(mixinStandardHelpOptions = true, name = "discover", sortOptions = false,
        description = "Discover this node's ports once, without a daemon, and print its record (version 0, no neighbours: "
                + "far ends are learnt by the daemons' link probe; the switch port at each port's far end, when lldpd or "
                + "infiniband-diags tells it, and one line per such port on standard error). The record's management address is the one railmapd "
                + "would bind by default (the default route's interface address), or none. Skipped ports and their reasons "
                + "go to standard error.",
        footer = {"", "Examples:",
            "  railmap discover --interfaces 'en*'",
            "  railmap discover --interfaces 'eth*' --lldpd-socket /run/lab/g1/lldpd.socket",
            "  railmap discover --node studio-a --macos-capture captures/studio-a",
            "  railmap discover --node gpu1 --sysfs-root /tmp/sysfs-copy -o gpu1.json"})
public final class DiscoverCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    DiscoveryOptions discovery;

    @Mixin
    OutputOption output;

    @Override
    public Integer call() {
        String name = discovery.node();
        Discovery found;
        try {
            found = discovery.source(name).discover();
        } catch (DiscoveryException e) {
            throw new UserError("discovery failed: " + e.getMessage());
        }
        PrintWriter err = spec.commandLine().getErr();
        discovery.assumedRdma().globs().ifPresent(globs -> err.println("railmap: warning: --assume-rdma " + Names.escape(globs)
                + ": ports without an RDMA device that match it are given rdma_<netdev>, which does not exist (labs and tests only)"));
        for (SkippedPort skipped : found.skipped()) {
            err.println("railmap: skipped " + skipped.port() + ": " + skipped.reason());
        }
        for (String note : found.notes()) {
            err.println("railmap: note: " + note);
        }
        for (LocalPort port : found.ports()) {
            port.port().switchPort().ifPresent(sw -> err.println("railmap: " + Names.escape(port.port().netdev()) + ": switch "
                    + Names.escape(sw.switchName()) + " port " + Names.escape(sw.port()) + " (" + Names.escape(sw.switchId()) + ")"));
            port.port().infiniband().filter(ib -> ib.peerNodeGuid().isPresent()).ifPresent(ib -> err.println("railmap: "
                    + Names.escape(port.port().netdev()) + ": HCA " + ib.peerNodeGuid().get() + " port " + ib.peerPort().orElseThrow()
                    + " (a back-to-back InfiniBand cable)"));
        }
        err.flush();
        NodeRecord record = new NodeRecord(name, 0, found.ports().stream().map(LocalPort::port).toList(),
                ManagementAddress.defaultForRecord(), found.rdmaEnabled());
        output.write(SnapshotCodec.write(record), spec.commandLine().getOut());
        return 0;
    }
}
