package io.railmap.matrix.emit;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.railmap.matrix.check.CheckReport;
import io.railmap.matrix.check.LaunchMode;
import io.railmap.matrix.check.Mode;
import io.railmap.matrix.codec.FindingJson;
import io.railmap.matrix.codec.JsonText;
import io.railmap.matrix.codec.Nullable;
import io.railmap.matrix.fabric.RailTable;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.jaccl.JacclMode;
import io.railmap.matrix.plan.Plan;
import io.railmap.matrix.rail.DeviceMatrix;
import io.railmap.matrix.topology.Cable;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * railmap's own JSON for scripts and tests: the plan (format {@code json}, {@link #FORMAT}) and the result
 * of a check ({@link CheckJson}), records written by Jackson in this order:
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
 * {@code rails} lists each pair once (i &lt; j), cable ends as {@code node:port}. A finding is a
 * {@link FindingJson}: its {@code ports} are the ports it is about ({@link Finding#ports()}), as
 * {@code node:port} in the order its message names them; always present, empty when it names none.
 * {@code mode} is the group jaccl runs (null: it cannot run the matrix), {@code validMesh}/{@code validRing}
 * are jaccl's own tests for {@code mlxVersion} (the release the matrix is shaped for), and
 * {@code minMlxVersion} is the oldest release that runs it in that mode. {@code railTable} is
 * {@link RailTableJson}'s, for every node of the topology; its findings are not among the plan's (they do
 * not stop jaccl) and do not change the exit code of {@code railmap matrix}.
 *
 * @param ranks         the nodes in rank order
 * @param ring          some pair has more than one cable
 * @param mode          the group jaccl runs; null when it cannot run the matrix
 * @param runRing       whether jaccl is to run it as a ring
 * @param validMesh     jaccl's own mesh test, for {@code mlxVersion}
 * @param validRing     jaccl's own ring test, for {@code mlxVersion}
 * @param mlxVersion    the MLX release the matrix is shaped for
 * @param minMlxVersion the oldest release that runs it as {@code mode}; null without a mode
 * @param devices       {@code devices[i][j][k]}, every cell an array
 * @param rails         each pair's cables once (i &lt; j), by rail
 * @param topology      the records the plan came from
 * @param findings      the plan's findings
 * @param railTable     the rail table of every node of the topology
 */
@JsonPropertyOrder({"ranks", "ring", "mode", "runRing", "validMesh", "validRing", "mlxVersion", "minMlxVersion", "devices", "rails",
        "topology", "findings", "railTable"})
public record PlanJson(List<String> ranks, boolean ring, @Nullable JacclMode mode, boolean runRing, boolean validMesh, boolean validRing,
                       String mlxVersion, @Nullable String minMlxVersion, List<List<List<String>>> devices, List<CableJson> rails,
                       TopologyJson topology, List<FindingJson> findings, RailTableJson railTable) {
    /** The registered format ({@link Formats#ALL}): {@code railmap matrix --format json}. */
    public static final Format FORMAT = new Writer();

    /** @return the plan as JSON, ending with a newline */
    public static String render(Plan plan) {
        return JsonText.write(of(plan));
    }

    /** @return the plan's JSON */
    public static PlanJson of(Plan plan) {
        DeviceMatrix m = plan.matrix();
        List<CableJson> rails = new ArrayList<>();
        for (int i = 0; i < m.size(); i++) {
            for (int j = i + 1; j < m.size(); j++) {
                List<Cable> pair = m.rails(i, j);
                for (int k = 0; k < pair.size(); k++) {
                    rails.add(new CableJson(List.of(i, j), k, List.of(pair.get(k).end(m.ranks().get(i)).toString(),
                            pair.get(k).end(m.ranks().get(j)).toString())));
                }
            }
        }
        return new PlanJson(List.copyOf(plan.ranks()), plan.ring(), plan.mode().orElse(null), plan.runRing(), plan.validMesh(),
                plan.validRing(), plan.mlxVersion().toString(), plan.minMlxVersion().map(Object::toString).orElse(null), m.devices(),
                rails, new TopologyJson(plan.provenance().digest(), plan.provenance().records().stream().map(Object::toString).toList()),
                FindingJson.of(plan.findings()), RailTableJson.of(plan.railTable()));
    }

    /** @return the result of a check as JSON, ending with a newline */
    public static String check(CheckReport report) {
        return check(report, Optional.empty());
    }

    /**
     * @param report the check of a file
     * @param rails  the rail table when the fabric was checked too ({@code railmap check --rails})
     * @return the result as JSON ({@link CheckJson}), ending with a newline; with a rail table, its
     *         {@link RailTableJson} as {@code railTable}, and {@code errors} counting its errors too
     */
    public static String check(CheckReport report, Optional<RailTable> rails) {
        return JsonText.write(CheckJson.of(report, rails));
    }

    /**
     * One cable of a pair of ranks, as {@code rails} lists it.
     *
     * @param ranks the pair, i &lt; j
     * @param rail  the cable's rail
     * @param cable its ends, rank i's first, as {@code node:port}
     */
    @JsonPropertyOrder({"ranks", "rail", "cable"})
    public record CableJson(List<Integer> ranks, int rail, List<String> cable) {
    }

    /**
     * The records a result came from.
     *
     * @param digest  their digest, {@code sha256:…}
     * @param records each record, {@code node@version.hash}
     */
    @JsonPropertyOrder({"digest", "records"})
    public record TopologyJson(String digest, List<String> records) {
    }

    /**
     * The result of {@code railmap check --json} and {@code POST /v1/check}.
     *
     * @param ranks      the nodes in rank order
     * @param mode       how the file was checked
     * @param mlxVersion the MLX release it was checked for
     * @param errors     how many findings are errors, the rail table's included
     * @param hostfile   the mlx.launch hostfile checked; left out for a devices file
     * @param findings   the file's findings
     * @param railTable  the rail table, with {@code railmap check --rails} only; left out otherwise
     */
    @JsonPropertyOrder({"ranks", "mode", "mlxVersion", "errors", "hostfile", "findings", "railTable"})
    public record CheckJson(List<String> ranks, Mode mode, String mlxVersion, long errors,
                            @JsonInclude(JsonInclude.Include.NON_NULL) HostfileJson hostfile, List<FindingJson> findings,
                            @JsonInclude(JsonInclude.Include.NON_NULL) RailTableJson railTable) {
        /** @return the report's JSON, with the rail table when given */
        public static CheckJson of(CheckReport report, Optional<RailTable> rails) {
            long errors = report.findings().stream().filter(Finding::isError).count()
                    + rails.map(t -> t.findings().stream().filter(Finding::isError).count()).orElse(0L);
            return new CheckJson(List.copyOf(report.ranks()), report.mode(), report.mlxVersion().toString(), errors,
                    report.hostfile().map(h -> new HostfileJson(report.source(), h.file().backend().orElse(null),
                            List.copyOf(h.file().sshNames()), h.mode().from())).orElse(null),
                    FindingJson.of(report.findings()), rails.map(RailTableJson::of).orElse(null));
        }
    }

    /**
     * The mlx.launch hostfile a check read.
     *
     * @param file     its name as the check was given it
     * @param backend  its {@code backend}; null when it names none
     * @param hosts    its {@code ssh} values in rank order
     * @param modeFrom where the checked mode came from
     */
    @JsonPropertyOrder({"file", "backend", "hosts", "modeFrom"})
    public record HostfileJson(String file, @Nullable String backend, List<String> hosts, LaunchMode.Source modeFrom) {
    }

    /** The format: the plan as {@link PlanJson}. */
    static final class Writer implements Format {
        private static final About ABOUT = new About("json", "application/json",
                "railmap's JSON: matrix, ring flag, rank order, provenance, rail table and findings",
                FormatOption.JACCL, true);

        private Writer() {
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

        @Override
        public Optional<Class<? extends Record>> jsonRecord() {
            return Optional.of(PlanJson.class);
        }
    }
}
