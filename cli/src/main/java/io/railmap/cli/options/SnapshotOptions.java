package io.railmap.cli.options;

import io.railmap.matrix.codec.SnapshotCodec;
import io.railmap.matrix.model.Snapshot;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** Where the records come from: {@code --snapshot FILE}. */
public final class SnapshotOptions {
    @Option(names = "--snapshot", paramLabel = "FILE", required = true,
            description = "Snapshot of node records (JSON, format railmap-snapshot; see README).")
    Path snapshot;

    /**
     * @return the snapshot
     * @throws io.railmap.cli.UserError when the file cannot be read
     * @throws io.railmap.matrix.codec.FormatException when it is not a valid snapshot
     */
    public Snapshot load() {
        return SnapshotCodec.readSnapshot(snapshot.toString(), Files.read(snapshot, "snapshot"));
    }
}
