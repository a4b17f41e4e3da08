package io.railmap.matrix.rail;

import io.railmap.matrix.jaccl.JacclRules;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.Thunderbolt;
import io.railmap.matrix.topology.Cable;
import io.railmap.matrix.topology.Topology;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Turns a topology and a rank order into a {@link DeviceMatrix}.
 *
 * <p>Rail order within a pair: the faster cable first (a cable's rate is the lower of its two ends'
 * rates; unknown rates last), then by the cable's ends (digits compared as numbers). Wire 0 is the
 * fastest cable because jaccl's mesh uses only wire 0. The order depends only on the cables, never
 * on the order records were received or which side reported first.
 */
public final class RailAligner {
    /** The order of a pair's cables: rail k is element k. */
    public static final Comparator<CableRate> RAIL_ORDER =
            Comparator.comparing((CableRate c) -> c.rateGbps().orElse(-1.0), Comparator.reverseOrder())
                    .thenComparing(CableRate::cable);

    private RailAligner() {
    }

    /**
     * A cable with the rate it carries.
     *
     * @param cable    the cable
     * @param rateGbps the lower of its ends' rates in Gb/s; empty when either is unknown
     */
    public record CableRate(Cable cable, Optional<Double> rateGbps) {
    }

    /**
     * The cables between two nodes whose ends both have an RDMA device and that pass the options'
     * state, rate and Thunderbolt filters, in rail order, before any cap on their number.
     *
     * @param topology the cable graph
     * @param x        a node
     * @param y        another node
     * @param options  the filters
     * @param leftOut  receives each cable that fails a filter, with the reason
     * @return the usable cables in rail order
     */
    public static List<Cable> usable(Topology topology, String x, String y, RailOptions options, List<LeftOut> leftOut) {
        List<CableRate> kept = new ArrayList<>();
        for (Cable cable : topology.cablesBetween(x, y)) {
            Port a = topology.port(cable.a()).orElseThrow();
            Port b = topology.port(cable.b()).orElseThrow();
            Optional<Double> rate = a.rateGbps().isPresent() && b.rateGbps().isPresent()
                    ? Optional.of(Math.min(a.rateGbps().get(), b.rateGbps().get())) : Optional.empty();
            Optional<String> notRdma = notRdma(a, b);
            String reason = notRdma.orElseGet(() -> reasonToLeaveOut(a, b, rate, options));
            if (reason == null) {
                kept.add(new CableRate(cable, rate));
            } else {
                leftOut.add(new LeftOut(cable, reason, notRdma.isPresent()));
            }
        }
        kept.sort(RAIL_ORDER);
        return kept.stream().map(CableRate::cable).toList();
    }

    /**
     * Whether a cable can never be a jaccl rail because an end has no RDMA device (jaccl opens
     * devices by RDMA name only), whatever the options and the rank order.
     *
     * @param a one end of a cable
     * @param b its other end
     * @return why, as a sentence fragment naming the end ("a:en6 has no RDMA device ..."); empty
     *         when both ends have one
     */
    public static Optional<String> notRdma(Port a, Port b) {
        Optional<Port> plain = a.rdma().isEmpty() ? Optional.of(a) : b.rdma().isEmpty() ? Optional.of(b) : Optional.empty();
        return plain.map(p -> p.ref() + " has no RDMA device (it is a plain netdev), and jaccl opens RDMA devices by name");
    }

    private static String reasonToLeaveOut(Port a, Port b, Optional<Double> rate, RailOptions options) {
        for (Port end : List.of(a, b)) {
            if (options.activeOnly() && !end.active()) {
                return end.ref() + " is " + end.state().externalName();
            }
            Optional<Thunderbolt> tb = end.thunderbolt();
            if (tb.isPresent() && !tb.get().rdmaCapable()) {
                return end.ref() + " is a Thunderbolt link that cannot carry RDMA ("
                        + (tb.get().behindHub() ? "its peer is behind a hub or dock" : "link speed "
                        + tb.get().linkSpeedGbps().map(RailAligner::gbps).orElse("unknown")
                        + ", RDMA needs " + gbps(Thunderbolt.RDMA_MIN_LINK_GBPS)) + ")";
            }
        }
        if (options.minRateGbps() > 0) {
            if (rate.isEmpty()) {
                return "its rate is unknown and a minimum of " + gbps(options.minRateGbps()) + " is set";
            }
            if (rate.get() < options.minRateGbps()) {
                return "its rate " + gbps(rate.get()) + " is below the minimum " + gbps(options.minRateGbps());
            }
        }
        return null;
    }

