package io.railmap.matrix.library;

import io.railmap.matrix.address.Addresses;
import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.finding.Severity;
import io.railmap.matrix.jaccl.JacclVariables;
import io.railmap.matrix.jaccl.MlxVersion;
import io.railmap.matrix.plan.Order;
import io.railmap.matrix.plan.Plan;
import io.railmap.matrix.plan.Planner;
import io.railmap.matrix.provenance.Provenance;
import io.railmap.matrix.rail.RailOptions;
import io.railmap.matrix.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * MLX's jaccl ({@code jaccl}): the variables {@code railmap matrix --format env --rank R} writes for
 * the node, computed by the same code ({@link Planner#plan}, {@link JacclVariables}), so every
 * jaccl rule (variable names per MLX release, {@code MLX_JACCL_RING} only for a ring) is the one
 * documented there.
 *
 * <p>The ranks are what {@code railmap matrix} takes when given no flag: every node of the topology,
 * sorted ({@link Topology#nodes()}), rank i the i-th ({@link Order#GIVEN}), every active cable a
 * candidate rail ({@link RailOptions#DEFAULTS}), the newest MLX rules ({@link MlxVersion#NEWEST});
 * the node's rank is its index there. {@code MLX_IBV_DEVICES} is
 * {@value JacclVariables#DEFAULT_DEVICES_PATH} (where {@code railmap matrix --format jaccl -o} is
 * meant to put the devices file) and the coordinator rank 0's IPv4 management address and port
 * {@value Addresses#STARTING_PORT}. For other ranks, paths or releases, use
 * {@code railmap matrix --format env}.
 *
 * <p>Findings: the plan's errors and warnings that involve this node's rank or no rank in particular
 * ({@code jaccl-cannot-run}), one error counting the plan's errors on other ranks (they stop the
 * job on every rank, so this node's env is not usable either), and for a mesh an info saying to
 * unset the ring variables, which a {@code KEY=VALUE} line cannot do. When rank 0 has
 * no IPv4 management address no variable is written and an error says so.
 */
public final class JacclLibrary implements Library {
    @Override
    public String name() {
        return "jaccl";
    }

    @Override
    public EnvRules envRules() {
        return MlxEnvCheck.RULES;
    }

    @Override
    public NodeSettings settings(NodeNics node) {
        Topology topology = node.topology();
        Plan plan = Planner.plan(topology, topology.nodes(), Order.GIVEN, RailOptions.DEFAULTS, MlxVersion.NEWEST);
        int rank = plan.ranks().indexOf(node.node());
        List<Finding> findings = new ArrayList<>();
        int elsewhere = 0;
        for (Finding f : plan.findings()) {
            boolean here = f.ranks().isEmpty() || f.ranks().contains(rank);
            if (here && (f.isError() || f.severity() == Severity.WARNING)) {
                findings.add(f);
            } else if (f.isError()) {
                elsewhere++;
            }
        }
        if (elsewhere > 0) {
            findings.add(new Finding(Code.JACCL_CANNOT_RUN, Severity.ERROR, List.of(), Optional.empty(), elsewhere + " more error"
                    + (elsewhere == 1 ? "" : "s") + " on other ranks stop the job on every rank: railmap matrix --format json lists them"));
        }
        String first = plan.ranks().get(0);
        Optional<String> coordinator = Addresses.defaultCoordinator(topology, first);
        if (coordinator.isEmpty()) {
            findings.add(new Finding(Code.JACCL_CANNOT_RUN, Severity.ERROR, List.of(0), Optional.empty(), "MLX_JACCL_COORDINATOR is rank 0's"
                    + " address, and rank 0 (" + first + ") has no IPv4 management address in its record: write the env with"
                    + " railmap matrix --format env --rank " + rank + " --coordinator IPV4:PORT"));
            return new NodeSettings(name(), node.node(), List.of(), findings);
        }
        JacclVariables.meshNote(plan.mlxVersion(), plan.runRing()).filter(note -> plan.mode().isPresent())
                .ifPresent(note -> findings.add(new Finding(Code.SETTING_CAVEAT, Severity.INFO, List.of(), Optional.empty(), note)));
        List<Setting> settings = new ArrayList<>();
        settings.add(new Setting(Provenance.TOPOLOGY_VARIABLE, plan.provenance().digest()));
        settings.add(new Setting(Provenance.RECORDS_VARIABLE, plan.provenance().recordList()));
        JacclVariables.of(plan.mlxVersion(), plan.runRing(), JacclVariables.DEFAULT_DEVICES_PATH, coordinator.get(), rank)
                .forEach(v -> settings.add(new Setting(v.getKey(), v.getValue())));
        return new NodeSettings(name(), node.node(), settings, findings);
    }
}
