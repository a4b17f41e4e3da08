package io.railmap.matrix.check;

import io.railmap.matrix.model.Names;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.rail.JacclRules;
import io.railmap.matrix.rail.RailAligner;
import io.railmap.matrix.topology.Cable;
import io.railmap.matrix.topology.Topology;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Validates a jaccl devices matrix {@code cells[i][j][k]} (ranks × ranks × wires, as read by
 * {@link io.railmap.matrix.codec.DevicesCodec}) against a topology.
 *
 * <p>Always errors, whatever the mode: {@code not-square} (then nothing else is checked),
 * {@code diagonal-not-empty}, {@code empty-name}, {@code unknown-device}, {@code unpaired-wire},
 * {@code not-a-cable}, {@code mismatched-rail}, {@code link-down}. Mode findings: mesh
 * ({@code missing-link}, {@code mesh-too-large}, {@code extra-wires-unused}) and ring
 * ({@code ring-not-a-cycle}, {@code unequal-ring-wires}, {@code too-many-wires}), graded by
 * {@link Mode}.
 *
 * <p>A name in a cell matches a port of the rank's node by netdev or by RDMA device (port 1 first
 * when a device has several ports).
 */
public final class Checker {
    private final Topology topology;
    private final List<String> ranks;
    private final List<List<List<String>>> cells;
    private final List<Finding> findings = new ArrayList<>();
    private final Map<String, Map<String, Port>> names = new HashMap<>();

    private Checker(Topology topology, List<String> ranks, List<List<List<String>>> cells) {
        this.topology = topology;
        this.ranks = ranks;
        this.cells = cells;
    }

    /**
     * @param topology the cable graph
     * @param ranks    node names in rank order (row i of the file is rank i)
     * @param cells    the devices matrix; rows may be ragged
     * @param mode     which jaccl topology to check as
     * @return the findings, errors first, then by ranks and rail
     * @throws io.railmap.matrix.rail.UnknownNodesException when a rank names a node the topology does not know
     * @throws IllegalArgumentException when {@code ranks} is empty or names a node twice
     */
    public static List<Finding> check(Topology topology, List<String> ranks, List<List<List<String>>> cells, Mode mode) {
        RailAligner.validateRanks(topology, ranks);
        Checker checker = new Checker(topology, ranks, cells);
        if (checker.shape()) {
            checker.names();
            checker.rails();
            checker.modes(mode);
        }
        List<Finding> out = new ArrayList<>(checker.findings);
        out.sort(Comparator.comparing(Finding::severity)
                .thenComparing(f -> f.ranks().isEmpty() ? -1 : f.ranks().get(0))
                .thenComparing(f -> f.ranks().size() < 2 ? -1 : f.ranks().get(1))
                .thenComparing(f -> f.rail().orElse(-1)));
        return out;
    }

    private String rank(int i) {
        return "rank " + i + " (" + ranks.get(i) + ")";
    }

    private void add(Code code, Severity severity, List<Integer> on, Integer rail, String message) {
        findings.add(finding(code, severity, on, rail, message));
    }

    /** @return true when the matrix is N×N for the N ranks */
    private boolean shape() {
        int n = ranks.size();
        if (cells.size() != n) {
            add(Code.NOT_SQUARE, Severity.ERROR, List.of(), null, "the file has " + cells.size() + " rows but "
                    + n + " ranks were given (" + String.join(", ", ranks) + "); it needs one row per rank");
            return false;
        }
        boolean square = true;
        for (int i = 0; i < n; i++) {
            if (cells.get(i).size() != n) {
                add(Code.NOT_SQUARE, Severity.ERROR, List.of(i), null, "row " + i + " (" + ranks.get(i) + ") has "
                        + cells.get(i).size() + " cells but there are " + n + " ranks; each row needs one cell per rank");
                square = false;
            }
        }
        return square;
    }

    private void names() {
        int n = ranks.size();
        for (int i = 0; i < n; i++) {
            if (!cells.get(i).get(i).isEmpty()) {
                add(Code.DIAGONAL_NOT_EMPTY, Severity.ERROR, List.of(i), null, "devices[" + i + "][" + i + "] of "
                        + rank(i) + " names " + Names.escape(String.join(", ", cells.get(i).get(i))) + "; a rank has no link to itself: write null");
            }
            for (int j = 0; j < n; j++) {
                List<String> cell = cells.get(i).get(j);
                for (int k = 0; k < cell.size(); k++) {
                    if (i != j && cell.get(k).isEmpty()) {
                        add(Code.EMPTY_NAME, Severity.ERROR, List.of(i, j), k, "devices[" + i + "][" + j + "][" + k
                                + "] is \"\", which jaccl takes as a device with an empty name; write null for no link");
                    }
                }
            }
        }
    }

