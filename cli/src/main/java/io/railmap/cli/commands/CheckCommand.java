package io.railmap.cli.commands;

import io.railmap.cli.ExitCodes;
import io.railmap.cli.options.MlxVersionOption;
import io.railmap.cli.options.OutputFormat;
import io.railmap.cli.options.SnapshotOptions;
import io.railmap.discovery.input.InputFile;
import io.railmap.discovery.input.InputKind;
import io.railmap.matrix.check.CheckOptions;
import io.railmap.matrix.check.CheckReport;
import io.railmap.matrix.check.FileCheck;
import io.railmap.matrix.check.Mode;
import io.railmap.matrix.check.ConsumerScope;
import io.railmap.matrix.emit.PlanJson;
import io.railmap.matrix.emit.RailTableJson;
import io.railmap.matrix.fabric.RailTable;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.library.ComputeNics;
import io.railmap.matrix.library.EnvCheck;
import io.railmap.matrix.library.EnvCheckJson;
import io.railmap.matrix.library.EnvFile;
import io.railmap.matrix.library.NodeNics;
import io.railmap.matrix.library.SettingsOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import io.railmap.matrix.topology.Topology;
import io.railmap.cli.UserError;
import io.railmap.matrix.model.Names;
import io.railmap.matrix.model.Snapshot;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code railmap check}: does an existing jaccl devices file, or an mlx.launch hostfile, pair the two
 * ends of one cable on every rail? The file is told apart by its shape ({@link FileCheck}).
 */
@Command(mixinStandardHelpOptions = true, name = "check", sortOptions = false,
        description = {"Check a jaccl devices file (MLX_IBV_DEVICES) or an mlx.launch hostfile (as mlx.distributed_config writes it) "
                + "against the cables before launch: above all, that devices[i][j][k] and devices[j][i][k] are the two ends of one cable "
                + "(a mismatched rail hangs large transfers without an error). Exits 2 when any finding is an error.",
            "A hostfile is checked as mlx.launch would launch it with jaccl: its rdma rows as the devices file, its hosts as the ranks "
                + "(an ssh name matches a node by its whole name, by its name up to the first dot, or by the node's management address), "
                + "and the mode from its backend (jaccl-ring: ring, with the host order a cycle of the cables; jaccl: jaccl's own choice, "
                + "or ring when its envs set MLX_JACCL_RING or JACCL_RING). What mlx.launch refuses (rank 0 without ips, a row of the "
                + "wrong length, a non-null own cell, a backend other than jaccl's or the ring's) is exit 1.",
            "A hostfile with backend ring (MLX's TCP ring backend; railmap matrix --format ring-launch writes one) is checked as mlx-ring: "
                + "each host's ips must be its node's ends of cables to the previous host, each connection on its own cable (shared-subnet "
                + "when two cables of a node share a subnet: see railmap addresses)."},
        footer = {"", "Examples:",
            "  railmap check devices.json --hosts a,b                      (asks the local daemon)",
            "  railmap check devices.json --snapshot cluster.json --hosts a,b",
            "  railmap check devices.json --snapshot cluster.json --hosts a,b,c,d --mode ring --json",
            "  railmap check hostfile.json --snapshot cluster.json        (the hostfile names the hosts)",
            "  railmap check ring.json --lab a                            (a ring-launch hostfile: each connection on its cable)",
            "  railmap check --rails                                      (the switched fabric's cabling)",
            "  railmap check --env gpu-01.env --node gpu-01 --snapshot cluster.json"})
