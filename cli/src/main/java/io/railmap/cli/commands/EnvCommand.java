package io.railmap.cli.commands;

import io.railmap.cli.ExitCodes;
import io.railmap.cli.follow.Rewriter;
import io.railmap.cli.options.OutputFormat;
import io.railmap.cli.options.OutputOption;
import io.railmap.cli.options.SnapshotOptions;
import io.railmap.cli.options.WatchOptions;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.library.Libraries;
import io.railmap.matrix.library.Library;
import io.railmap.matrix.library.LibraryOption;
import io.railmap.matrix.library.NodeEnv;
import io.railmap.matrix.library.SettingsOptions;
import io.railmap.matrix.model.Snapshot;
import io.railmap.matrix.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code railmap env}: the environment variables each library needs on one node, from the cable map. */
@Command(mixinStandardHelpOptions = true, name = "env", sortOptions = false,
        description = {"Print the environment variables a collective library needs on one node, from the same cable map: its compute "
                + "NICs (active RDMA ports other than the management interface, at the fastest rate present or --min-rate-gbps) with "
                + "their rail ids, GID index and management interface. One block per library: a '# library' line, its findings as "
                + "'# severity code message' lines, then KEY=VALUE lines. Exits 2 when a finding is an error. Asks the local daemon "
                + "unless told otherwise."},
        footer = {"", "Examples:",
            "  railmap env --node gpu-01 --for nccl",
            "  railmap env --node gpu-01 --for nccl --snapshot cluster.json --json",
            "  railmap env --node gpu-01 --for nccl,ucx --watch -o /etc/railmap/gpu-01.env   (rewritten when a cable changes it)"})
public final class EnvCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    SnapshotOptions source;

    @Option(names = "--node", required = true, paramLabel = "NODE", description = "The node whose settings to print.")
    String node;

    @Option(names = "--for", required = true, paramLabel = "LIB[,LIB...]", completionCandidates = LibraryNames.class,
            description = "The libraries, separated by ',': ${COMPLETION-CANDIDATES}.")
    String libraries;

    @Option(names = "--min-rate-gbps", paramLabel = "X", description = "Compute NICs run at X Gb/s or faster (default: the fastest rate"
            + " present on the node).")
    Double minRateGbps;

    @Option(names = LibraryOption.MX_STRIPE_FLAG, description = "ModelExpress: MX_RDMA_NIC_PIN=stripe rather than the list of NICs (needs mx in --for).")
    boolean mxStripe;

    @Mixin
    OutputFormat format = new OutputFormat("Print JSON: {\"node\", \"findings\", \"libraries\": [{\"library\", \"settings\", \"findings\"}]}.");

    @Mixin
    OutputOption output;

    @Mixin
    WatchOptions watch;

    @Override
    public Integer call() throws Exception {
        List<Library> chosen = NodeEnv.libraries(libraries);
        SettingsOptions options = new SettingsOptions(Optional.ofNullable(minRateGbps), mxStripe);
        NodeEnv.requireRead(chosen, options, LibraryOption::flag);
        Optional<WatchOptions.Target> kept = watch.target(source.daemon(), output.file(), Optional.of(List.of(node)), "--node");
        if (kept.isPresent()) {
            new Rewriter(kept.get(), source::load, (records, nodes) -> {
                NodeEnv env = env(records, chosen, options);
                return new Rewriter.Result(text(env), List.of(), Stream.concat(env.findings().stream(),
                        env.libraries().stream().flatMap(l -> l.findings().stream())).filter(Finding::isError).map(f -> f.code().externalName()).toList());
            }, spec.commandLine().getErr()).run();
            return ExitCodes.OK;
        }
        NodeEnv env = env(source.load(), chosen, options);
        output.write(text(env), spec.commandLine().getOut());
        return env.hasErrors() ? ExitCodes.FINDINGS : ExitCodes.OK;
    }

    private NodeEnv env(Snapshot records, List<Library> chosen, SettingsOptions options) {
        return NodeEnv.of(Topology.of(records), node, chosen, options);
    }

    private String text(NodeEnv env) {
        return format.json() ? env.json() : env.text();
    }

    /** The registered libraries' names ({@link Libraries#ALL}), for {@code --for}'s help and shell completion. */
    static final class LibraryNames extends ArrayList<String> {
        LibraryNames() {
            super(Libraries.ALL.stream().map(Library::name).toList());
        }
    }
}