    private void rails() {
        int n = ranks.size();
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                List<String> mine = cells.get(i).get(j);
                List<String> theirs = cells.get(j).get(i);
                for (int k = 0; k < Math.max(mine.size(), theirs.size()); k++) {
                    Optional<Port> p = k < mine.size() ? resolve(i, j, k) : Optional.empty();
                    Optional<Port> q = k < theirs.size() ? resolve(j, i, k) : Optional.empty();
                    if (k >= mine.size() || k >= theirs.size()) {
                        int longer = k < mine.size() ? i : j;
                        int shorter = longer == i ? j : i;
                        add(Code.UNPAIRED_WIRE, Severity.ERROR, List.of(i, j), k, rank(longer) + " has wire " + k
                                + " towards " + rank(shorter) + " (" + Names.escape(cells.get(longer).get(shorter).get(k)) + ") but "
                                + rank(shorter) + " has only " + cells.get(shorter).get(longer).size()
                                + " wires back: both cells of a pair need the same wires, end for end");
                    } else if (p.isPresent() && q.isPresent()) {
                        pair(i, j, k, p.get(), q.get());
                    }
                }
            }
        }
    }

    /** Finds the port a cell names; reports unknown names (empty names are reported elsewhere). */
    private Optional<Port> resolve(int i, int j, int k) {
        String name = cells.get(i).get(j).get(k);
        if (name.isEmpty()) {
            return Optional.empty();
        }
        String node = ranks.get(i);
        Optional<Port> port = Optional.ofNullable(names.computeIfAbsent(node, this::nameIndex).get(name));
        if (port.isEmpty()) {
            List<String> known = topology.ports(node).stream().map(Port::deviceName).toList();
            add(Code.UNKNOWN_DEVICE, Severity.ERROR, List.of(i, j), k, "devices[" + i + "][" + j + "][" + k + "] names \""
                    + Names.escape(name) + "\", which is no RDMA device or netdev of " + node + " (it has "
                    + (known.isEmpty() ? "no ports" : String.join(", ", known)) + ")");
        }
        return port;
    }

    /** Names a node's ports answer to: netdevs first, then RDMA devices (port 1 before higher ports). */
    private Map<String, Port> nameIndex(String node) {
        Map<String, Port> index = new HashMap<>();
        topology.ports(node).stream().sorted(Comparator.comparing(Port::rdmaPort))
                .forEach(p -> p.rdma().ifPresent(r -> index.putIfAbsent(r, p)));
        topology.ports(node).forEach(p -> index.put(p.netdev(), p));
        return index;
    }

    private void pair(int i, int j, int k, Port p, Port q) {
        Optional<Cable> cableP = topology.cableAt(p.ref());
        Optional<Cable> cableQ = topology.cableAt(q.ref());
        String where = "rail " + k + " between " + rank(i) + " and " + rank(j);
        if (cableP.isPresent() && cableP.get().farEnd(p.ref()).equals(q.ref())) {
            for (Port end : List.of(p, q)) {
                if (!end.active()) {
                    add(Code.LINK_DOWN, Severity.ERROR, List.of(i, j), k, where + " is cable " + cableP.get()
                            + ", but " + end.ref() + " is " + end.state().wireName() + ": connections over it will fail");
                }
            }
            return;
        }
        boolean pToJ = cableP.map(c -> c.farEnd(p.ref()).node().equals(ranks.get(j))).orElse(false);
        boolean qToI = cableQ.map(c -> c.farEnd(q.ref()).node().equals(ranks.get(i))).orElse(false);
        if (pToJ && qToI) {
            add(Code.MISMATCHED_RAIL, Severity.ERROR, List.of(i, j), k, where + " names " + p.ref() + " and " + q.ref()
                    + ", ends of two different cables (" + cableP.get() + " and " + cableQ.get() + "): jaccl would connect "
                    + "queue pairs across two cables and large transfers would hang; rail " + k + " must name both ends "
                    + "of one cable (railmap matrix writes such a file)");
        } else {
            Port stray = pToJ ? q : p;
            String other = pToJ ? ranks.get(i) : ranks.get(j);
            Optional<Cable> strayCable = topology.cableAt(stray.ref());
            add(Code.NOT_A_CABLE, Severity.ERROR, List.of(i, j), k, where + " names " + p.ref() + " and " + q.ref()
                    + ", which no cable joins: " + stray.ref() + (strayCable.isPresent()
                    ? " is cabled to " + strayCable.get().farEnd(stray.ref()) + ", not to " + other
                    : " has no confirmed cable at all"));
        }
    }

    private void modes(Mode mode) {
        List<Finding> mesh = meshFindings();
        List<Finding> ring = ringFindings();
        boolean meshValid = mesh.stream().noneMatch(Finding::isError);
        boolean ringValid = ring.stream().noneMatch(Finding::isError);
        switch (mode) {
            case MESH -> findings.addAll(mesh);
            case RING -> findings.addAll(ring);
            case AUTO -> {
                if (!meshValid && !ringValid) {
                    findings.addAll(mesh.stream().map(f -> f.prefixed("as a mesh: ")).toList());
                    findings.addAll(ring.stream().map(f -> f.prefixed("as a ring: ")).toList());
                } else if (meshValid) {
                    findings.addAll(mesh.stream().map(f -> f.code() == Code.EXTRA_WIRES_UNUSED && ringValid
                            ? f.withSeverity(Severity.INFO) : f).toList());
                    findings.addAll(ring.stream().map(f -> f.withSeverity(Severity.INFO).prefixed("not usable as a ring: ")).toList());
                } else {
                    findings.addAll(ring);
                    findings.addAll(mesh.stream().filter(f -> f.code() != Code.EXTRA_WIRES_UNUSED)
                            .map(f -> f.withSeverity(Severity.INFO).prefixed("not usable as a mesh (jaccl uses the ring): ")).toList());
                }
            }
        }
    }

    private List<Finding> meshFindings() {
        int n = ranks.size();
        List<Finding> out = new ArrayList<>();
        if (n > JacclRules.MESH_MAX_RANKS) {
            out.add(finding(Code.MESH_TOO_LARGE, Severity.ERROR, List.of(), null, n + " ranks are more than jaccl's mesh takes ("
                    + JacclRules.MESH_MAX_RANKS + "); use a ring (railmap matrix --order ring)"));
        }
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                int mine = cells.get(i).get(j).size();
                int theirs = cells.get(j).get(i).size();
                if (mine == 0 || theirs == 0) {
                    out.add(finding(Code.MISSING_LINK, Severity.ERROR, List.of(i, j), null, rank(i) + " and " + rank(j)
                            + " share no wire, but a mesh needs a link between every pair"
                            + (topology.cablesBetween(ranks.get(i), ranks.get(j)).isEmpty() ? " (no cable joins them)" : "")));
                } else if (mine > 1 || theirs > 1) {
                    out.add(finding(Code.EXTRA_WIRES_UNUSED, Severity.WARNING, List.of(i, j), null, rank(i) + " and " + rank(j)
                            + " list " + Math.max(mine, theirs) + " wires, but a mesh uses only wire 0; "
                            + "set MLX_JACCL_RING to run a ring that uses them all"));
                }
            }
        }
        return out;
    }

    private List<Finding> ringFindings() {
        int n = ranks.size();
        List<Finding> out = new ArrayList<>();
        if (n < 2) {
            return out;
        }
        int expected = cells.get(0).get(1).size();
        for (int r = 0; r < n; r++) {
            int s = JacclRules.right(r, n);
            if (n == 2 && r == 1) {
                break;
            }
            int forward = cells.get(r).get(s).size();
            int backward = cells.get(s).get(r).size();
            if (forward == 0 || backward == 0) {
                boolean cabled = !topology.cablesBetween(ranks.get(r), ranks.get(s)).isEmpty();
                out.add(finding(Code.RING_NOT_A_CYCLE, Severity.ERROR, List.of(r, s), null, rank(r) + " and " + rank(s)
                        + " are neighbours in the ring but share no wire" + (cabled ? "" : " and no cable")
                        + "; the rank order must follow a cycle of cables (railmap matrix --order ring finds one)"));
                continue;
            }
            for (int[] cell : new int[][] {{r, s, forward}, {s, r, backward}}) {
                if (cell[2] != expected && expected > 0) {
                    out.add(finding(Code.UNEQUAL_RING_WIRES, Severity.ERROR, List.of(r, s), null, rank(cell[0]) + " has "
                            + cell[2] + " wires towards " + rank(cell[1]) + " but devices[0][1] has " + expected
                            + "; every ring edge needs the same count"));
                }
                if (cell[2] > JacclRules.RING_MAX_WIRES) {
                    out.add(finding(Code.TOO_MANY_WIRES, Severity.ERROR, List.of(r, s), null, rank(cell[0]) + " has "
                            + cell[2] + " wires towards " + rank(cell[1]) + "; jaccl's ring takes at most "
                            + JacclRules.RING_MAX_WIRES + " (railmap matrix --max-wires 4)"));
                }
            }
        }
        return out;
    }

    private static Finding finding(Code code, Severity severity, List<Integer> on, Integer rail, String message) {
        return new Finding(code, severity, on, Optional.ofNullable(rail), message);
    }
}
