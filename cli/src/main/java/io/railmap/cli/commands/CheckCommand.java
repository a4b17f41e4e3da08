package io.railmap.cli.commands;

import io.railmap.cli.ExitCodes;
import io.railmap.cli.options.MlxVersionOption;
import io.railmap.cli.options.SnapshotOptions;
import io.railmap.daemon.input.InputFile;
import io.railmap.daemon.input.InputKind;
import io.railmap.matrix.check.Checker;
import io.railmap.matrix.check.Finding;
import io.railmap.matrix.check.Mode;
import io.railmap.matrix.codec.DevicesCodec;
import io.railmap.matrix.emit.PlanJson;
import io.railmap.matrix.jaccl.MlxVersion;
import io.railmap.matrix.model.Names;
import io.railmap.matrix.topology.Topology;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code railmap check}: does an existing jaccl devices file pair the two ends of one cable on every rail? */
@Command(mixinStandardHelpOptions = true, name = "check", sortOptions = false,
        description = "Check a jaccl devices file (MLX_IBV_DEVICES) against the cables before launch: above all, that devices[i][j][k] and devices[j][i][k] are the two ends of one cable (a mismatched rail hangs large transfers without an error). Exits 2 when any finding is an error.",
        footer = {"", "Examples:",
            "  railmap check devices.json --hosts a,b                      (asks the local daemon)",
            "  railmap check devices.json --snapshot cluster.json --hosts a,b",
            "  railmap check devices.json --snapshot cluster.json --hosts a,b,c,d --mode ring --json"})
public final class CheckCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "DEVICES.json", description = "The jaccl devices file to check.")
    Path devices;

    @Mixin
    SnapshotOptions source;

    @Option(names = "--hosts", paramLabel = "A,B,...", required = true,
            description = "The node of each rank, in rank order: row i of the file is the i-th node.")
    String hosts;

    @Option(names = "--mode", paramLabel = "auto|mesh|ring", defaultValue = "auto",
            description = "Check as a mesh, as a ring (MLX_JACCL_RING set), or as jaccl decides (auto: a file valid as either passes). Default: ${DEFAULT-VALUE}.")
    Mode mode;

    @Mixin
    MlxVersionOption mlx;

    @Option(names = "--json", description = "Print the findings as JSON.")
    boolean json;

    @Override
    public Integer call() {
        Topology topology = Topology.of(source.load());
        List<String> ranks = Names.nodeList("--hosts", hosts);
        List<List<List<String>>> cells = DevicesCodec.read(Names.escape(devices.toString(), 256),
                InputFile.read(devices, InputKind.DEVICES));
        MlxVersion version = mlx.version();
        List<Finding> findings = Checker.check(topology, ranks, cells, mode, version);
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.print(PlanJson.check(ranks, mode, version, findings));
        } else {
            findings.forEach(f -> out.println(FindingsText.line(f)));
            out.println(Names.escape(devices.toString(), 256) + ": " + FindingsText.summary(findings) + " (ranks " + String.join(", ", ranks)
                    + ", checked as " + mode.name().toLowerCase(java.util.Locale.ROOT) + " for MLX " + version + ")");
        }
        out.flush();
        return findings.stream().anyMatch(Finding::isError) ? ExitCodes.FINDINGS : ExitCodes.OK;
    }
}
