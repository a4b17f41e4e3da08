package io.railmap.cli.commands;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.railmap.cli.ExitCodes;
import io.railmap.cli.options.OutputFormat;
import io.railmap.cli.options.SnapshotOptions;
import io.railmap.matrix.address.AddressPlan;
import io.railmap.matrix.address.CablePlan;
import io.railmap.matrix.address.Ipv4Subnet;
import io.railmap.matrix.address.NodeCommands;
import io.railmap.matrix.codec.JsonText;
import io.railmap.matrix.model.Names;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.topology.Topology;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code railmap addresses}: the address plan that gives every direct cable a subnet of its own. */
@Command(mixinStandardHelpOptions = true, name = "addresses", sortOptions = false,
        description = {"Print the address plan that pins every TCP connection to its cable: each confirmed direct cable between the "
                + "hosts gets its own /30 from the pool, and the commands that apply it on each node (Linux: ip; macOS: ifconfig). "
                + "When two cable ports of a node share a subnet (every Mac self-assigns 169.254.x.y/16 to each Thunderbolt port), "
                + "the kernel sends a connection to either far end out of the first, so MLX's ring backend puts several wires on one "
                + "cable; railmap check and railmap matrix --format ring-launch report it as shared-subnet. railmap never applies "
                + "the plan: run a node's commands there, as root. Switched rails are left alone (one subnet per rail is the fabric's). "
                + "Asks the local daemon unless told otherwise."},
        footer = {"", "Examples:",
            "  railmap addresses --hosts a,b,c,d",
            "  railmap addresses --snapshot cluster.json --pool 10.99.0.0/16 --json",
            "  railmap addresses --node a --script | sudo sh                 (on node a)",
            "  railmap addresses --lab a --node a --script | railmap lab exec a -- sh"})
public final class AddressesCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    SnapshotOptions source;

    @Option(names = "--hosts", paramLabel = "A,B,...", description = "The nodes whose cables to number (default: every node).")
    String hosts;

    @Option(names = "--pool", paramLabel = "CIDR", description = "Where the subnets come from (default: ${DEFAULT-VALUE}, the "
            + "link-local block no router forwards, less its first and last /24, which RFC 3927 reserves).", defaultValue = "169.254.0.0/16")
    String pool;

    @Option(names = "--os", paramLabel = "linux|macos", description = "Write every node's commands for this OS (default: macOS for a "
            + "node whose record has Thunderbolt facts from system_profiler, Linux otherwise).")
    String os;

    @Option(names = "--node", paramLabel = "NODE", description = "Only this node's commands.")
    String node;

    @Mixin
    OutputFormat format = new OutputFormat("Print the plan and every node's commands as JSON.");

    @Option(names = "--script", description = "Print only --node's commands, as a shell script to run there as root.")
    boolean script;

    @Override
    public Integer call() {
        boolean json = format.json();
        if (json && script) {
            throw new ParameterException(spec.commandLine(), "--json and --script are two outputs: give one");
        }
        if (script && node == null) {
            throw new ParameterException(spec.commandLine(), "--script writes one node's commands: name it with --node NODE");
        }
        Ipv4Subnet subnets = Ipv4Subnet.parse("--pool", pool);
        NodeCommands.Os forced = os == null ? null : NodeCommands.Os.parse(os);
        Topology topology = Topology.of(source.load());
        List<String> nodes = hosts == null ? topology.nodes() : Names.nodeList("--hosts", hosts);
        if (node != null && !nodes.contains(Names.node("--node", node))) {
            throw new IllegalArgumentException("--node " + Names.escape(node) + " is not among the hosts (" + String.join(", ", nodes) + ")");
        }
        AddressPlan plan = CablePlan.of(topology, nodes, subnets);
        Map<String, NodeCommands.Os> systems = new LinkedHashMap<>();
        for (String n : node == null ? nodes : List.of(node)) {
            systems.put(n, forced != null ? forced : NodeCommands.guess(topology, n));
        }
        PrintWriter out = spec.commandLine().getOut();
        if (script) {
            out.print(script(topology, plan, node, systems.get(node)));
        } else if (json) {
            out.print(json(topology, plan, systems));
        } else {
            out.print(text(topology, plan, systems));
        }
        out.flush();
        return ExitCodes.OK;
    }

    private static String script(Topology topology, AddressPlan plan, String node, NodeCommands.Os os) {
        StringBuilder out = new StringBuilder("#!/bin/sh\n# railmap addresses: node " + node + " (" + NodeCommands.shown(os)
                + "), its cables' addresses from " + plan.pool() + "; run as root\nset -e\n");
        NodeCommands.of(topology, plan, node, os).forEach(c -> out.append(c).append('\n'));
        return out.toString();
    }

    private static String text(Topology topology, AddressPlan plan, Map<String, NodeCommands.Os> systems) {
        StringBuilder out = new StringBuilder("address plan: " + plan.links().size() + " cable" + (plan.links().size() == 1 ? "" : "s")
                + ", a /" + AddressPlan.CABLE_PREFIX_LENGTH + " each from " + plan.pool() + "\n");
        TextTable table = new TextTable("CABLE", "SUBNET", "END", "ADDRESS", "END", "ADDRESS");
        for (AddressPlan.Assignment link : plan.links()) {
            List<PortRef> ends = link.link().ends();
            table.row(ends.get(0) + "\u2013" + ends.get(1), link.subnet().toString(), ends.get(0).toString(), link.addresses().get(0),
                    ends.get(1).toString(), link.addresses().get(1));
        }
        out.append(table.render());
        systems.forEach((n, os) -> {
            List<String> commands = NodeCommands.of(topology, plan, n, os);
            out.append("\nnode ").append(n).append(" (").append(NodeCommands.shown(os)).append(", as root)")
                    .append(commands.isEmpty() ? ": nothing to do\n" : ":\n");
            commands.forEach(c -> out.append("  ").append(c).append('\n'));
        });
        return out.toString();
    }

    private static String json(Topology topology, AddressPlan plan, Map<String, NodeCommands.Os> systems) {
        ObjectNode root = JsonText.object();
        root.put("pool", plan.pool().toString());
        ArrayNode cables = root.putArray("cables");
        for (AddressPlan.Assignment link : plan.links()) {
            ObjectNode cable = cables.addObject();
            cable.put("subnet", link.subnet().toString());
            ArrayNode ends = cable.putArray("ends");
            for (PortRef end : link.link().ends()) {
                ends.addObject().put("node", end.node()).put("netdev", end.port()).put("address", link.address(end));
            }
        }
        ObjectNode nodes = root.putObject("nodes");
        systems.forEach((n, os) -> {
            ObjectNode one = nodes.putObject(n);
            one.put("os", os.wireName());
            ArrayNode commands = one.putArray("commands");
            NodeCommands.of(topology, plan, n, os).forEach(commands::add);
        });
        return JsonText.pretty(root);
    }
}
