package io.railmap.cli.commands;

import io.railmap.cli.ExitCodes;
import io.railmap.cli.follow.Rewriter;
import io.railmap.cli.options.MlxVersionOption;
import io.railmap.cli.options.OutputOption;
import io.railmap.cli.options.RailOptionsMixin;
import io.railmap.cli.options.SnapshotOptions;
import io.railmap.cli.options.WatchOptions;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.finding.Severity;
import io.railmap.matrix.address.Addresses;
import io.railmap.matrix.emit.Format;
import io.railmap.matrix.emit.FormatOption;
import io.railmap.matrix.emit.Formats;
import io.railmap.matrix.model.Names;
import io.railmap.matrix.model.Snapshot;
import io.railmap.matrix.plan.Order;
import io.railmap.matrix.topology.Topology;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Help;
import picocli.CommandLine.Help.TextTable;
import picocli.CommandLine.IModelTransformer;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/** {@code railmap matrix}: the rail-aligned device matrix, in the format a library reads. */
@Command(mixinStandardHelpOptions = true, name = "matrix", sortOptions = false, modelTransformer = MatrixCommand.FormatHelp.class,
        description = "Write the rail-aligned device matrix for a list of nodes: rail k of every pair is the same cable at both ends. Errors and warnings about the result go to standard error.",
        footer = {"", "Examples:",
            "  railmap matrix --hosts a,b --format jaccl -o devices.json      (asks the local daemon)",
            "  railmap matrix --snapshot cluster.json --hosts a,b --format jaccl -o devices.json",
            "  railmap matrix --snapshot cluster.json --hosts a,b,c,d --order ring --format json",
            "  railmap matrix --snapshot cluster.json --hosts a,b --format env --rank 0",
            "  railmap matrix --hosts a,b --format launch -o hosts.json            (ips: the nodes' management addresses)",
            "  railmap matrix --snapshot cluster.json --hosts a,b --format launch --ip a=10.0.0.1 -o hosts.json",
            "  railmap matrix --snapshot cluster.json --format ring-launch -o ring.json   (mlx.launch --backend ring over the cables)",
            "  railmap matrix --hosts a,b --watch -o devices.json --on-change 'systemctl reload my-job'   (docs/follow.md)"})
