package io.railmap.matrix.emit;

import io.railmap.matrix.address.Addresses;
import io.railmap.matrix.jaccl.JacclVariables;
import io.railmap.matrix.model.Names;
import io.railmap.matrix.plan.Plan;
import io.railmap.matrix.provenance.Provenance;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The environment jaccl reads at init, per rank, for the plan's MLX release: the variables of
 * {@link JacclVariables}, after two lines naming the records the plan was computed from
 * ({@code RAILMAP_TOPOLOGY}, {@code RAILMAP_RECORDS}, {@link Provenance}; jaccl ignores them). For a
 * mesh a comment says to unset the ring variables, which a {@code KEY=VALUE} file cannot do.
 *
 * <p>Output is {@code KEY=VALUE} lines (values single-quoted when they hold shell metacharacters),
 * readable by {@code set -a; . file}, systemd's {@code EnvironmentFile=} and {@code docker --env-file}.
 * For all ranks, one block per rank under a {@code # rank i (node)} comment.
 */
public final class JacclEnv implements Format {
    private static final About ABOUT = new About("env", "text/plain",
            "the MLX_* and JACCL_* variables jaccl reads, per rank",
            FormatOption.jacclAnd(FormatOption.DEVICES_PATH,
                FormatOption.COORDINATOR, FormatOption.RANK), false);

    JacclEnv() {
    }

    @Override
    public About about() {
        return ABOUT;
    }

    @Override
    public Output write(Request request) {
        Plan plan = request.plan();
        Options options = request.options();
        String coordinator = options.coordinator().orElseGet(() -> Addresses.coordinator(request.topology(), plan.ranks()));
        return new Output(render(plan, options.devicesPath(), coordinator, options.rank()), plan.findings());
    }

    /**
     * @param plan        the plan
     * @param devicesPath where the devices file will be on every node (the value of MLX_IBV_DEVICES)
     * @param coordinator {@code IPv4:port} that rank 0 binds
     * @param rank        one rank to write, or empty for every rank
     * @return the text, ending with a newline
     * @throws IllegalArgumentException when the coordinator is not {@code IPv4:port}, the path is
     *                                  empty or holds a control character, or the rank is not in [0, N)
     */
    public static String render(Plan plan, String devicesPath, String coordinator, Optional<Integer> rank) {
        Addresses.ipv4AndPort("coordinator", coordinator);
        if (devicesPath.isEmpty()) {
            throw new IllegalArgumentException("the devices file path (MLX_IBV_DEVICES) is empty");
        }
        Names.printable("the devices file path (MLX_IBV_DEVICES)", devicesPath);
        int n = plan.ranks().size();
        if (rank.isPresent() && (rank.get() < 0 || rank.get() >= n)) {
            throw new IllegalArgumentException("rank " + rank.get() + " (--rank, or rank= in a query) is not among the " + n + " ranks (0 to "
                    + (n - 1) + ")");
        }
        StringBuilder out = new StringBuilder();
        List<Integer> which = new ArrayList<>();
        if (rank.isPresent()) {
            which.add(rank.get());
        } else {
            out.append("# jaccl environment for ").append(n).append(" ranks (").append(String.join(", ", plan.ranks()))
                    .append("); ").append(plan.runRing() ? "ring" : "mesh").append('\n');
            for (int r = 0; r < n; r++) {
                which.add(r);
            }
        }
        line(out, Provenance.TOPOLOGY_VARIABLE, plan.provenance().digest());
        line(out, Provenance.RECORDS_VARIABLE, plan.provenance().recordList());
        JacclVariables.meshNote(plan.mlxVersion(), plan.runRing()).ifPresent(note -> out.append("# ").append(note).append('\n'));
        for (int r : which) {
            if (rank.isEmpty()) {
                out.append("# rank ").append(r).append(" (").append(plan.ranks().get(r)).append(")\n");
            }
            JacclVariables.of(plan.mlxVersion(), plan.runRing(), devicesPath, coordinator, r).forEach(e -> line(out, e.getKey(), e.getValue()));
        }
        return out.toString();
    }

    private static void line(StringBuilder out, String key, String value) {
        out.append(key).append('=').append(shellQuote(value)).append('\n');
    }

    /** @return the value as is when it is plain, else in single quotes with inner quotes escaped */
    static String shellQuote(String value) {
        if (value.matches("[A-Za-z0-9_./:@%+,=-]+")) {
            return value;
        }
        return "'" + value.replace("'", "'\\''") + "'";
    }
}
