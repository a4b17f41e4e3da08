package io.railmap.cli.commands;

import io.railmap.cli.client.DaemonClient;
import io.railmap.cli.options.DaemonTarget;
import io.railmap.cli.options.OutputFormat;
import io.railmap.matrix.codec.JsonCursor;
import io.railmap.matrix.model.Names;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code railmap nodes}: the cluster's members as a daemon sees them ({@code GET /v1/members}). */
@Command(mixinStandardHelpOptions = true, name = "nodes", sortOptions = false,
        description = "List the cluster's members as a daemon sees them: node, cluster address, role, and the version and "
                + "age of the record it holds for each. Asks the local daemon unless told otherwise.",
        footer = {"", "Examples:", "  railmap nodes", "  railmap nodes --lab a --json"})
public final class NodesCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    DaemonTarget target;

    @Mixin
    OutputFormat format = new OutputFormat("Print the daemon's answer as it is (see docs/api.md, /v1/members).");

    @Override
    public Integer call() {
        String url = target.url();
        String body;
        try (DaemonClient client = new DaemonClient(url)) {
            body = client.get("/v1/members");
        }
        PrintWriter out = spec.commandLine().getOut();
        if (format.json()) {
            // printed as the daemon wrote it, once it is known to be JSON: no raw control character reaches the terminal
            JsonCursor.parse(Names.escape(url, 256) + "/v1/members", body);
            out.print(body);
        } else {
            out.print(table(url, body));
        }
        out.flush();
        return 0;
    }

    /** The members answer as a table; fails with a format error naming the path when the answer is not the documented shape. */
    static String table(String url, String body) {
        JsonCursor root = JsonCursor.parse(Names.escape(url, 256) + "/v1/members", body).object(Set.of("cluster", "viewId", "members"));
        TextTable table = new TextTable("NODE", "ADDRESS", "ROLE", "RECORD VERSION", "RECORD AGE");
        List<JsonCursor> members = root.field("members").elements();
        for (JsonCursor m : members) {
            List<String> role = new ArrayList<>();
            if (m.field("self").bool()) {
                role.add("self");
            }
            if (m.field("coordinator").bool()) {
                role.add("coordinator");
            }
            table.row(
                m.optionalField("node").map(n -> Names.escape(n.string())).orElse("(not railmapd)"),
                Names.escape(m.field("address").string()),
                role.isEmpty() ? "-" : String.join(", ", role),
                m.optionalField("recordVersion").map(v -> Long.toString(v.integer())).orElse("none yet"),
                m.optionalField("recordAgeMs").map(a -> String.format("%.1f s", a.integer() / 1000.0)).orElse("-"));
        }
        return "cluster " + Names.escape(root.field("cluster").string()) + ", view " + root.field("viewId").integer() + ", " + members.size()
                + " member" + (members.size() == 1 ? "" : "s") + "\n" + table.render();
    }
}
