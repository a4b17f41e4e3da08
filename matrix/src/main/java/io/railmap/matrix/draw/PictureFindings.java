package io.railmap.matrix.draw;

import io.railmap.matrix.check.Code;
import io.railmap.matrix.check.Finding;
import io.railmap.matrix.fabric.RailTable;
import io.railmap.matrix.jaccl.MlxVersion;
import io.railmap.matrix.plan.Order;
import io.railmap.matrix.plan.Plan;
import io.railmap.matrix.plan.Planner;
import io.railmap.matrix.rail.RailOptions;
import io.railmap.matrix.topology.Topology;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The findings a picture of the topology shows: those about the cables and ports themselves, whatever
 * the rank order a library will use. They are the plan's findings over the drawn nodes (in name
 * order, default rail options, the newest MLX) whose code is one of {@link #ABOUT_CABLES}, then the
 * rail table's findings. The findings about a rank order and jaccl's matrix (a missing link, a ring
 * that is no cycle, a cable left out by ring trimming) are left to {@code railmap matrix} and
 * {@code GET /v1/matrix}, which are asked with the hosts in the order they run.
 */
final class PictureFindings {
    /** The plan's codes that speak about a cable or port, not about the rank order. */
    static final Set<Code> ABOUT_CABLES = EnumSet.of(Code.UNCONFIRMED_CABLE, Code.SHARED_SEGMENT, Code.SOURCES_DISAGREE,
            Code.NO_RDMA_DEVICE, Code.RDMA_DISABLED, Code.BRIDGED_PORT, Code.NO_IPV4, Code.SLOW_THUNDERBOLT, Code.BEHIND_HUB);

    private PictureFindings() {
    }

    /**
     * @param topology the records
     * @param nodes    the drawn nodes with a record, in name order; may be empty
     * @param rails    the topology's rail table
     * @return the findings, errors first within each part
     */
    static List<Finding> of(Topology topology, List<String> nodes, RailTable rails) {
        List<Finding> out = new ArrayList<>();
        if (!nodes.isEmpty()) {
            Plan plan = Planner.plan(topology, nodes, Order.GIVEN, RailOptions.DEFAULTS, MlxVersion.NEWEST);
            plan.findings().stream().filter(f -> ABOUT_CABLES.contains(f.code())).forEach(out::add);
        }
        out.addAll(rails.findings());
        return out;
    }
}
