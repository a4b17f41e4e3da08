package io.railmap.cli.commands;

import io.railmap.cli.ExitCodes;
import io.railmap.cli.client.DaemonClient;
import io.railmap.cli.options.DaemonTarget;
import io.railmap.cli.options.OutputFormat;
import io.railmap.matrix.codec.JsonCursor;
import io.railmap.matrix.model.Names;
import java.io.PrintWriter;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code railmap agree}: do all members hold the same records ({@code GET /v1/agreement})? */
@Command(mixinStandardHelpOptions = true, name = "agree", sortOptions = false,
        description = {"Say whether every member of the cluster holds the same records as the daemon asked, so that every rank, "
                + "whichever daemon it asks, gets the same config; with --hosts, also the digest configs for those hosts carry "
                + "(RAILMAP_TOPOLOGY). Exits 0 when they agree, 2 when they do not (after --wait-s), 4 when the daemon cannot be reached."},
        footer = {"", "Examples:", "  railmap agree", "  railmap agree --lab a --hosts a,b --wait-s 10", "  railmap agree --json"})
public final class AgreeCommand implements Callable<Integer> {
    /** How often the daemon is asked again while waiting, in ms. */
    static final long POLL_MS = 250;

    @Spec
    CommandSpec spec;

    @Mixin
    DaemonTarget target;

    @Option(names = "--hosts", paramLabel = "A,B,...", description = "Also report the digest of these nodes' records, as their configs carry it.")
    String hosts;

    @Option(names = "--wait-s", paramLabel = "S", defaultValue = "0",
            description = "Ask again every 250 ms until the members agree or S seconds have passed (0 to 3600). Default: ${DEFAULT-VALUE}, ask once.")
    int waitS;

    @Mixin
    OutputFormat format = new OutputFormat("Print the daemon's last answer as it is (see docs/api.md, /v1/agreement).");

    @Override
    public Integer call() throws InterruptedException {
        if (waitS < 0 || waitS > 3600) {
            throw new IllegalArgumentException("--wait-s must be between 0 and 3600 seconds (got " + waitS + ")");
        }
        // a node name may hold '&', '#' or '%': percent-encoded, it stays one query value
        String path = "/v1/agreement" + (hosts == null ? ""
                : "?hosts=" + URLEncoder.encode(String.join(",", Names.nodeList("--hosts", hosts)), StandardCharsets.UTF_8));
        String url = target.url();
        long deadline = System.nanoTime() + waitS * 1_000_000_000L;
        String body;
        JsonCursor answer;
        try (DaemonClient client = new DaemonClient(url)) {
            while (true) {
                body = client.get(path);
                answer = JsonCursor.parse(Names.escape(url, 256) + path, body);
                if (answer.field("agreed").bool() || System.nanoTime() >= deadline) {
                    break;
                }
                Thread.sleep(POLL_MS);
            }
        }
        PrintWriter out = spec.commandLine().getOut();
        if (format.json()) {
            out.print(body);
        } else {
            out.print(text(answer));
        }
        out.flush();
        return answer.field("agreed").bool() ? ExitCodes.OK : ExitCodes.FINDINGS;
    }

    /** The answer for people: one line, then one row per member that does not agree. */
    static String text(JsonCursor root) {
        root.object(Set.of("cluster", "viewId", "agreed", "digest", "records", "hosts", "hostsDigest", "hostsRecords", "members"));
        StringBuilder out = new StringBuilder();
        List<JsonCursor> members = root.field("members").elements();
        long records = root.field("records").integer();
        String digest = Names.escape(root.field("digest").string(), 128);
        if (root.field("agreed").bool()) {
            out.append("agreed: all ").append(members.size()).append(" member").append(members.size() == 1 ? "" : "s")
                    .append(" hold the same ").append(records).append(" record").append(records == 1 ? "" : "s").append(" (").append(digest).append(")\n");
        } else {
            out.append("not agreed: this daemon holds ").append(records).append(" record").append(records == 1 ? "" : "s")
                    .append(" (").append(digest).append("); members that differ:\n");
            TextTable table = new TextTable("NODE", "ADDRESS", "HOLDS");
            for (JsonCursor m : members) {
                if (!m.field("agrees").bool()) {
                    table.row(m.field("node").isNull() ? "(not railmapd)" : Names.escape(m.field("node").string()),
                            Names.escape(m.field("address").string()),
                            m.field("digest").isNull() ? "has not said yet"
                                    : m.field("records").integer() + " records (" + Names.escape(m.field("digest").string(), 128) + ")");
                }
            }
            out.append(table.render());
        }
        if (!root.field("hostsDigest").isNull()) {
            out.append("records of the hosts: ").append(Names.escape(root.field("hostsDigest").string(), 128)).append(" (");
            List<String> ids = root.field("hostsRecords").elements().stream().map(e -> Names.escape(e.string())).toList();
            out.append(String.join(", ", ids.subList(0, Math.min(8, ids.size())))).append(ids.size() > 8 ? ", …" : "").append(")\n");
        }
        return out.toString();
    }
}
