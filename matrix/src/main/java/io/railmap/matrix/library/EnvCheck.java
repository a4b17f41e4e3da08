package io.railmap.matrix.library;

import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Checks the variables of an existing environment file ({@link EnvFile}) against one node's cables,
 * reading each variable as its library does: the {@link EnvRules} of every library in
 * {@link Libraries#ALL}, each rule set once, in that order.
 *
 * <p>Errors: a device the node lacks ({@link Code#UNKNOWN_HCA}), a netdev it lacks
 * ({@link Code#UNKNOWN_DEVICE}), a down port ({@link Code#LINK_DOWN}); a management NIC, or an RDMA
 * NIC slower than the compute NICs, in an RDMA list or among the NICs ModelExpress's stripe mode
 * takes ({@link Code#SIDE_NIC_IN_LIST}); one NCCL rail id
 * covering NICs on different rails ({@link Code#WRONG_RAIL_ID}; ids numbered otherwise but consistently
 * are an info, {@link Code#RENUMBERED_RAIL_ID}); a GID index other than the RoCE v2 IPv4 one
 * ({@link Code#WRONG_GID_INDEX}); more entries than the library reads ({@link Code#LIST_LIMIT}); a
 * value the library misreads or refuses ({@link Code#BAD_SETTING}). Warnings: a setting that works
 * worse than railmap's (fewer rails, GPU memory registered on fewer HCAs than the stripe, compute
 * NICs the stripe mode misses, the other jaccl mode, another node's rank, NCCL's subnet-aware routing
 * off where railmap turns it on).
 */
public final class EnvCheck {
    /** The rule sets, in the order of {@link Libraries#ALL}, each once. */
    public static final List<EnvRules> RULES = Libraries.ALL.stream().map(Library::envRules).distinct().toList();
    /** The variables checked, in the order checked. */
    public static final List<String> VARIABLES = RULES.stream().flatMap(r -> r.variables().stream()).toList();

    private EnvCheck() {
    }

    /**
     * @param node what the node has ({@link ComputeNics#of})
     * @param vars the file's variables ({@link EnvFile#variables}); variables of no library here are ignored
     * @return the findings, by rule set in the order above, then by variable
     */
    public static List<Finding> check(NodeNics node, Map<String, String> vars) {
        List<Finding> out = new ArrayList<>();
        RULES.forEach(r -> r.check().check(node, vars, out));
        return out;
    }
}
