package io.railmap.cli.options;

import io.railmap.cli.client.DaemonClient;
import io.railmap.discovery.input.InputFile;
import io.railmap.discovery.input.InputKind;
import io.railmap.matrix.codec.SnapshotCodec;
import io.railmap.matrix.model.Names;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Snapshot;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Option;

/**
 * Where the records come from: a snapshot file ({@code --snapshot FILE}) or a running daemon
 * ({@code --daemon URL} or {@code --lab NODE}, the default being the local daemon at
 * {@value DaemonAddress#DEFAULT_DAEMON}).
 */
public final class SnapshotOptions {
    @ArgGroup(exclusive = true)
    Source source;

    static final class Source {
        @Option(names = "--snapshot", paramLabel = "FILE",
                description = "Read node records from a snapshot file (format railmap-snapshot; see docs/snapshot-format.md).")
        Path snapshot;

        @Option(names = "--daemon", paramLabel = "URL",
                description = "Ask a running railmapd: http://HOST:PORT or unix:/PATH. Default when no --snapshot is given: "
                        + DaemonAddress.DEFAULT_DAEMON + ".")
        String daemon;

        @Option(names = "--lab", paramLabel = "NODE", description = "Ask the daemon of lab node NODE (see railmap lab).")
        String lab;
    }

    /** @return the nodes a snapshot holds records of, for a message: at most about 200 characters */
    private static String known(Snapshot snapshot) {
        return snapshot.nodes().isEmpty() ? "none" : Names.escape(String.join(", ", snapshot.nodes()), 200);
    }

    /** @return the daemon's URL when the records come from a daemon, empty for a snapshot file */
    public Optional<String> daemon() {
        return source != null && source.snapshot != null ? Optional.empty() : Optional.of(daemonUrl());
    }

    private String daemonUrl() {
        return source == null ? DaemonAddress.DEFAULT_DAEMON : DaemonAddress.url(source.daemon, source.lab);
    }

    /**
     * @return the snapshot, from the file or from the daemon's {@code /v1/snapshot}
     * @throws io.railmap.cli.UserError when the file cannot be read
     * @throws io.railmap.matrix.codec.FormatException when it is not a valid snapshot
     * @throws DaemonClient.DaemonUnreachable when the daemon cannot be reached
     */
    public Snapshot load() {
        if (source != null && source.snapshot != null) {
            return SnapshotCodec.readSnapshot(Names.escape(source.snapshot.toString(), 256), InputFile.read(source.snapshot, InputKind.SNAPSHOT));
        }
        try (DaemonClient client = new DaemonClient(daemonUrl())) {
            return SnapshotCodec.readSnapshot(Names.escape(daemonUrl(), 256) + "/v1/snapshot", client.get("/v1/snapshot"));
        }
    }

    /**
     * @param node the node whose record to read from a snapshot file; ignored for a daemon, which
     *             answers with its own record; null means the daemon's own
     * @return the record
     * @throws IllegalArgumentException when the snapshot holds no record of {@code node}, or a
     *                                  snapshot file is given without a node
     */
    public NodeRecord record(String node) {
        if (node != null) {
            Names.node("--node", node);
        }
        if (source != null && source.snapshot != null) {
            if (node == null) {
                throw new IllegalArgumentException("with --snapshot, name the node whose ports to show (--node NAME)");
            }
            Snapshot snapshot = load();
            return snapshot.record(node).orElseThrow(() -> new IllegalArgumentException(Names.escape(source.snapshot.toString(), 256)
                    + " holds no record of node " + node + " (it knows " + known(snapshot) + ")"));
        }
        try (DaemonClient client = new DaemonClient(daemonUrl())) {
            NodeRecord record = SnapshotCodec.readRecord(Names.escape(daemonUrl(), 256) + "/v1/record", client.get("/v1/record"));
            if (node != null && !node.equals(record.node())) {
                Snapshot all = SnapshotCodec.readSnapshot(Names.escape(daemonUrl(), 256) + "/v1/snapshot", client.get("/v1/snapshot"));
                return all.record(node).orElseThrow(() -> new IllegalArgumentException("railmapd at " + Names.escape(daemonUrl(), 256)
                        + " holds no record of node " + node + " (it knows " + known(all) + ")"));
            }
            return record;
        }
    }
}
