package io.railmap.matrix.check;

import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.finding.Severity;
import io.railmap.matrix.jaccl.JacclMode;
import io.railmap.matrix.jaccl.JacclRules;
import io.railmap.matrix.jaccl.MlxVersion;
import io.railmap.matrix.model.Names;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.rail.RailAligner;
import io.railmap.matrix.topology.Cable;
import io.railmap.matrix.topology.Topology;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Validates a jaccl devices matrix {@code cells[i][j][k]} (ranks × ranks × wires, as read by
 * {@link io.railmap.matrix.codec.DevicesCodec}) against a topology, by the rules of one MLX release
 * ({@link JacclRules}).
 *
 * <p>Findings:
 * <ul>
 * <li>Errors whatever the mode: {@code not-square} (then nothing else is checked), {@code one-rank},
 *     {@code empty-name}, {@code unknown-device}, {@code netdev-name},
 *     {@code unpaired-wire}, {@code not-a-cable}, {@code mismatched-rail}, {@code link-down},
 *     {@code too-many-queue-pairs}, {@code too-many-memory-regions} ({@link DeviceBudget}); {@code diagonal-not-empty}, a warning where jaccl runs the ring,
 *     which never reads the diagonal.</li>
 * <li>A warning, {@code sources-disagree}, for a named port whose cable sources disagree (the same
 *     finding as the plan's, {@link SourcesDisagree}).</li>
 * <li>The mesh's ({@code missing-link}, {@code mesh-too-large}, {@code extra-wires-unused},
 *     {@code needs-newer-mlx}) and the ring's ({@code ring-not-a-cycle}, {@code unequal-ring-wires},
 *     {@code too-many-wires}, {@code non-neighbour-wires}, {@code needs-newer-mlx}), from
 *     {@code ModeFindings}, graded by {@link Mode}.</li>
 * </ul>
 * With {@link Mode#AUTO} the mode is the one jaccl's {@code init} chooses without
 * {@code MLX_JACCL_RING}: the mesh when {@link JacclRules#isValidMesh} holds, even when that mesh then
 * throws, else the ring. In {@link Mode#MESH} the errors of the names and rails on wire k ≥ 1 are
 * warnings: the mesh opens only wire 0. In {@link Mode#AUTO}, when jaccl chooses the mesh, they and
 * the ring's findings follow one rule for a ring forced from outside the file ({@code forcedRing}):
 * warnings when the file is also a valid ring (an {@code MLX_JACCL_RING} set in railmap's env or by
 * {@code mlx.launch --env} makes jaccl run it), infos when it is not.
 *
 * <p>A name in a cell must be an RDMA device of the rank's node (port 1 first when a device has
 * several ports): jaccl looks devices up by {@code ibv_get_device_name} only
 * ({@code lib/jaccl/rdma.cpp}, {@code create_connections}). A netdev name is an error that names the
 * RDMA device to write instead, and is still paired against the cables so a crossed rail is found too.
 *
 * <p>Findings grow linearly with the ranks and the names in the file: the one family that would grow
 * with the square of the ranks, {@code missing-link}, is one finding per pair only up to
 * {@value #PAIR_FINDINGS_MAX_RANKS} ranks (at most 120 pairs; jaccl's mesh takes at most 8 ranks
 * anyway), and above that one finding per rank that misses a peer, naming how many it misses and the
 * first {@value #PEERS_NAMED} by rank. Cost: O(ranks² + names) time, for the cells alone, and
 * O(ranks + names + findings) memory besides the cells.
 */
public final class Checker {
    /**
     * Up to this many ranks {@code missing-link} is reported per pair of ranks; above it, per rank with a
     * count (the pairs grow with the square of the ranks: 1,999,000 for 2,000 ranks).
     */
    public static final int PAIR_FINDINGS_MAX_RANKS = 16;
    /** How many missing peers a per-rank {@code missing-link} finding names, the lowest ranks first. */
    public static final int PEERS_NAMED = 4;

    private final Topology topology;
    private final List<String> ranks;
    private final List<List<List<String>>> cells;
    private final MlxVersion version;
    private final int pairFindingsMaxRanks;
    private final List<Finding> findings = new ArrayList<>();
    private final Map<String, Map<String, Port>> names = new HashMap<>();
    private final Set<PortRef> namedPorts = new HashSet<>();

    private Checker(Topology topology, List<String> ranks, List<List<List<String>>> cells, MlxVersion version,
                    int pairFindingsMaxRanks) {
        this.topology = topology;
        this.ranks = ranks;
        this.cells = cells;
        this.version = version;
        this.pairFindingsMaxRanks = pairFindingsMaxRanks;
    }

    /**
     * @param topology the cable graph
     * @param ranks    node names in rank order (row i of the file is rank i)
     * @param cells    the devices matrix; rows may be ragged
     * @param mode     which jaccl topology to check as
     * @param version  the MLX release whose jaccl will read the file
     * @return the findings, errors first, then by ranks and rail
     * @throws io.railmap.matrix.rail.UnknownNodesException when a rank names a node the topology does not know
     * @throws IllegalArgumentException when {@code ranks} is empty or names a node twice, or the mode is {@link Mode#MLX_RING}
     */
    public static List<Finding> check(Topology topology, List<String> ranks, List<List<List<String>>> cells, Mode mode,
                                      MlxVersion version) {
        return check(topology, ranks, cells, mode, version, PAIR_FINDINGS_MAX_RANKS);
    }

    /** {@link #check}, with per-pair {@code missing-link} findings up to {@code pairFindingsMaxRanks} ranks. */
    static List<Finding> check(Topology topology, List<String> ranks, List<List<List<String>>> cells, Mode mode,
                               MlxVersion version, int pairFindingsMaxRanks) {
        if (mode == Mode.MLX_RING) {
            throw new IllegalArgumentException("a jaccl devices matrix is checked as auto, mesh or ring, not as " + mode.externalName());
        }
        RailAligner.validateRanks(topology, ranks);
        Checker checker = new Checker(topology, ranks, cells, version, pairFindingsMaxRanks);
        if (checker.shape()) {
            checker.names();
            checker.rails();
            checker.sourcesDisagree();
            int wireFindings = checker.findings.size();
            Optional<JacclMode> group = checker.modes(mode, wireFindings);
            if (mode == Mode.MESH) {
                checker.unusedByTheMesh(wireFindings);
            }
            checker.diagonalUnreadByTheRing(group);
            checker.queuePairs(group);
        }
        List<Finding> out = new ArrayList<>(checker.findings);
        out.sort(ORDER);
        return out;
    }

    /** Errors first, then by ranks and rail: the order of every check's findings. */
    static final Comparator<Finding> ORDER = Comparator.comparing(Finding::severity)
            .thenComparing(f -> f.ranks().isEmpty() ? -1 : f.ranks().get(0))
            .thenComparing(f -> f.ranks().size() < 2 ? -1 : f.ranks().get(1))
            .thenComparing(f -> f.rail().orElse(-1));

    private String rank(int i) {
        return ModeFindings.rank(ranks, i);
    }

    /**
     * Device names as every finding of a devices file writes them: each in double quotes, escaped
     * ({@link Names#escape}), joined by {@code ", "}, so that an empty name shows as {@code ""}.
     *
     * @param names the names of one cell, or one name
     * @return the names for a message
     */
    static String quoted(List<String> names) {
        return String.join(", ", names.stream().map(name -> "\"" + Names.escape(name) + "\"").toList());
    }

    private void add(Code code, Severity severity, List<Integer> on, Integer rail, String message) {
        add(code, severity, on, rail, List.of(), message);
    }

    private void add(Code code, Severity severity, List<Integer> on, Integer rail, List<PortRef> ports, String message) {
        findings.add(new Finding(code, severity, on, Optional.ofNullable(rail), ports, message));
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
        if (square && n == 1) {
            add(Code.ONE_RANK, Severity.ERROR, List.of(0), null, "one rank (" + ranks.get(0) + ") is no jaccl group: "
                    + (version.atLeast(MlxVersion.MULTI_NAME)
                    ? "jaccl needs at least 2 ranks, and mx.distributed.init() quietly returns a group of one"
                    : "MLX " + version + "'s jaccl builds a mesh of that rank alone, a group of one") + "; name every host");
        }
        return square;
    }

    private void names() {
        int n = ranks.size();
        for (int i = 0; i < n; i++) {
            if (!cells.get(i).get(i).isEmpty()) {
                add(Code.DIAGONAL_NOT_EMPTY, Severity.ERROR, List.of(i), null, "devices[" + i + "][" + i + "] of "
                        + rank(i) + " names " + quoted(cells.get(i).get(i)) + "; a rank has no link to itself: write null");
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
                                + " towards " + rank(shorter) + " (" + quoted(List.of(cells.get(longer).get(shorter).get(k))) + ") but "
                                + rank(shorter) + " has only " + cells.get(shorter).get(longer).size()
                                + " wires back: both cells of a pair need the same wires, end for end");
                    } else if (p.isPresent() && q.isPresent()) {
                        pair(i, j, k, p.get(), q.get());
                    }
                }
            }
        }
    }

    /**
     * Finds the port a cell names: by RDMA device, or else by netdev (reported as {@code netdev-name},
     * since jaccl cannot open it, but still paired so crossed rails show too). Reports unknown names;
     * empty names are reported elsewhere.
     */
    private Optional<Port> resolve(int i, int j, int k) {
        String name = cells.get(i).get(j).get(k);
        if (name.isEmpty()) {
            return Optional.empty();
        }
        String node = ranks.get(i);
        Optional<Port> port = Optional.ofNullable(names.computeIfAbsent(node, this::nameIndex).get(name));
        port.ifPresent(p -> namedPorts.add(p.ref()));
        String at = "devices[" + i + "][" + j + "][" + k + "] names " + quoted(List.of(name));
        if (port.isEmpty()) {
            List<String> known = topology.ports(node).stream().flatMap(p -> p.rdma().stream()).distinct().toList();
            add(Code.UNKNOWN_DEVICE, Severity.ERROR, List.of(i, j), k, at + ", which is no RDMA device of " + node
                    + " (it has " + (known.isEmpty() ? "none" : String.join(", ", known)) + ")");
        } else if (port.get().rdma().map(r -> !r.equals(name)).orElse(true)) {
            add(Code.NETDEV_NAME, Severity.ERROR, List.of(i, j), k, List.of(port.get().ref()), at + ", the netdev " + port.get().ref()
                    + (port.get().rdma().isPresent()
                    ? "; jaccl opens RDMA devices by name only: write \"" + port.get().rdma().get() + "\""
                    : ", which has no RDMA device; jaccl opens RDMA devices only, so this port cannot carry a jaccl rail"));
        }
        return port;
    }

    /**
     * A named port whose cable sources disagree ({@link Topology#sourceConflicts()}), or the far end its
     * pairing names, has no confirmed cable, so its rail is
     * {@code not-a-cable}: {@code sources-disagree}, as {@code railmap matrix} reports it, says why.
     */
    private void sourcesDisagree() {
        findings.addAll(SourcesDisagree.of(topology, RankScope.of(ranks), SourcesDisagree.concerningAnyOf(namedPorts)));
    }

    /** Names a node's ports answer to: RDMA devices (port 1 before higher ports), then netdevs not taken. */
    private Map<String, Port> nameIndex(String node) {
        Map<String, Port> index = new HashMap<>();
        topology.ports(node).stream().sorted(Comparator.comparing(Port::rdmaPort))
                .forEach(p -> p.rdma().ifPresent(r -> index.putIfAbsent(r, p)));
        topology.ports(node).forEach(p -> index.putIfAbsent(p.netdev(), p));
        return index;
    }

    private void pair(int i, int j, int k, Port p, Port q) {
        Optional<Cable> cableP = topology.cableAt(p.ref());
        Optional<Cable> cableQ = topology.cableAt(q.ref());
        String where = "rail " + k + " between " + rank(i) + " and " + rank(j);
        if (cableP.isPresent() && cableP.get().farEnd(p.ref()).equals(q.ref())) {
            for (Port end : List.of(p, q)) {
                if (!end.active()) {
                    add(Code.LINK_DOWN, Severity.ERROR, List.of(i, j), k, List.of(cableP.get().a(), cableP.get().b(), end.ref()), where + " is cable " + cableP.get()
                            + ", but " + end.ref() + " is " + end.state().externalName() + ": connections over it will fail");
                }
            }
            return;
        }
        boolean pToJ = cableP.map(c -> c.farEnd(p.ref()).node().equals(ranks.get(j))).orElse(false);
        boolean qToI = cableQ.map(c -> c.farEnd(q.ref()).node().equals(ranks.get(i))).orElse(false);
        if (pToJ && qToI) {
            add(Code.MISMATCHED_RAIL, Severity.ERROR, List.of(i, j), k,
                    List.of(p.ref(), q.ref(), cableP.get().a(), cableP.get().b(), cableQ.get().a(), cableQ.get().b()), where + " names " + p.ref() + " and " + q.ref()
                    + ", ends of two different cables (" + cableP.get() + " and " + cableQ.get() + "): jaccl would connect "
                    + "queue pairs across two cables and large transfers would hang; rail " + k + " must name both ends "
                    + "of one cable (railmap matrix writes such a file)");
        } else {
            Port stray = pToJ ? q : p;
            String other = pToJ ? ranks.get(i) : ranks.get(j);
            Optional<Cable> strayCable = topology.cableAt(stray.ref());
            List<PortRef> named = new ArrayList<>(List.of(p.ref(), q.ref()));
            strayCable.ifPresent(c -> named.add(c.farEnd(stray.ref())));
            add(Code.NOT_A_CABLE, Severity.ERROR, List.of(i, j), k, named, where + " names " + p.ref() + " and " + q.ref()
                    + ", which no cable joins: " + stray.ref() + (strayCable.isPresent()
                    ? " is cabled to " + strayCable.get().farEnd(stray.ref()) + ", not to " + other
                    : " has no confirmed cable at all"));
        }
    }

    /**
     * jaccl's mesh opens wire 0 of each cell and nothing else ({@code lib/jaccl/jaccl.cpp},
     * {@code Config::get_mesh_connectivity}: {@code devices_[rank_][dst][0]}, 0.31.2 to 0.32.1; before
     * 0.31.2 a mesh cell holds one name), so an error about a name on wire k ≥ 1 cannot stop it: the
     * first {@code count} findings (those of the names and rails) that are errors on such a wire become
     * warnings that say the mesh does not use the wire.
     */
    private void unusedByTheMesh(int count) {
        for (int i = 0; i < count; i++) {
            Finding f = findings.get(i);
            int k = f.rail().orElse(0);
            if (k >= 1 && f.isError()) {
                findings.set(i, f.withSeverity(Severity.WARNING).prefixed("wire " + k + " is unused by the mesh (jaccl's"
                        + " mesh opens only wire 0 of each cell), but a ring would use it: "));
            }
        }
    }

    /**
     * Grades the mesh and ring findings by the mode, and returns the group jaccl would build (the one
     * whose queue pairs are counted), if any.
     */
    private Optional<JacclMode> modes(Mode mode, int wireFindings) {
        ModeFindings modes = new ModeFindings(topology, ranks, cells, version, pairFindingsMaxRanks);
        List<Finding> ring = modes.ring();
        List<Finding> mesh = modes.mesh(ring, findings);
        boolean validMesh = JacclRules.isValidMesh(cells, version);
        boolean validRing = JacclRules.isValidRing(cells, version);
        switch (mode) {
            case MESH -> {
                findings.addAll(mesh);
                return Optional.of(JacclMode.MESH);
            }
            case RING -> {
                findings.addAll(ring);
                return Optional.of(JacclMode.RING);
            }
            default -> {
                if (validMesh) {
                    findings.addAll(mesh.stream().map(f -> f.code() == Code.MESH_TOO_LARGE && ring.stream().noneMatch(Finding::isError)
                            ? f.prefixed("jaccl chooses the mesh because the file is a valid mesh and MLX_JACCL_RING is not set; ")
                            : f).toList());
                    forcedRing(wireFindings, ring, validRing);
                    return Optional.of(JacclMode.MESH);
                }
                if (validRing) {
                    findings.addAll(ring);
                    findings.addAll(informational(mesh.stream().filter(f -> f.code() != Code.EXTRA_WIRES_UNUSED).toList(),
                            "not usable as a mesh (jaccl uses the ring): "));
                    return Optional.of(JacclMode.RING);
                }
                findings.addAll(mesh.stream().map(f -> f.prefixed("as a mesh: ")).toList());
                findings.addAll(ring.stream().map(f -> f.prefixed("as a ring: ")).toList());
                return Optional.empty();
            }
        }
    }

    /**
     * The one rule for a ring forced from outside the file, in {@link Mode#AUTO} when jaccl runs the
     * file as a mesh: what only a ring would hit (the ring's findings, and the errors of names and rails
     * on wire k &ge; 1, which the mesh never opens) is graded by whether a variable can force that ring.
     * jaccl's {@code init} runs the ring before the mesh when {@code MLX_JACCL_RING} or
     * {@code JACCL_RING} is set and {@code Config::is_valid_ring} holds ({@code lib/jaccl/jaccl.cpp},
     * {@code init(const Config&, bool)} and {@code Config::from_env}, 0.31.2 to 0.32.1), and the variable
     * comes from the environment (railmap's env, {@code mlx.launch --env}), not from the file:
     * <ul>
     * <li>the file is also a valid ring: each is a warning, since setting the variable makes jaccl
     *     run that ring, which fails on it ({@code RingGroup::RingGroup} throws above
     *     {@value JacclRules#RING_MAX_CONNS} wires per direction; {@code create_connections} throws on a
     *     name it cannot open); {@code --mode ring} checks the file as that ring, with errors;</li>
     * <li>the file is no valid ring: each is an info, since no variable makes jaccl run the ring.</li>
     * </ul>
     * Errors stay for what fails without the variable: jaccl's own run of the file decides the exit
     * code of {@code auto}.
     *
     * @param wireFindings how many of the first findings are those of the names and rails
     * @param ring         the ring's findings
     * @param validRing    whether the file is a valid ring ({@link JacclRules#isValidRing})
     */
    private void forcedRing(int wireFindings, List<Finding> ring, boolean validRing) {
        String forced = "jaccl runs the mesh, but with MLX_JACCL_RING set outside the file it runs the ring, which would fail: ";
        String unused = "not used as a ring (jaccl chooses the mesh, and the file is no valid ring, so no variable makes it one): ";
        for (int i = 0; i < wireFindings; i++) {
            Finding f = findings.get(i);
            if (f.rail().orElse(0) >= 1 && f.isError()) {
                findings.set(i, validRing ? f.withSeverity(Severity.WARNING).prefixed(forced)
                        : f.withSeverity(Severity.INFO).prefixed(unused));
            }
        }
        findings.addAll(ring.stream().map(f -> validRing && f.isError() ? f.withSeverity(Severity.WARNING).prefixed(forced)
                : f.withSeverity(Severity.INFO).prefixed(unused)).toList());
    }

    /**
     * jaccl's ring never reads a rank's own cell ({@code lib/jaccl/jaccl.cpp}: {@code Config::is_valid_ring}
     * compares only the left and right neighbours' cells, {@code Config::get_ring_connectivity} opens
     * only those; 0.31.2 to 0.32.1), while {@code Config::is_valid_mesh} fails on a non-empty one. So
     * when jaccl runs the ring (from 0.31.2; before, {@code DeviceFile::is_valid_ring} wants every other
     * cell empty), {@code diagonal-not-empty} is a warning saying so; with the mesh, or no group, it
     * stays an error.
     */
    private void diagonalUnreadByTheRing(Optional<JacclMode> group) {
        if (group.isEmpty() || group.get() != JacclMode.RING || version.before(MlxVersion.MULTI_NAME)) {
            return;
        }
        List<List<List<String>>> offDiagonal = new ArrayList<>();
        for (int i = 0; i < cells.size(); i++) {
            List<List<String>> row = new ArrayList<>(cells.get(i));
            row.set(i, List.of());
            offDiagonal.add(row);
        }
        int wires = cells.get(0).get(1).size();
        String what = JacclRules.isValidMesh(offDiagonal, version)
                ? "; the file is otherwise a valid mesh, but jaccl's mesh test fails on this cell (Config::is_valid_mesh), so jaccl"
                  + " runs it as a ring of " + wires + (wires == 1 ? " wire" : " wires") + " per direction, not as a mesh"
                : "; jaccl's ring never reads a rank's own cell (Config::is_valid_ring), so it does not stop the ring,"
                  + " though a mesh would refuse the file (Config::is_valid_mesh)";
        for (int i = 0; i < findings.size(); i++) {
            Finding f = findings.get(i);
            if (f.code() == Code.DIAGONAL_NOT_EMPTY) {
                int r = f.ranks().get(0);
                findings.set(i, new Finding(f.code(), Severity.WARNING, f.ranks(), f.rail(), f.ports(), "devices[" + r + "][" + r
                        + "] of " + rank(r) + " names " + quoted(cells.get(r).get(r)) + what + "; write null"));
            }
        }
    }

    private static List<Finding> informational(List<Finding> list, String prefix) {
        return list.stream().map(f -> f.withSeverity(Severity.INFO).prefixed(prefix)).toList();
    }

    /**
     * What jaccl opens on each RDMA device against what the device holds ({@link DeviceBudget}), for
     * the group jaccl would build.
     */
    private void queuePairs(Optional<JacclMode> mode) {
        if (mode.isEmpty() || ranks.size() < 2) {
            return;
        }
        findings.addAll(DeviceBudget.of(ranks, cells, mode.get(), version,
                (r, name) -> Optional.ofNullable(names.computeIfAbsent(ranks.get(r), this::nameIndex).get(name))));
    }
}
