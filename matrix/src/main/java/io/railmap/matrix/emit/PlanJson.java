package io.railmap.matrix.emit;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.railmap.matrix.check.CheckReport;
import io.railmap.matrix.codec.FindingJson;
import io.railmap.matrix.codec.JsonText;
import io.railmap.matrix.fabric.RailTable;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.plan.Plan;
import io.railmap.matrix.rail.DeviceMatrix;
import io.railmap.matrix.topology.Cable;
import java.util.List;
import java.util.Optional;

/**
 * railmap's own JSON for scripts and tests.
 *
 * <pre>
 * plan:    {"ranks": ["a", "b"], "ring": true, "mode": "ring" | "mesh" | null, "runRing": true,
 *           "validMesh": true, "validRing": true, "mlxVersion": "0.32.1", "minMlxVersion": "0.32.0" | null,
 *           "devices": [[[], ["rdma_en6", "rdma_en7"]], [["rdma_en7", "rdma_en6"], []]],
 *           "rails": [{"ranks": [0, 1], "rail": 0, "cable": ["a:en6", "b:en7"]}, ...],
 *           "topology": {"digest": "sha256:…", "records": ["a@12.1f2e3d4c", "b@7.9a8b7c6d"]},
 *           "findings": [finding, ...], "railTable": railTable}
 * finding: {"code": "mismatched-rail", "severity": "error", "ranks": [0, 1], "rail": 1 | null,
 *           "ports": ["a:en6", "b:en7", ...], "message": "..."}
 * check:   {"ranks": [...], "mode": "auto", "mlxVersion": "0.32.1", "errors": 1, ["hostfile": hostfile,] "findings": [finding, ...]}
 * hostfile: {"file": "hostfile.json", "backend": "jaccl-ring" | null, "hosts": ["studio-a.local", ...],
 *           "modeFrom": "backend" | "envs" | "given"}     (only when an mlx.launch hostfile was checked;
 *           hosts are its ssh values in rank order, ranks their nodes)
 * </pre>
 * Cells of {@code devices} are always arrays here ({@code devices[i][j][k]}: ranks × ranks × rails);
 * {@code rails} lists each pair once (i &lt; j), cable ends as {@code node:port}. A finding's {@code ports}
 * are the ports it is about ({@link Finding#ports()}), as {@code node:port} in the order its message
 * names them; always present, empty when it names none. {@code mode} is the
 * group jaccl runs (null: it cannot run the matrix), {@code validMesh}/{@code validRing} are jaccl's
 * own tests for {@code mlxVersion} (the release the matrix is shaped for), and {@code minMlxVersion}
 * is the oldest release that runs it in that mode. {@code railTable} is {@link RailTableJson}'s, for every
 * node of the topology; its findings are not among the plan's (they do not stop jaccl) and do not
 * change the exit code of {@code railmap matrix}.
 */
public final class PlanJson implements Format {
    private static final About ABOUT = new About("json", "application/json",
            "railmap's JSON: matrix, ring flag, rank order, provenance, rail table and findings",
            FormatOption.JACCL, true);

    PlanJson() {
    }

    @Override
    public About about() {
        return ABOUT;
    }

    @Override
    public Output write(Request request) {
        Plan plan = request.plan();
        return new Output(render(plan), plan.findings());
    }

    /** @return the plan as JSON, ending with a newline */
    public static String render(Plan plan) {
        return JsonText.pretty(tree(plan));
    }

    /** @return the plan as a JSON tree */
    public static ObjectNode tree(Plan plan) {
        DeviceMatrix m = plan.matrix();
        ObjectNode root = JsonText.object();
        ArrayNode ranks = root.putArray("ranks");
        plan.ranks().forEach(ranks::add);
        root.put("ring", plan.ring());
        if (plan.mode().isPresent()) {
            root.put("mode", plan.mode().get().wireName());
        } else {
            root.putNull("mode");
        }
        root.put("runRing", plan.runRing());
        root.put("validMesh", plan.validMesh());
        root.put("validRing", plan.validRing());
        root.put("mlxVersion", plan.mlxVersion().toString());
        if (plan.minMlxVersion().isPresent()) {
            root.put("minMlxVersion", plan.minMlxVersion().get().toString());
        } else {
            root.putNull("minMlxVersion");
        }
        ArrayNode devices = root.putArray("devices");
        for (List<List<String>> row : m.devices()) {
            ArrayNode r = devices.addArray();
            for (List<String> cell : row) {
                ArrayNode c = r.addArray();
                cell.forEach(c::add);
            }
        }
        ArrayNode rails = root.putArray("rails");
        for (int i = 0; i < m.size(); i++) {
            for (int j = i + 1; j < m.size(); j++) {
                List<Cable> pair = m.rails(i, j);
                for (int k = 0; k < pair.size(); k++) {
                    ObjectNode rail = rails.addObject();
                    rail.putArray("ranks").add(i).add(j);
                    rail.put("rail", k);
                    rail.putArray("cable").add(pair.get(k).end(m.ranks().get(i)).toString())
                            .add(pair.get(k).end(m.ranks().get(j)).toString());
                }
            }
        }
        ObjectNode topology = root.putObject("topology");
        topology.put("digest", plan.provenance().digest());
        ArrayNode records = topology.putArray("records");
        plan.provenance().records().forEach(id -> records.add(id.toString()));
        root.set("findings", FindingJson.array(plan.findings()));
        root.set("railTable", RailTableJson.tree(plan.railTable()));
        return root;
    }

    /** @return the result of a check as JSON, ending with a newline */
    public static String check(CheckReport report) {
        return check(report, Optional.empty());
    }

    /**
     * @param report the check of a file
     * @param rails  the rail table when the fabric was checked too ({@code railmap check --rails})
     * @return the result as JSON, ending with a newline; with a rail table, its {@link RailTableJson}
     *         as {@code railTable}, and {@code errors} counting its errors too
     */
    public static String check(CheckReport report, Optional<RailTable> rails) {
        ObjectNode root = JsonText.object();
        ArrayNode r = root.putArray("ranks");
        report.ranks().forEach(r::add);
        root.put("mode", report.mode().wireName());
        root.put("mlxVersion", report.mlxVersion().toString());
        root.put("errors", report.findings().stream().filter(Finding::isError).count()
                + rails.map(t -> t.findings().stream().filter(Finding::isError).count()).orElse(0L));
        report.hostfile().ifPresent(h -> {
            ObjectNode hostfile = root.putObject("hostfile");
            hostfile.put("file", report.source());
            hostfile.put("backend", h.file().backend().orElse(null));
            ArrayNode hosts = hostfile.putArray("hosts");
            h.file().sshNames().forEach(hosts::add);
            hostfile.put("modeFrom", h.mode().from().wireName());
        });
        root.set("findings", FindingJson.array(report.findings()));
        rails.ifPresent(t -> root.set("railTable", RailTableJson.tree(t)));
        return JsonText.pretty(root);
    }
}