public final class MatrixCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    SnapshotOptions source;

    @Option(names = "--hosts", paramLabel = "A,B,...",
            description = "Nodes to rank, comma-separated; rank i is the i-th (with --order ring, the first is rank 0). Default: every node of the snapshot, sorted.")
    String hosts;

    @Option(names = "--order", paramLabel = "given|ring", defaultValue = "given",
            description = "given: ranks as listed; ring: a cycle of cables maximising its thinnest edge (exact up to 24 nodes). Default: ${DEFAULT-VALUE}.")
    Order order;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "jaccl", converter = FormatConverter.class,
            completionCandidates = FormatNames.class,
            description = "What to write: ${COMPLETION-CANDIDATES} (each under Formats below, with the options it reads; another option is an error). Default: ${DEFAULT-VALUE}.")
    Format format;

    @Mixin
    RailOptionsMixin rails;

    @Mixin
    MlxVersionOption mlx;

    @Option(names = "--coordinator", paramLabel = "IPV4:PORT",
            description = "env: MLX_JACCL_COORDINATOR, an address rank 0 binds. Default: rank 0's management address (from its record) and port 32323, mlx.launch's default.")
    String coordinator;

    @Option(names = "--devices-path", paramLabel = "PATH", defaultValue = Format.Options.DEFAULT_DEVICES_PATH,
            description = "env: MLX_IBV_DEVICES, where the devices file is on every node. Default: ${DEFAULT-VALUE}.")
    String devicesPath;

    @Option(names = "--rank", paramLabel = "R", description = "env: write only rank R's variables. Default: every rank.")
    Integer rank;

    @Option(names = "--ip", paramLabel = "NODE=IPV4",
            description = "launch: a node's IPv4 address (repeatable), instead of its management address from its record; mlx.launch uses rank 0's as the coordinator.")
    Map<String, String> ips = new LinkedHashMap<>();

    @Mixin
    OutputOption output;

    @Mixin
    WatchOptions watch;

    @Override
    public Integer call() throws Exception {
        ParseResult parsed = spec.commandLine().getParseResult();
        Formats.requireRead(format, FormatOption::flags, parsed::hasMatchedOption);
        ips.forEach((node, ip) -> Addresses.ipv4("--ip " + Names.node("--ip", node), ip));
        if (coordinator != null) {
            Addresses.ipv4AndPort("--coordinator", coordinator);
        }
        if (devicesPath.isEmpty()) {
            throw new IllegalArgumentException("--devices-path is empty: give where the devices file is on every node");
        }
        Names.printable("--devices-path", devicesPath);
        Optional<List<String>> named = Optional.ofNullable(hosts).map(h -> Names.nodeList("--hosts", h));
        Optional<WatchOptions.Target> kept = watch.target(source.daemon(), output.file(), named, "--hosts");
        if (kept.isPresent()) {
            new Rewriter(kept.get(), source::load, (records, nodes) -> {
                Format.Output out = write(records, nodes);
                return new Rewriter.Result(out.text(), format.textHoldsFindings() ? List.of() : lines(out),
                        out.findings().stream().filter(Finding::isError).map(f -> f.code().wireName()).toList());
            }, spec.commandLine().getErr()).run();
            return ExitCodes.OK;
        }
        Snapshot records = source.load();
        Format.Output out = write(records, named.orElseGet(() -> Topology.of(records).nodes()));
        output.write(out.text(), spec.commandLine().getOut());
        if (!format.textHoldsFindings()) {
            PrintWriter err = spec.commandLine().getErr();
            lines(out).forEach(line -> err.println("railmap: " + line));
            err.flush();
        }
        return out.hasErrors() ? ExitCodes.FINDINGS : ExitCodes.OK;
    }

    /** @return the output for these records and nodes (rank order) */
    private Format.Output write(Snapshot records, List<String> nodes) {
        Topology topology = Topology.of(records);
        return format.write(new Format.Request(topology, nodes, order, rails.options(), mlx.version(),
                new Format.Options(devicesPath, Optional.ofNullable(coordinator), Optional.ofNullable(rank), ips)));
    }

    /** @return the findings worth a line (errors and warnings) */
    private static List<String> lines(Format.Output out) {
        return out.findings().stream().filter(f -> f.severity() != Severity.INFO).map(FindingsText::line).toList();
    }

    /** Reads {@code --format} by a registered format's name ({@link Formats}). */
    static final class FormatConverter implements ITypeConverter<Format> {
        @Override
        public Format convert(String value) {
            try {
                return Formats.named(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException("'" + Names.escape(value, 80) + "' is not a format: give one of "
                        + String.join(", ", Formats.names()));
            }
        }
    }

    /** The registered formats' names, for {@code --format}'s help and shell completion. */
    static final class FormatNames extends ArrayList<String> {
        FormatNames() {
            super(Formats.names());
        }
    }

    /** Puts one line per registered format, and the options it reads, before the examples of {@code --help}. */
    static final class FormatHelp implements IModelTransformer {
        @Override
        public CommandSpec transform(CommandSpec command) {
            TextTable table = TextTable.forColumnWidths(Help.defaultColorScheme(Help.Ansi.OFF), 15, command.usageMessage().width() - 15);
            for (Format f : Formats.ALL) {
                String reads = f.reads().stream().flatMap(o -> o.flags().stream()).collect(Collectors.joining(" "));
                table.addRowValues("  " + f.name(), f.summary() + "." + (reads.isEmpty() ? " Reads --hosts only." : " Reads " + reads + "."));
            }
            List<String> footer = new ArrayList<>(List.of("", "Formats:"));
            // picocli would format '%' and re-wrap long lines: the table's lines are short and hold no '%'
            table.toString().lines().map(String::stripTrailing).forEach(footer::add);
            footer.addAll(Arrays.asList(command.usageMessage().footer()));
            command.usageMessage().footer(footer.toArray(String[]::new));
            return command;
        }
    }
}
