package io.railmap.cli.commands;

import io.railmap.cli.ExitCodes;
import io.railmap.cli.options.OutputFormat;
import io.railmap.cli.options.SnapshotOptions;
import io.railmap.matrix.check.ConsumerScope;
import io.railmap.matrix.emit.Formats;
import io.railmap.matrix.emit.RailTableFormat;
import io.railmap.matrix.fabric.RailTable;
import io.railmap.matrix.topology.Topology;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code railmap rails}: the rail table of a switched fabric, in a format of {@link Formats#RAIL_TABLES}. */
@Command(mixinStandardHelpOptions = true, name = "rails", sortOptions = false,
        description = {"Show the rails of a switched fabric: one row per rail (a leaf switch, or an L2 segment the link probe hears, "
                + "reached by compute NICs of two or more nodes) with its id, what it is, its name, the HCA most nodes use on it, and per "
                + "node the NIC and rate on it. Rail ids are numbered alike on every node: by that HCA name, then by the switch's identity. "
                + "Then the findings about the cabling (cross-rail, rail-missing, two-nics-one-rail, mixed-rates-on-rail, unknown-far-end, lldp-impostor); "
                + "railmap check --rails exits 2 on errors among them. Asks the local daemon unless told otherwise."},
        footer = {"", "Examples:",
            "  railmap rails",
            "  railmap rails --lab g1 --json",
            "  railmap rails --snapshot cluster.json"})
public final class RailsCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    SnapshotOptions source;

    @Mixin
    OutputFormat format = new OutputFormat("Print the rail table and its findings as JSON.");

    @Override
    public Integer call() {
        RailTableFormat writer = writer(format.kind());
        RailTable table = ConsumerScope.rails(Topology.of(source.load()));
        PrintWriter out = spec.commandLine().getOut();
        out.print(writer.write(table));
        if (!writer.textHoldsFindings()) {
            table.findings().forEach(f -> out.println(FindingsText.line(f)));
        }
        out.flush();
        return ExitCodes.OK;
    }

    /**
     * @return the registered rail-table format of that name
     * @throws IllegalStateException when none is registered under it (RailsCommandTest keeps the two lists together)
     */
    static RailTableFormat writer(OutputFormat.Kind kind) {
        return Formats.RAIL_TABLES.stream().filter(f -> f.name().equals(kind.externalName())).findFirst()
                .orElseThrow(() -> new IllegalStateException("no rail-table format " + kind.externalName() + " in Formats.RAIL_TABLES"));
    }
}
