package io.railmap.cli.lab;

import io.railmap.cli.ExitCodes;
import io.railmap.cli.options.OutputFormat;
import io.railmap.discovery.input.InputFile;
import io.railmap.discovery.input.InputKind;
import io.railmap.lab.Lab;
import io.railmap.lab.LabException;
import io.railmap.lab.LabSsh;
import io.railmap.lab.LabState;
import io.railmap.lab.LabTopology;
import io.railmap.matrix.codec.DevicesCodec;
import io.railmap.matrix.emit.PlanJson;
import io.railmap.matrix.model.Names;
import io.railmap.matrix.jaccl.MlxVersion;
import io.railmap.matrix.plan.Order;
import io.railmap.matrix.plan.Plan;
import io.railmap.matrix.plan.Planner;
import io.railmap.matrix.rail.RailOptions;
import io.railmap.matrix.topology.Cable;
import io.railmap.matrix.topology.Topology;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code railmap lab up}: make the lab, start its daemons, wait until they agree (showing what it
 * waits for: daemons answering, records held, cables seen, agreement), print the matrix.
 */
@Command(name = "up", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Make a virtual cluster from a topology file, start an sshd (see --ssh) and one railmapd per node, wait until every daemon "
                + "holds every record and sees exactly the file's cables, then print the cables and the rail-aligned "
                + "matrix of all nodes. On failure, what was made is removed again.",
        footer = {"", "Topology file: {\"nodes\": [\"a\", \"b\"], \"cables\": [[\"a:en6\", \"b:en7\"], [\"a:en7\", \"b:en6\"]]}",
            "With switches (each a bridge running lldpd; needs the lldpd package): {\"nodes\": [\"g1\", \"g2\"], "
                + "\"switches\": [\"leaf0\"], \"cables\": [[\"g1:eth2\", \"leaf0:p1\"], [\"g2:eth2\", \"leaf0:p2\"]]}",
            "", "Examples:", "  sudo bin/railmap lab up --replace --topology examples/two-crossed.json",
            "  sudo bin/railmap lab up --replace --ssh on --topology examples/two-crossed.json",
            "  sudo bin/railmap lab up --replace --topology examples/two-leaves.json"})
public final class LabUpCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--topology", paramLabel = "FILE", required = true, description = "The lab's nodes and cables (JSON).")
    Path topologyFile;

    @Option(names = "--wait-s", paramLabel = "S", defaultValue = "60",
            description = "How long to wait for the daemons to agree, in seconds. Default: ${DEFAULT-VALUE}.")
    int waitS;

    @Mixin
    OutputFormat format = new OutputFormat("Print the plan (matrix, ring flag, ranks, findings) as JSON.");

    @Option(names = "--progress", paramLabel = "auto|line|bar", defaultValue = "auto",
            description = "How to show what it waits for on standard error: line, a line each time a count changes (logs); bar, one "
                    + "line rewritten in place (terminals); auto, bar when standard error is a terminal (/proc/self/fd/2 names one and "
                    + "TERM is set, not dumb), else line. Default: ${DEFAULT-VALUE}.")
    Progress.Mode progress;

    @Option(names = "--ssh", paramLabel = "auto|on|off", defaultValue = "auto",
            description = "Run an sshd in every node (on its management address; reach the nodes with the ssh of railmap lab env): "
                    + "auto, when sshd is installed (package openssh-server) and the lab can run it, else the lab comes up without and "
                    + "says why; on, always (the lab does not come up without it: exit 5); off, never. Default: ${DEFAULT-VALUE}.")
    LabSsh.Mode ssh;

    @Option(names = "--replace", description = "Remove a lab that is up first (as railmap lab down), so the command can run again.")
    boolean replace;

    @Override
    public Integer call() throws InterruptedException {
        if (waitS < 1) {
            throw new IllegalArgumentException("--wait-s must be at least 1 second (got " + waitS + ")");
        }
        LabTopology topology = LabTopology.read(Names.escape(topologyFile.toString(), 256),
                InputFile.read(topologyFile, InputKind.TOPOLOGY));
        Lab lab = LabSetup.lab();
        if (replace) {
            lab.down();
        }
        LabState state = lab.up(topology, LabSetup.daemonCommand(), ssh);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        err.println("railmap: lab up: " + topology.nodes().size() + " nodes, "
                + LabSetup.switches(topology).map(n -> n + " (lldpd on every node and switch), ").orElse("")
                + topology.cables().size()
                + " cables; daemons " + topology.nodes().stream().map(n -> n + " (pid " + state.pids().get(n) + ")")
                .collect(java.util.stream.Collectors.joining(", ")) + "; " + LabSetup.ssh(state) + "; state, sockets and logs in " + lab.dir());
        err.flush();
        long start = System.nanoTime();
        long deadline = start + waitS * 1_000_000_000L;
        Progress progress = new Progress(err, this.progress);
        LabSetup.Agreement agreement = LabSetup.agreement(topology, topology.nodes());
        while (true) {
            progress.show((System.nanoTime() - start) / 1e9, agreement.progress());
            if (agreement.reached() || System.nanoTime() >= deadline) {
                break;
            }
            Thread.sleep(250);
            agreement = LabSetup.agreement(topology, topology.nodes());
        }
        progress.end();
        if (!agreement.reached()) {
            throw new LabException("the daemons did not agree within " + waitS + " s: " + agreement.waiting()
                    + " (logs in " + lab.dir() + "; the lab stays up: railmap lab status, railmap lab down)");
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        Topology seen = Topology.of(agreement.snapshot());
        Plan plan = Planner.plan(seen, topology.nodes(), Order.GIVEN, RailOptions.DEFAULTS, MlxVersion.NEWEST);
        if (format.json()) {
            out.print(PlanJson.render(plan));
        } else {
            out.printf("every daemon holds every record and sees all %d cables (%.1f s)%n", seen.cables().size(), seconds);
            out.println("cables:");
            for (Cable c : seen.cables()) {
                out.println("  " + c);
            }
            out.println("matrix (ranks " + String.join(", ", plan.ranks()) + "; jaccl runs " + plan.mode().map(m -> "the " + m.wireName()
                    + ", MLX >= " + plan.minMlxVersion().orElseThrow()).orElse("nothing: see railmap matrix --lab NODE --format json") + "):");
            out.print(DevicesCodec.write(plan.matrix().devices()));
        }
        out.flush();
        return ExitCodes.OK;
    }
}
