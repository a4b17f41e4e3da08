package io.railmap.cli.commands;

import io.railmap.cli.ExitCodes;
import io.railmap.cli.options.MlxVersionOption;
import io.railmap.cli.options.OutputOption;
import io.railmap.cli.options.RailOptionsMixin;
import io.railmap.cli.options.SnapshotOptions;
import io.railmap.matrix.check.Finding;
import io.railmap.matrix.check.Severity;
import io.railmap.matrix.emit.Addresses;
import io.railmap.matrix.emit.Format;
import io.railmap.matrix.model.Names;
import io.railmap.matrix.plan.MlxRing;
import io.railmap.matrix.plan.Order;
import io.railmap.matrix.plan.Plan;
import io.railmap.matrix.plan.Planner;
import io.railmap.matrix.topology.Topology;
import java.io.PrintWriter;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/** {@code railmap matrix}: the rail-aligned device matrix, in the format a library reads. */
@Command(mixinStandardHelpOptions = true, name = "matrix", sortOptions = false,
        description = "Write the rail-aligned device matrix for a list of nodes: rail k of every pair is the same cable at both ends. Errors and warnings about the result go to standard error.",
        footer = {"", "Examples:",
            "  railmap matrix --hosts a,b --format jaccl -o devices.json      (asks the local daemon)",
            "  railmap matrix --snapshot cluster.json --hosts a,b --format jaccl -o devices.json",
            "  railmap matrix --snapshot cluster.json --hosts a,b,c,d --order ring --format json",
            "  railmap matrix --snapshot cluster.json --hosts a,b --format env --rank 0",
            "  railmap matrix --hosts a,b --format launch -o hosts.json            (ips: the nodes' management addresses)",
            "  railmap matrix --snapshot cluster.json --hosts a,b --format launch --ip a=10.0.0.1 -o hosts.json",
            "  railmap matrix --snapshot cluster.json --format ring-launch -o ring.json   (mlx.launch --backend ring over the cables)"})
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

    @Option(names = "--format", paramLabel = "jaccl|env|launch|json|dot|ring-launch|ring-hosts", defaultValue = "jaccl",
            converter = FormatConverter.class,
            description = "What to write. jaccl: the devices file (MLX_IBV_DEVICES; a one-wire cell is a plain string, several wires an array). env: MLX_* variables. launch: an mlx.launch hostfile. json: matrix, ring flag, rank order and findings. dot: Graphviz. ring-launch: an mlx.launch hostfile for MLX's TCP ring backend (each host's IPv4 cable ends to the previous host, in a ring of cables; --order does not apply). ring-hosts: the file MLX_HOSTFILE names for that backend. Default: ${DEFAULT-VALUE}.")
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

    @Override
    public Integer call() {
        Topology topology = Topology.of(source.load());
        List<String> nodes = hosts == null ? topology.nodes() : Names.nodeList("--hosts", hosts);
        ips.forEach((node, ip) -> Addresses.ipv4("--ip " + Names.node("--ip", node), ip));
        if (coordinator != null) {
            Addresses.ipv4AndPort("--coordinator", coordinator);
        }
        if (devicesPath.isEmpty()) {
            throw new IllegalArgumentException("--devices-path is empty: give where the devices file is on every node");
        }
        Names.printable("--devices-path", devicesPath);
        Plan plan = Planner.plan(topology, nodes, order, rails.options(), mlx.version());
        for (String node : ips.keySet()) {
            if (!plan.ranks().contains(node)) {
                throw new IllegalArgumentException("--ip " + node + "=...: " + node + " is not among the ranks ("
                        + Names.escape(String.join(", ", plan.ranks()), 200) + ")");
            }
        }
        if (rank != null && (rank < 0 || rank >= plan.ranks().size())) {
            throw new IllegalArgumentException("--rank " + rank + " is not among the " + plan.ranks().size() + " ranks (0 to "
                    + (plan.ranks().size() - 1) + ")");
        }
        String text = format.render(topology, plan,
                new Format.Options(devicesPath, Optional.ofNullable(coordinator), Optional.ofNullable(rank), ips));
        output.write(text, spec.commandLine().getOut());
        if (format == Format.RING_LAUNCH || format == Format.RING_HOSTS) {
            // the TCP ring's own findings (a ring was found, else render threw): jaccl's plan does not apply
            PrintWriter err = spec.commandLine().getErr();
            MlxRing.of(topology, plan.ranks()).findings().stream().filter(f -> f.severity() != Severity.INFO)
                    .forEach(f -> err.println("railmap: " + FindingsText.line(f)));
            err.flush();
            return ExitCodes.OK;
        }
        if (format != Format.JSON) {
            PrintWriter err = spec.commandLine().getErr();
            for (Finding f : plan.findings()) {
                if (f.severity() != Severity.INFO) {
                    err.println("railmap: " + FindingsText.line(f));
                }
            }
            err.flush();
        }
        return plan.hasErrors() ? ExitCodes.FINDINGS : ExitCodes.OK;
    }

    /** Reads {@code --format} by its wire name ({@code ring-launch}), which picocli's enum conversion does not take. */
    static final class FormatConverter implements ITypeConverter<Format> {
        @Override
        public Format convert(String value) {
            try {
                return Format.fromWire(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException("'" + Names.escape(value, 80) + "' is not a format: give one of "
                        + Arrays.stream(Format.values()).map(Format::wireName).collect(Collectors.joining(", ")));
            }
        }
    }
}
