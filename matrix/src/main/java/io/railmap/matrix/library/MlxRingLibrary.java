package io.railmap.matrix.library;

import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.plan.MlxRing;
import io.railmap.matrix.provenance.Provenance;
import java.util.ArrayList;
import java.util.List;

/**
 * MLX's TCP ring backend ({@code mlx-ring}): the variables one node's process reads. Read from
 * ml-explore/mlx (main of August 2026), {@code mlx/distributed/ring/ring.cpp}, {@code ring::init}:
 * <ul>
 * <li>{@code MLX_RANK} = the node's rank in the ring ({@link MlxRing}: a cycle of the cables, the
 *     node's index in it), read with {@code std::atoi}.</li>
 * <li>{@code MLX_HOSTFILE} = {@value #HOSTFILE_PATH}: the path of the file {@code load_nodes} parses,
 *     which must hold {@link io.railmap.matrix.emit.RingHostsFile} ({@code railmap matrix --format ring-hosts}) (per rank, in rank order, its own IPv4 ends of the
 *     cables to the previous rank as {@code "ip:port"}); the same file on every node. Without either
 *     variable {@code init} gives no group (or throws, when the backend is asked for by name).</li>
 * <li>{@code MLX_RING_VERBOSE} is never written: the backend logs when it exists at all
 *     ({@code ring_verbose != nullptr}), whatever its value.</li>
 * </ul>
 * The two provenance variables ({@code RAILMAP_TOPOLOGY}, {@code RAILMAP_RECORDS}) name the records
 * the ring was computed from; MLX ignores them. Findings are the ring's ({@link MlxRing#findings()})
 * that concern the node's rank or the whole ring: with no ring, an error and no variable.
 */
public final class MlxRingLibrary implements Library {
    /** Where the ring's hostfile is meant to be on every node: the value of MLX_HOSTFILE. */
    public static final String HOSTFILE_PATH = "/etc/railmap/ring-hosts.json";

    @Override
    public String name() {
        return "mlx-ring";
    }

    @Override
    public EnvRules envRules() {
        return MlxEnvCheck.RULES;
    }

    @Override
    public NodeSettings settings(NodeNics node) {
        MlxRing ring = MlxRing.of(node.topology());
        int rank = ring.ranks().indexOf(node.node());
        List<Finding> findings = ring.findings().stream().filter(f -> f.ranks().isEmpty() || f.ranks().contains(rank)).toList();
        List<Setting> settings = new ArrayList<>();
        if (rank >= 0) {
            settings.add(new Setting(Provenance.TOPOLOGY_VARIABLE, ring.provenance().digest()));
            settings.add(new Setting(Provenance.RECORDS_VARIABLE, ring.provenance().recordList()));
            settings.add(new Setting("MLX_HOSTFILE", HOSTFILE_PATH));
            settings.add(new Setting("MLX_RANK", String.valueOf(rank)));
        }
        return new NodeSettings(name(), node.node(), settings, findings);
    }
}
