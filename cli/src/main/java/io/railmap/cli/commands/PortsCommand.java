package io.railmap.cli.commands;

import io.railmap.cli.options.OutputFormat;
import io.railmap.cli.options.SnapshotOptions;
import io.railmap.matrix.codec.SnapshotCodec;
import io.railmap.matrix.model.Names;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.model.Thunderbolt;
import io.railmap.matrix.rail.RailAligner;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code railmap ports}: one node's ports and the far end each one hears. */
@Command(mixinStandardHelpOptions = true, name = "ports", sortOptions = false,
        description = "Show one node's ports: RDMA device, kind, rate, state, the far end each port hears "
                + "(several far ends: a shared segment), its IP addresses ('?': the record does not say) and bridge, and "
                + "Thunderbolt facts; and the node's management address and whether RDMA is on, when its record says. "
                + "Asks the local daemon unless told otherwise.",
        footer = {"", "Examples:",
            "  railmap ports",
            "  railmap ports --daemon unix:/run/railmap/railmapd.sock --json",
            "  railmap ports --snapshot cluster.json --node studio-b"})
public final class PortsCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    SnapshotOptions source;

    @Option(names = "--node", paramLabel = "NAME",
            description = "Whose ports. Default: the daemon's own node (required with --snapshot).")
    String node;

    @Mixin
    OutputFormat format = new OutputFormat("Print the node's record as JSON (the snapshot format's record).");

    @Override
    public Integer call() {
        NodeRecord record = source.record(node);
        PrintWriter out = spec.commandLine().getOut();
        if (format.json()) {
            out.print(SnapshotCodec.write(record));
        } else {
            out.print(table(record));
        }
        out.flush();
        return 0;
    }

    static String table(NodeRecord record) {
        TextTable table = new TextTable("PORT", "RDMA", "KIND", "RATE", "STATE", "FAR END", "ADDRESSES", "BRIDGE", "THUNDERBOLT");
        for (Port p : record.ports()) {
            table.row(
                p.netdev(),
                p.rdma().map(r -> r + (p.rdmaPort() != 1 ? "/" + p.rdmaPort() : "")).orElse("-"),
                p.kind().externalName(),
                p.rateGbps().map(RailAligner::gbps).orElse("-"),
                p.state().externalName(),
                p.neighbours().isEmpty() ? "-" : p.neighbours().stream().map(PortRef::toString).collect(Collectors.joining(" ")),
                !p.addressesKnown() ? "?" : p.addresses().isEmpty() ? "-" : String.join(" ", p.addresses()),
                p.bridge().orElse("-"),
                p.thunderbolt().map(PortsCommand::thunderbolt).orElse(""));
        }
        List<String> facts = new ArrayList<>();
        record.management().ifPresent(m -> facts.add("management address " + m));
        record.rdmaEnabled().ifPresent(on -> facts.add("RDMA over Thunderbolt " + (on ? "enabled" : "disabled")));
        return "node " + record.node() + " (record version " + record.version() + ", " + record.ports().size() + " port"
                + (record.ports().size() == 1 ? "" : "s") + ")\n" + (facts.isEmpty() ? "" : String.join("; ", facts) + "\n")
                + table.render();
    }

    private static String thunderbolt(Thunderbolt t) {
        List<String> parts = new ArrayList<>();
        parts.add(t.xdomain().map(x -> "xdomain " + x + " on host router port " + t.receptacle()).orElse("receptacle " + t.receptacle()));
        t.linkSpeedGbps().ifPresent(s -> parts.add("link " + RailAligner.gbps(s)));
        t.peerName().ifPresent(n -> parts.add("peer " + Names.escape(n) + (t.behindHub() ? " behind a hub or dock" : "")));
        parts.add(t.rdmaCapable() ? "RDMA-capable" : "no RDMA");
        return String.join(", ", parts);
    }
}
