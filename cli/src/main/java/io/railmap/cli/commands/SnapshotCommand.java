package io.railmap.cli.commands;

import io.railmap.cli.UserError;
import io.railmap.cli.options.OutputOption;
import io.railmap.discovery.input.InputFile;
import io.railmap.discovery.input.InputKind;
import io.railmap.matrix.codec.SnapshotCodec;
import io.railmap.matrix.model.Names;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Snapshot;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code railmap snapshot}: a snapshot from record files. */
@Command(mixinStandardHelpOptions = true, name = "snapshot",
        description = "Build a snapshot from node record files (one record per node, as `railmap discover` or a daemon's /v1/record writes them).",
        footer = {"", "Example:", "  railmap snapshot a.json b.json -o cluster.json"})
public final class SnapshotCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "RECORD.json", arity = "1..*", description = "Node record files.")
    List<Path> records;

    @Mixin
    OutputOption output;

    @Override
    public Integer call() {
        List<NodeRecord> list = new ArrayList<>();
        Map<String, Path> from = new HashMap<>();
        for (Path file : records) {
            NodeRecord record = SnapshotCodec.readRecord(Names.escape(file.toString(), 256), InputFile.read(file, InputKind.RECORD));
            Path earlier = from.putIfAbsent(record.node(), file);
            if (earlier != null) {
                throw new UserError(Names.escape(earlier.toString(), 256) + " and " + Names.escape(file.toString(), 256)
                        + " both hold a record of node " + record.node()
                        + ": pass one record per node");
            }
            list.add(record);
        }
        output.write(SnapshotCodec.write(new Snapshot(list)), spec.commandLine().getOut());
        return 0;
    }
}
