package io.railmap.matrix.library;

import static io.railmap.matrix.library.ListedPorts.error;
import static io.railmap.matrix.library.ListedPorts.quoted;
import static io.railmap.matrix.library.ListedPorts.warning;

import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.jaccl.JacclMode;
import io.railmap.matrix.jaccl.MlxVersion;
import io.railmap.matrix.plan.MlxRing;
import io.railmap.matrix.plan.Order;
import io.railmap.matrix.plan.Plan;
import io.railmap.matrix.plan.Planner;
import io.railmap.matrix.rail.RailOptions;
import io.railmap.matrix.topology.Topology;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * MLX's variables railmap writes for jaccl ({@link JacclLibrary}) and the TCP ring
 * ({@link MlxRingLibrary}), against the ranks railmap computes for them (every node of the topology:
 * jaccl's plan with {@code railmap matrix}'s defaults, the ring of {@link MlxRing#of}). Paths
 * ({@code MLX_IBV_DEVICES}, {@code JACCL_IBV_DEVICES}, {@code MLX_HOSTFILE}) are not opened here and
 * the coordinator is not checked: {@code railmap check FILE} checks a devices file.
 */
final class MlxEnvCheck {
    /** Variables that make the file a jaccl one (ml-explore/mlx {@code jaccl/lib/jaccl/jaccl.cpp}, {@code Config::from_env}). */
    static final List<String> JACCL_VARIABLES = List.of("MLX_IBV_DEVICES", "MLX_JACCL_DEVICES", "JACCL_IBV_DEVICES",
            "MLX_JACCL_COORDINATOR", "JACCL_COORDINATOR", "JACCL_RANK", "MLX_JACCL_RING", "JACCL_RING");
    static final List<String> VARIABLES = List.of("MLX_RANK", "JACCL_RANK", "MLX_JACCL_RING", "JACCL_RING", "MLX_HOSTFILE");
    /** The rules the libraries that read these variables name. */
    static final EnvRules RULES = new EnvRules(VARIABLES, MlxEnvCheck::check);

    private MlxEnvCheck() {
    }

    static void check(NodeNics node, Map<String, String> vars, List<Finding> out) {
        if (JACCL_VARIABLES.stream().anyMatch(vars::containsKey)) {
            jaccl(node, vars, out);
        }
        if (vars.containsKey("MLX_HOSTFILE")) {
            ring(node, vars, out);
        }
    }

    /**
     * jaccl ({@code Config::from_env}): the rank from {@code JACCL_RANK}, else {@code MLX_RANK}, read
     * with {@code atoi}; the ring preferred when {@code JACCL_RING} or {@code MLX_JACCL_RING} exists,
     * whatever its value; {@code init} runs the ring when preferred and the devices file is a valid
     * ring, else the mesh when valid, else the ring when valid. So a ring variable where the cables
     * make no valid ring is ignored (the mesh runs), and is not reported.
     */
    private static void jaccl(NodeNics node, Map<String, String> vars, List<Finding> out) {
        Topology topology = node.topology();
        Plan plan = Planner.plan(topology, topology.nodes(), Order.GIVEN, RailOptions.DEFAULTS, MlxVersion.NEWEST);
        String rankVariable = vars.containsKey("JACCL_RANK") ? "JACCL_RANK" : "MLX_RANK";
        Optional.ofNullable(vars.get(rankVariable)).ifPresent(v -> rank(node, rankVariable, v, plan.ranks(), "jaccl",
                "railmap matrix's default ranks (every node, sorted)", "a devices file railmap matrix writes without --hosts", out));
        boolean ringSet = vars.containsKey("JACCL_RING") || vars.containsKey("MLX_JACCL_RING");
        String ringVariable = vars.containsKey("JACCL_RING") ? "JACCL_RING" : "MLX_JACCL_RING";
        if (plan.mode().equals(Optional.of(JacclMode.MESH)) && ringSet && plan.validRing()) {
            out.add(warning(Code.BAD_SETTING, ringVariable + " is set, so jaccl runs the ring (it tests only that the variable"
                    + " exists), not the mesh railmap chose for these cables; unset " + (plan.mlxVersion().readsJacclVariables()
                    ? "both JACCL_RING and MLX_JACCL_RING" : "MLX_JACCL_RING") + " (railmap env --for jaccl)"));
        } else if (plan.runRing() && !ringSet && plan.validMesh()) {
            out.add(warning(Code.BAD_SETTING, "neither JACCL_RING nor MLX_JACCL_RING is set, so jaccl runs the mesh, over one wire per"
                    + " pair, not the ring railmap chose for these cables; set JACCL_RING=1 and MLX_JACCL_RING=1 (railmap env --for jaccl)"));
        }
    }

    /** The TCP ring ({@code ring.cpp}, {@code init}): {@code MLX_RANK} read with {@code atoi}, the hostfile's hosts its ranks. */
    private static void ring(NodeNics node, Map<String, String> vars, List<Finding> out) {
        MlxRing ring = MlxRing.of(node.topology());
        if (ring.ranks().isEmpty()) {
            ring.findings().stream().filter(Finding::isError).forEach(f -> out.add(new Finding(f.code(), f.severity(), List.of(),
                    f.rail(), f.ports(), "MLX_HOSTFILE is set, but the cables make no TCP ring: " + f.message())));
            return;
        }
        Optional.ofNullable(vars.get("MLX_RANK")).ifPresent(v -> rank(node, "MLX_RANK", v, ring.ranks(), "the ring backend",
                "the ring railmap finds over every node", "the hostfile railmap matrix --format ring-hosts writes", out));
    }

    /**
     * A rank variable: not a number {@code atoi} reads (it reads 0), or outside [0, N) for the N ranks
     * (the group cannot form), is an error; another node's place in railmap's ranks is a warning.
     */
    private static void rank(NodeNics node, String variable, String value, List<String> ranks, String library, String whose,
                             String file, List<Finding> out) {
        CNumber n = CNumber.read(value, 10);
        if (n.none()) {
            out.add(error(Code.BAD_SETTING, variable + " " + quoted(value) + " is not a number: " + library + " reads it (atoi) as 0;"
                    + " write " + node.node() + "'s rank, " + ranks.indexOf(node.node())));
            return;
        }
        int rank = n.asInt();
        int mine = ranks.indexOf(node.node());
        if (rank < 0 || rank >= ranks.size()) {
            out.add(error(Code.BAD_SETTING, variable + "=" + rank + " is not among the " + ranks.size() + " ranks (0 to "
                    + (ranks.size() - 1) + ") of " + whose + ": " + library + " cannot form the group; write " + mine));
        } else if (rank != mine && mine >= 0) {
            out.add(warning(Code.BAD_SETTING, variable + "=" + rank + ", but " + whose + " put " + node.node() + " at rank " + mine
                    + "; rank " + rank + " is " + ranks.get(rank) + "'s place in " + file + ": check the file's rank order"));
        }
    }
}
