package io.railmap.matrix.check;

import io.railmap.matrix.codec.CheckedFile;
import io.railmap.matrix.codec.FormatException;
import io.railmap.matrix.codec.Hostfile;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Snapshot;
import io.railmap.matrix.topology.Topology;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Checks what a user hands to {@code railmap check} or {@code POST /v1/check}: a jaccl devices file
 * or an mlx.launch hostfile ({@link CheckedFile}), against the cables of a snapshot.
 *
 * <p>A devices file needs the node of each rank given, and is checked in the mode given
 * ({@link Mode#AUTO} by default). A hostfile is checked as mlx.launch would launch it with jaccl:
 * its mode comes from its backend and envs unless one is given ({@link LaunchMode}); mlx.launch's
 * own refusals come first ({@link Hostfile#jacclDevices}); its hosts name the nodes
 * ({@link HostfileRanks}); the rows mlx.launch writes into the devices file are then checked like a
 * devices file ({@link Checker}).
 */
public final class FileCheck {
    private FileCheck() {
    }

    /**
     * @param snapshot the records to check against
     * @param source   what the text came from (a file name, {@code "request body"}), for messages
     * @param text     the document
     * @param options  the hosts and mode given, if any
     * @return the ranks, the mode, the findings, and for a hostfile what it said
     * @throws FormatException          when the document is malformed, neither kind, or a hostfile
     *                                  mlx.launch would refuse or not run with jaccl (and no mode is given)
     * @throws UnknownHostsException    when hosts of a hostfile name no node and no hosts are given
     * @throws io.railmap.matrix.rail.UnknownNodesException when given hosts name unknown nodes
     * @throws IllegalArgumentException when a devices file comes without hosts, given hosts do not
     *                                  agree with a hostfile, or a node is named twice
     */
    public static CheckReport check(Snapshot snapshot, String source, String text, CheckOptions options) {
        Topology topology = Topology.of(snapshot);
        CheckedFile file = CheckedFile.read(source, text);
        if (file instanceof CheckedFile.Devices devices) {
            List<String> ranks = options.hosts().orElseThrow(() -> new IllegalArgumentException(options.hostsOption()
                    + " is required with a jaccl devices file: give the node of each rank, in rank order (row i of the file is the i-th node); "
                    + "an mlx.launch hostfile names its hosts itself"));
            Mode mode = options.mode().orElse(Mode.AUTO);
            return new CheckReport(source, ranks, mode, options.mlxVersion(),
                    Checker.check(topology, ranks, devices.cells(), mode, options.mlxVersion()), Optional.empty());
        }
        Hostfile hostfile = (Hostfile) file;
        LaunchMode mode = LaunchMode.of(source, hostfile, options.mode(), options.modeOption());
        List<List<List<String>>> cells = hostfile.jacclDevices(source);
        List<String> ranks = HostfileRanks.resolve(source, hostfile, topology.nodes(), managementAddress(snapshot), options.hosts(),
                options.hostsOption());
        return new CheckReport(source, ranks, mode.mode(), options.mlxVersion(), Checker.check(topology, ranks, cells, mode.mode(), options.mlxVersion()),
                Optional.of(new CheckReport.FromHostfile(hostfile, mode)));
    }

    /** The management address of a node ({@link NodeRecord#management()}), by which a hostfile may name it. */
    static Function<String, Optional<String>> managementAddress(Snapshot snapshot) {
        return node -> snapshot.record(node).flatMap(NodeRecord::management);
    }
}