public final class CheckCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", arity = "0..1", paramLabel = "FILE",
            description = "The jaccl devices file or the mlx.launch hostfile to check (optional with --rails).")
    Path file;

    @Option(names = "--rails", description = "Check the switched fabric's cabling too (or alone, without FILE): cross-rail NICs, "
            + "rails a node misses, two NICs on one rail, mixed rates on a rail, NICs whose switch is unknown (see railmap rails).")
    boolean rails;

    @Option(names = "--env", paramLabel = "ENVFILE", description = "Check an env file (KEY=VALUE lines, as railmap env writes) "
            + "against the cables of --node instead: every variable railmap env writes for the libraries of its "
            + "--for, read as each library reads it (an unknown or down HCA or netdev, a wrong rail id or GID index, "
            + "a side or management NIC in a stripe list, more NICs than the library reads, fewer rails than NICs, a rank out of "
            + "range, a value the library misreads).")
    Path env;

    @Option(names = "--node", paramLabel = "NODE", description = "With --env: the node the env file is for.")
    String node;

    @Option(names = "--min-rate-gbps", paramLabel = "X", description = "With --env: compute NICs run at X Gb/s or faster, as given to "
            + "railmap env (default: the fastest rate present on the node).")
    Double minRateGbps;

    @Mixin
    SnapshotOptions source;

    @Option(names = "--hosts", paramLabel = "A,B,...",
            description = "The node of each rank, in rank order: row i of a devices file is the i-th node (required for a devices file). "
                    + "With a hostfile, optional: it must agree with the file's hosts, and names the nodes of hosts the file names "
                    + "otherwise (ssh aliases).")
    String hosts;

    @Option(names = "--mode", paramLabel = "auto|mesh|ring|mlx-ring",
            description = "Check as a mesh, as a ring (MLX_JACCL_RING set), or as jaccl decides (auto: a file valid as either passes); "
                    + "mlx-ring checks a hostfile's ips as MLX's TCP ring backend uses them. Default: auto for a devices file; for a "
                    + "hostfile, what its backend and envs make mlx.launch run. Given, it wins over the hostfile.")
    Mode mode;

    @Mixin
    MlxVersionOption mlx;

    @Mixin
    OutputFormat format = new OutputFormat("Print the findings as JSON.");

    @Override
    public Integer call() {
        if (env != null) {
            return checkEnv();
        }
        if (node != null || minRateGbps != null) {
            throw new UserError((node != null ? "--node" : "--min-rate-gbps") + " is for --env: give the env file to check with --env FILE");
        }
        if (file == null && !rails) {
            throw new UserError("nothing to check: give the devices file or hostfile to check (FILE), or --rails to check the "
                    + "switched fabric's cabling");
        }
        Snapshot snapshot = source.load();
        Optional<RailTable> table = rails ? Optional.of(ConsumerScope.rails(Topology.of(snapshot))) : Optional.empty();
        if (file == null) {
            return railsOnly(table.get());
        }
        String name = Names.escape(file.toString(), 256);
        CheckOptions options = new CheckOptions(Optional.ofNullable(hosts).map(h -> Names.nodeList("--hosts", h)),
                Optional.ofNullable(mode), "--hosts", "--mode", mlx.version());
        CheckReport report = FileCheck.check(snapshot, name, InputFile.read(file, InputKind.DEVICES), options);
        PrintWriter out = spec.commandLine().getOut();
        if (format.json()) {
            out.print(PlanJson.check(report, table));
        } else {
            report.findings().forEach(f -> out.println(FindingsText.line(f)));
            out.println(name + ": " + FindingsText.summary(report.findings()) + " (" + report.hostfile().map(h -> "mlx.launch hostfile, hosts "
                    + h.file().sshNames().stream().map(Names::escape).collect(Collectors.joining(", ")) + " as ranks "
                    + String.join(", ", report.ranks()) + "; checked as " + report.mode().externalName() + ": " + h.mode().reason())
                    .orElse("ranks " + String.join(", ", report.ranks()) + ", checked as " + report.mode().externalName()) + "; MLX "
                    + report.mlxVersion() + ")");
            table.ifPresent(t -> printRails(out, t));
        }
        out.flush();
        return report.hasErrors() || table.map(RailTable::hasErrors).orElse(false) ? ExitCodes.FINDINGS : ExitCodes.OK;
    }

    private int checkEnv() {
        if (file != null || rails || hosts != null || mode != null) {
            throw new UserError("--env checks an env file alone: leave out " + (file != null ? "FILE" : rails ? "--rails"
                    : hosts != null ? "--hosts" : "--mode")
                    + " and run railmap check again for it");
        }
        if (node == null) {
            throw new UserError("--env needs --node: give the node the env file is for");
        }
        SettingsOptions options = new SettingsOptions(Optional.ofNullable(minRateGbps), false);
        String name = Names.escape(env.toString(), 256);
        EnvFile read = EnvFile.parse(name, InputFile.read(env, InputKind.ENV));
        Map<String, String> vars = read.variables();
        Topology topology = Topology.of(source.load());
        NodeNics nics = ComputeNics.of(topology, RailTable.of(topology), node, options);
        List<Finding> findings = new ArrayList<>(read.findings());
        findings.addAll(EnvCheck.check(nics, vars));
        List<String> checked = EnvCheck.VARIABLES.stream().filter(vars::containsKey).toList();
        PrintWriter out = spec.commandLine().getOut();
        if (format.json()) {
            out.print(EnvCheckJson.render(name, node, checked, findings));
        } else {
            findings.forEach(f -> out.println(FindingsText.line(f)));
            out.println(name + ": " + FindingsText.summary(findings) + " (for " + node + "; checked " + (checked.isEmpty()
                    ? "nothing: it sets none of " + String.join(", ", EnvCheck.VARIABLES) : String.join(", ", checked)) + ")");
        }
        out.flush();
        return findings.stream().anyMatch(Finding::isError) ? ExitCodes.FINDINGS : ExitCodes.OK;
    }

    private int railsOnly(RailTable table) {
        PrintWriter out = spec.commandLine().getOut();
        if (format.json()) {
            out.print(RailTableJson.render(table));
        } else {
            printRails(out, table);
        }
        out.flush();
        return table.hasErrors() ? ExitCodes.FINDINGS : ExitCodes.OK;
    }

    private static void printRails(PrintWriter out, RailTable table) {
        table.findings().forEach(f -> out.println(FindingsText.line(f)));
        out.println("rails: " + FindingsText.summary(table.findings()) + " (" + table.rails().size() + " rail"
                + (table.rails().size() == 1 ? "" : "s") + " of the switched fabric; railmap rails shows them)");
    }
}
