package io.railmap.matrix.check;

import io.railmap.matrix.address.CableRoutes;
import io.railmap.matrix.address.Ipv4Subnet;
import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.finding.Severity;
import io.railmap.matrix.model.Names;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.topology.Cable;
import io.railmap.matrix.topology.Topology;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * Checks the addresses of a ring for MLX's TCP {@code ring} backend against the cables, as the backend
 * uses them (ml-explore/mlx {@code mlx/distributed/ring/ring.cpp}, {@code RingGroup::RingGroup} and
 * {@code accept_connections}/{@code make_connections}; {@code python/mlx/_distributed_utils/launch.py},
 * {@code launch_ring}, which turns a hostfile's {@code ips} into those addresses): rank r listens on each
 * of its addresses and rank r-1 connects to each, without binding a source, so address k of rank r must
 * be rank r's end of a cable to rank r-1, and the connection must travel that cable
 * ({@link CableRoutes}). The one check of ring addresses: of a file ({@link FileCheck}) and of a running job's
 * ranks' hostfile entries ({@code JobCheck}).
 *
 * <p>Findings, each naming the rank pair and wire k:
 * <ul>
 * <li>{@code one-rank} (error): fewer than two ranks ({@code launch_ring} hands a single rank no hostfile).</li>
 * <li>{@code unequal-ring-wires} (error): ranks list different numbers of addresses ({@code RingGroup}
 *     throws: as many connections to the left as to the right).</li>
 * <li>{@code unknown-address} (error): an address that is no IPv4 address of the rank's node's ports
 *     (the rank cannot bind it: {@code TCPSocket::listen} fails), or no IPv4 literal at all.</li>
 * <li>{@code not-a-cable} (error): the address's port is not cabled to rank r-1's node: the connection
 *     has no cable of its own (it fails after MLX's five attempts, about 31 s, or travels a route railmap
 *     cannot see).</li>
 * <li>{@code link-down} (error): the cable's port is not active.</li>
 * <li>{@code same-cable-twice} (warning): a rank lists two addresses on one cable: two wires travel it.</li>
 * <li>{@code shared-subnet} / {@code subnet-mismatch} (error): the connection may travel another cable,
 *     or reaches no subnet of the cable's far end ({@link CableRoutes.Strays}); one {@code shared-subnet}
 *     info when the records do not say the prefix lengths needed to tell.</li>
 * <li>{@code cable-left-out} (info): a cable between ring neighbours that no address uses.</li>
 * </ul>
 */
public final class MlxRingCheck {
    private MlxRingCheck() {
    }

    /**
     * @param topology every record and cable
     * @param ranks    the node of each rank, in rank order, distinct
     * @param ips      per rank, its addresses in order (a hostfile host's {@code ips})
     * @param where    the JSON path of address k of rank r, for messages ({@code hosts[1].ips[0]})
     * @return the findings, in rank and wire order
     */
    public static List<Finding> check(Topology topology, List<String> ranks, List<List<String>> ips, BiFunction<Integer, Integer, String> where) {
        int n = ranks.size();
        List<Finding> findings = new ArrayList<>();
        if (n < 2) {
            findings.add(new Finding(Code.ONE_RANK, Severity.ERROR, List.of(), Optional.empty(),
                    "the ring backend needs at least two ranks, and the file has " + n + " (mlx.launch hands a single rank no hostfile)"));
            return findings;
        }
        long counts = ips.stream().mapToInt(List::size).distinct().count();
        if (counts > 1) {
            List<String> each = new ArrayList<>();
            for (int r = 0; r < n; r++) {
                each.add(ranks.get(r) + " " + ips.get(r).size());
            }
            findings.add(new Finding(Code.UNEQUAL_RING_WIRES, Severity.ERROR, List.of(), Optional.empty(), "the ranks list different"
                    + " numbers of addresses (" + String.join(", ", each) + "): each rank accepts one connection per address of its own and"
                    + " makes one per address of the next, and the ring backend refuses a rank with unequal counts to its two sides"));
        }
        List<String> unknown = new ArrayList<>();
        Map<Set<String>, Set<Cable>> usedByEdge = new HashMap<>();
        for (int r = 0; r < n; r++) {
            String node = ranks.get(r);
            int l = (r + n - 1) % n;
            String left = ranks.get(l);
            List<Integer> on = List.of(Math.min(r, l), Math.max(r, l));
            Set<Cable> used = usedByEdge.computeIfAbsent(Set.of(node, left), x -> new HashSet<>());
            Set<Cable> mine = new HashSet<>();
            for (int k = 0; k < ips.get(r).size(); k++) {
                String ip = ips.get(r).get(k);
                String at = where.apply(r, k) + " \"" + Names.escape(ip) + "\"";
                if (!Ipv4Subnet.isIpv4(ip)) {
                    findings.add(new Finding(Code.UNKNOWN_ADDRESS, Severity.ERROR, on, Optional.of(k), at + " is not an IPv4 address: the"
                            + " ring backend's sockets are IPv4, and railmap can tell the cable of an address only; write "
                            + node + "'s address on its cable to " + left + " (railmap matrix --format ring-launch writes the file)"));
                    continue;
                }
                Optional<Port> port = topology.ports(node).stream().filter(p -> p.ipv4().contains(ip)).findFirst();
                if (port.isEmpty()) {
                    findings.add(new Finding(Code.UNKNOWN_ADDRESS, Severity.ERROR, on, Optional.of(k), at + " is no address of " + node
                            + "'s ports: rank " + r + " cannot listen on it, and rank " + l + " (" + left + ") connects to it in vain;"
                            + " write " + node + "'s address on its cable to " + left));
                    continue;
                }
                PortRef end = port.get().ref();
                Optional<Cable> cable = topology.cableAt(end);
                if (cable.isEmpty() || !cable.get().farEnd(end).node().equals(left)) {
                    List<PortRef> named = new ArrayList<>(List.of(end));
                    cable.ifPresent(c -> named.add(c.farEnd(end)));
                    findings.add(new Finding(Code.NOT_A_CABLE, Severity.ERROR, on, Optional.of(k), named, at + " is " + end + "'s, which "
                            + cable.map(c -> "is cabled to " + c.farEnd(end) + ", not to " + left).orElse("has no confirmed cable")
                            + ": rank " + l + " (" + left + ") connects to it over no cable of its own, so the connection fails (after the"
                            + " ring backend's five attempts, about 31 s) or travels another route; list " + node + "'s addresses on its"
                            + " cables to " + left));
                    continue;
                }
                Cable c = cable.get();
                used.add(c);
                if (!mine.add(c)) {
                    findings.add(new Finding(Code.SAME_CABLE_TWICE, Severity.WARNING, on, Optional.of(k), List.of(c.a(), c.b()), at
                            + " is on cable " + c + ", as an earlier address of rank " + r + " is: two wires travel one cable; list one"
                            + " address per cable"));
                }
                for (PortRef e : List.of(c.a(), c.b())) {
                    Port p = topology.port(e).orElseThrow();
                    if (!p.active()) {
                        findings.add(new Finding(Code.LINK_DOWN, Severity.ERROR, on, Optional.of(k), List.of(c.a(), c.b(), e), at
                                + " is on cable " + c + ", but " + e + " is " + p.state().externalName() + ": the connection over it fails"));
                    }
                }
                CableRoutes.Verdict verdict = CableRoutes.connection(topology, c, end, ip);
                if (verdict instanceof CableRoutes.Strays strays) {
                    findings.add(new Finding(strays.mismatch() ? Code.SUBNET_MISMATCH : Code.SHARED_SUBNET, Severity.ERROR, on, Optional.of(k),
                            strays.ports(), at + ": " + strays.reason()));
                } else if (verdict instanceof CableRoutes.Unknown u) {
                    unknown.add(u.reason());
                }
            }
        }
        for (int r = 0; r < (n == 2 ? 1 : n); r++) {  // two ranks share one edge
            int l = (r + n - 1) % n;
            for (Cable c : topology.cablesBetween(ranks.get(r), ranks.get(l))) {
                if (!usedByEdge.get(Set.of(ranks.get(r), ranks.get(l))).contains(c)) {
                    findings.add(new Finding(Code.CABLE_LEFT_OUT, Severity.INFO, List.of(Math.min(r, l), Math.max(r, l)), Optional.empty(),
                            List.of(c.a(), c.b()), "cable " + c + " joins ring neighbours " + ranks.get(l) + " and " + ranks.get(r)
                            + ", but no address on it is listed: it carries no ring connection"));
                }
            }
        }
        unchecked(unknown).ifPresent(findings::add);
        return findings;
    }

    /**
     * @param reasons why connections could not be judged ({@link CableRoutes.Unknown#reason()}), in order
     * @return one {@code shared-subnet} info naming the first and counting the others; empty when there are none
     */
    public static Optional<Finding> unchecked(List<String> reasons) {
        return reasons.stream().findFirst().map(why -> new Finding(Code.SHARED_SUBNET, Severity.INFO, List.of(), Optional.empty(),
                "whether every ring connection travels its own cable is not checked: " + why
                        + (reasons.size() > 1 ? " (and " + (reasons.size() - 1) + " more connections)" : "")));
    }
}
