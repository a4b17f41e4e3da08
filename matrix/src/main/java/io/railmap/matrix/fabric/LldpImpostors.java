package io.railmap.matrix.fabric;

import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.finding.Severity;
import io.railmap.matrix.model.FarEndSource;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.model.SwitchPort;
import io.railmap.matrix.topology.SharedSegment;
import io.railmap.matrix.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * {@code lldp-impostor} (warning): a port's LLDP neighbour announces the name of a node of the records
 * as its system name, so the rail table takes it for that node at the far end of a direct cable
 * ({@link RailTable#switchReached}), but the link probe says the port is not cabled to that node:
 * <ul>
 *   <li>the port is on a shared segment (it hears several far ends, or is heard by a port that does:
 *       {@link Topology#sharedSegments()}), which no direct cable is; or</li>
 *   <li>the probe confirms a cable from the port to a port of another node than the one claimed
 *       ({@link Topology#cableAt}).</li>
 * </ul>
 * LLDP is unauthenticated: any switch (or host) can send any system name, for instance a leaf whose
 * {@code lldpcli configure system hostname} was set to a node's name. The claim is not believed, so the
 * port keeps what the probe sees (its segment, or its cable); the finding names the port, the claimed
 * name with the neighbour's chassis and port, and what the probe heard, so the missing switch identity
 * has a reason. A port the probe heard nothing on (or confirms cabled to the claimed node) gives none:
 * there is nothing to contradict the claim.
 *
 * <p>Cost: O(ports + the shared segments' far ends).
 */
final class LldpImpostors {
    private LldpImpostors() {
    }

    /**
     * @param topology the records and what the probe heard
     * @return one warning per port whose LLDP neighbour claims a node's name against the probe, in port order
     */
    static List<Finding> of(Topology topology) {
        Map<PortRef, Set<PortRef>> segmentHeard = new TreeMap<>();
        for (SharedSegment s : topology.sharedSegments()) {
            segmentHeard.computeIfAbsent(s.port(), p -> new TreeSet<>()).addAll(s.farEnds());
            for (PortRef far : s.farEnds()) {
                segmentHeard.computeIfAbsent(far, p -> new TreeSet<>()).add(s.port());
            }
        }
        List<Finding> out = new ArrayList<>();
        for (Port port : topology.ports()) {
            Optional<SwitchPort> lldp = port.switchPort().filter(sw -> sw.source() == FarEndSource.LLDP);
            Optional<String> claimed = lldp.flatMap(SwitchPort::name).flatMap(name -> RailTable.nodeNamed(topology, name));
            if (claimed.isEmpty()) {
                continue;
            }
            String claim = port.ref() + "'s LLDP neighbour (chassis " + lldp.get().chassis() + ", port " + lldp.get().port()
                    + ") calls itself " + lldp.get().name().orElseThrow() + ", the name of node " + claimed.get();
            String notBelieved = ": LLDP is unauthenticated, so the name is not believed and the port stays as the probe sees it;"
                    + " give the switch its own system name (lldpcli configure system hostname on it)";
            Set<PortRef> heard = segmentHeard.get(port.ref());
            Optional<PortRef> cabled = topology.cableAt(port.ref()).map(c -> c.farEnd(port.ref()));
            if (heard != null) {
                List<PortRef> named = new ArrayList<>(List.of(port.ref()));
                named.addAll(heard);
                out.add(new Finding(Code.LLDP_IMPOSTOR, Severity.WARNING, List.of(), Optional.empty(), named, claim
                        + ", but the probe hears a shared segment there (" + heard.stream().map(PortRef::toString)
                        .collect(Collectors.joining(", ")) + "), not a cable to " + claimed.get() + notBelieved));
            } else if (cabled.isPresent() && !cabled.get().node().equals(claimed.get())) {
                out.add(new Finding(Code.LLDP_IMPOSTOR, Severity.WARNING, List.of(), Optional.empty(), List.of(port.ref(), cabled.get()),
                        claim + ", but the probe hears " + cabled.get() + " at the cable's far end" + notBelieved));
            }
        }
        return out;
    }
}
