package io.railmap.matrix.check;

import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.finding.Severity;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.topology.SourceConflict;
import io.railmap.matrix.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * The {@code sources-disagree} findings of a topology ({@link Topology#sourceConflicts()}): a port
 * whose Thunderbolt pairing or InfiniBand neighbour names one far end and whose link probe heard
 * others, so none of its cables is confirmed. One sentence for every command that reports them
 * ({@code railmap matrix}'s plan, {@code railmap check}, the picture and the events through
 * {@link CableFindings}).
 */
public final class SourcesDisagree {
    private SourcesDisagree() {
    }

    /**
     * @param topology the cable graph
     * @param scope    the nodes, and the ranks findings name ({@link RankScope})
     * @param which    the conflicts to report, e.g. those at ports a devices file names
     * @return a warning per chosen conflict whose port or paired far end is in scope, naming the
     *         port, its paired far end and the far ends its probe heard; in the topology's order
     */
    public static List<Finding> of(Topology topology, RankScope scope, Predicate<SourceConflict> which) {
        List<Finding> out = new ArrayList<>();
        for (SourceConflict c : topology.sourceConflicts()) {
            if (!which.test(c)) {
                continue;
            }
            scope.on(c.port(), c.paired()).ifPresent(on -> {
                List<PortRef> named = new ArrayList<>(List.of(c.port(), c.paired()));
                named.addAll(c.probed());
                out.add(new Finding(Code.SOURCES_DISAGREE, Severity.WARNING, on, Optional.empty(), named,
                        c.port() + ": its " + c.pairing().phrase() + " names " + c.paired() + " but its probe heard "
                                + c.probed().stream().map(PortRef::toString).collect(Collectors.joining(", "))
                                + "; one source is wrong (a forged or replayed probe, or a cable moved), so the port's cables"
                                + " stay out of every matrix until both agree"));
            });
        }
        return out;
    }

    /**
     * @param ports ports, e.g. those a devices file names
     * @return a test true for a conflict at one of them or whose pairing names one of them: neither has
     *         a confirmed cable because of it (a far end the probe heard keeps a cable it has otherwise)
     */
    public static Predicate<SourceConflict> concerningAnyOf(Set<PortRef> ports) {
        return c -> ports.contains(c.port()) || ports.contains(c.paired());
    }
}
