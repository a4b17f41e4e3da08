package io.railmap.matrix.check;

import io.railmap.matrix.fabric.RailTable;
import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.finding.Severity;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.rail.RailAligner;
import io.railmap.matrix.topology.Cable;
import io.railmap.matrix.topology.SharedSegment;
import io.railmap.matrix.topology.Topology;
import io.railmap.matrix.topology.Unconfirmed;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The findings about the cables and ports themselves, whatever rank order a library will use: one
 * definition for the event stream ({@code finding-raised}, {@code finding-cleared}), the topology
 * picture and, with rank indices attached, a plan.
 *
 * <p>Rank-free ({@link #of(Topology, RailTable)}): over every node, no finding names a rank, and a
 * rail index is the cable's place in its pair's rail order ({@link RailAligner#usable} with
 * {@link io.railmap.matrix.rail.RailOptions#DEFAULTS}), before any trimming of a ring. Cost:
 * O(nodes + ports + cables), never ranks × ranks, so it can be recomputed on every change of a
 * 2,000-node cluster. The findings about a rank order and jaccl's matrix (a missing link, a ring that
 * is no cycle, a cable left out by ring trimming) are a plan's alone.
 */
public final class CableFindings {
    /** The codes of the findings about a cable or port, not about the rank order. */
    static final Set<Code> CODES = EnumSet.of(Code.UNCONFIRMED_CABLE, Code.SHARED_SEGMENT, Code.SOURCES_DISAGREE,
            Code.NO_RDMA_DEVICE, Code.RDMA_DISABLED, Code.BRIDGED_PORT, Code.NO_IPV4, Code.SLOW_THUNDERBOLT, Code.BEHIND_HUB);

    private CableFindings() {
    }

    /**
     * The rank-free findings about cables and ports, then the rail table's.
     *
     * @param topology the records
     * @param rails    the topology's rail table ({@link RailTable#of})
     * @return the findings about cables and ports (errors first), then {@link RailTable#findings()}, those
     *         a rank-free view shows ({@link ConsumerScope#shown}: no jaccl finding on a fabric without a
     *         point-to-point cable); none names a rank
     */
    public static List<Finding> of(Topology topology, RailTable rails) {
        List<Finding> out = new ArrayList<>(observed(topology, RankScope.EVERY_NODE));
        out.addAll(Readiness.of(topology));
        out.sort(Comparator.comparing(Finding::severity));
        out.addAll(rails.findings());
        return ConsumerScope.shown(out, topology, rails, Set.of());
    }

    /**
     * What the records alone say about cables and ports in scope, needing no matrix: one-sided
     * observations, shared segments and disagreeing sources touching a node in scope, then confirmed
     * cables between two nodes in scope an end of which has no RDMA device. (Launch readiness is
     * {@link Readiness}.)
     *
     * @param topology the records
     * @param scope    the nodes, and the ranks findings name
     * @return the findings, in that order, each kind in the topology's order
     */
    public static List<Finding> observed(Topology topology, RankScope scope) {
        List<Finding> out = new ArrayList<>();
        for (Unconfirmed u : topology.unconfirmed()) {
            scope.on(u.from(), u.farEnd().orElse(u.from())).ifPresent(on -> {
                List<PortRef> named = new ArrayList<>(List.of(u.from()));
                u.farEnd().ifPresent(named::add);
                named.addAll(u.named());
                out.add(new Finding(Code.UNCONFIRMED_CABLE, Severity.WARNING, on, Optional.empty(), named,
                        u.from() + " observed " + u.farEnd().map(PortRef::toString).orElse("a far end")
                                + ", but " + u.reason() + "; the cable stays out of every matrix until both ends see each other"));
            });
        }
        for (SharedSegment s : topology.sharedSegments()) {
            scope.on(s.port()).ifPresent(on -> {
                List<PortRef> named = new ArrayList<>(List.of(s.port()));
                named.addAll(s.farEnds());
                out.add(new Finding(Code.SHARED_SEGMENT, Severity.WARNING, on, Optional.empty(), named,
                        s.port() + " heard " + s.farEnds().stream().map(PortRef::toString).collect(Collectors.joining(", "))
                                + ": it is on a shared segment (a switch), not a point-to-point cable, so it is no rail"));
            });
        }
        out.addAll(SourcesDisagree.of(topology, scope, c -> true));
        for (Cable cable : topology.cables()) {
            if (scope.covers(cable.a().node()) && scope.covers(cable.b().node())) {
                RailAligner.notRdma(topology.port(cable.a()).orElseThrow(), topology.port(cable.b()).orElseThrow())
                        .ifPresent(reason -> out.add(new Finding(Code.NO_RDMA_DEVICE, Severity.WARNING,
                                scope.on(cable.a(), cable.b()).orElseThrow(), Optional.empty(), List.of(cable.a(), cable.b()),
                                "cable " + cable + " is no jaccl rail: " + reason)));
            }
        }
        return out;
    }
}
