package io.railmap.cli.commands;

import io.railmap.cli.ExitCodes;
import io.railmap.cli.options.OutputOption;
import io.railmap.cli.options.SnapshotOptions;
import io.railmap.matrix.draw.TopologySvg;
import io.railmap.matrix.topology.Topology;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code railmap draw}: the picture of the cables as SVG, the one the daemon's page shows. */
@Command(mixinStandardHelpOptions = true, name = "draw", sortOptions = false,
        description = {"Draw the topology as SVG: nodes on a circle in name order, every cable with both port names near its ends, "
                + "rails coloured by index, switches and segments as boxes joined to the NICs that reach them, one-sided (unconfirmed) "
                + "cables dashed, and the cables a finding concerns outlined in red with the finding as their tooltip; the findings are "
                + "listed under the picture. It is the picture railmapd's page shows (GET /v1/topology.svg). At most "
                + TopologySvg.MAX_NODES + " nodes are drawn (the first in name order; the picture says so). Asks the local daemon "
                + "unless told otherwise."},
        footer = {"", "Examples:",
            "  railmap draw -o topology.svg",
            "  railmap draw --lab a -o topology.svg",
            "  railmap draw --snapshot cluster.json -o topology.svg"})
public final class DrawCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    SnapshotOptions source;

    @Mixin
    OutputOption output;

    @Override
    public Integer call() {
        output.write(TopologySvg.render(Topology.of(source.load())), spec.commandLine().getOut());
        return ExitCodes.OK;
    }
}