    /** @return a rate for people: {@code "80 Gb/s"}, {@code "12.5 Gb/s"} */
    public static String gbps(double value) {
        return (value == Math.rint(value) ? String.valueOf((long) value) : String.valueOf(value)) + " Gb/s";
    }

    /**
     * Builds the rail-aligned matrix for {@code ranks}: for each pair, its usable cables in rail order,
     * capped at {@code maxWires}; then, when {@code equalRingWires} is set and every pair of ring
     * neighbours (ranks r and r+1 mod N) has a cable, every ring edge is trimmed to the smallest count
     * on the cycle and at most {@value JacclRules#RING_MAX_CONNS}. Cost: O(N² + cables).
     *
     * @param topology the cable graph
     * @param ranks    node names in rank order; not empty, no duplicates
     * @param options  which cables become rails
     * @return the matrix
     * @throws UnknownNodesException    when a rank names a node the topology does not know
     * @throws IllegalArgumentException when {@code ranks} is empty or names a node twice
     */
    public static DeviceMatrix align(Topology topology, List<String> ranks, RailOptions options) {
        validateRanks(topology, ranks);
        int n = ranks.size();
        List<LeftOut> leftOut = new ArrayList<>();
        List<List<List<Cable>>> rails = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            List<List<Cable>> row = new ArrayList<>();
            for (int j = 0; j < n; j++) {
                row.add(List.of());
            }
            rails.add(row);
        }
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                List<Cable> pair = usable(topology, ranks.get(i), ranks.get(j), options, leftOut);
                pair = keep(pair, options.maxWires(), "only " + options.maxWires() + " wires per pair are allowed", leftOut);
                rails.get(i).set(j, pair);
                rails.get(j).set(i, pair);
            }
        }
        if (options.equalRingWires() && n >= 2 && followsCycle(rails, n)) {
            int ringWires = JacclRules.RING_MAX_CONNS;
            for (int r = 0; r < n; r++) {
                ringWires = Math.min(ringWires, rails.get(r).get(JacclRules.right(r, n)).size());
            }
            for (int r = 0; r < n; r++) {
                int s = JacclRules.right(r, n);
                List<Cable> pair = keep(rails.get(r).get(s), ringWires,
                        "ring edges are trimmed to " + ringWires + " wires, the count every edge of the ring can carry", leftOut);
                rails.get(r).set(s, pair);
                rails.get(s).set(r, pair);
            }
        }
        leftOut.sort(Comparator.comparing(LeftOut::cable));
        List<List<List<String>>> devices = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            List<List<String>> row = new ArrayList<>();
            for (int j = 0; j < n; j++) {
                String node = ranks.get(i);
                row.add(rails.get(i).get(j).stream()
                        .map(c -> topology.port(c.end(node)).flatMap(Port::rdma).orElseThrow())
                        .toList());
            }
            devices.add(List.copyOf(row));
            rails.set(i, List.copyOf(rails.get(i)));
        }
        return new DeviceMatrix(ranks, List.copyOf(rails), List.copyOf(devices), leftOut);
    }

    /**
     * @throws UnknownNodesException    when a rank names a node the topology does not know
     * @throws IllegalArgumentException when {@code ranks} is empty or names a node twice
     */
    public static void validateRanks(Topology topology, List<String> ranks) {
        if (ranks.isEmpty()) {
            throw new IllegalArgumentException("no ranks given: name at least one node");
        }
        Set<String> seen = new HashSet<>();
        Set<String> unknown = new LinkedHashSet<>();
        for (String node : ranks) {
            if (!seen.add(node)) {
                throw new IllegalArgumentException("node " + node + " is named twice in the rank list");
            }
            if (!topology.hasNode(node)) {
                unknown.add(node);
            }
        }
        if (!unknown.isEmpty()) {
            throw new UnknownNodesException(List.copyOf(unknown), topology.nodes());
        }
    }

    private static boolean followsCycle(List<List<List<Cable>>> rails, int n) {
        for (int r = 0; r < n; r++) {
            if (rails.get(r).get(JacclRules.right(r, n)).isEmpty()) {
                return false;
            }
        }
        return true;
    }

    private static List<Cable> keep(List<Cable> pair, int count, String reason, List<LeftOut> leftOut) {
        if (pair.size() <= count) {
            return pair;
        }
        pair.subList(count, pair.size()).forEach(c -> leftOut.add(new LeftOut(c, reason, false)));
        return List.copyOf(pair.subList(0, count));
    }
}
