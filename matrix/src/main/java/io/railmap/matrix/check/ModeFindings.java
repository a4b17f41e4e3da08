package io.railmap.matrix.check;

import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.finding.Severity;
import io.railmap.matrix.jaccl.JacclRules;
import io.railmap.matrix.jaccl.MlxVersion;
import io.railmap.matrix.topology.Topology;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The findings of a devices matrix as jaccl's mesh and as its ring, by the rules of one MLX release
 * ({@link JacclRules}), before {@link Checker} grades them by the mode. Cost: O(ranks²) time over the
 * cells, O(ranks) memory besides the findings.
 */
final class ModeFindings {
    private final Topology topology;
    private final List<String> ranks;
    private final List<List<List<String>>> cells;
    private final MlxVersion version;
    private final int pairFindingsMaxRanks;

    ModeFindings(Topology topology, List<String> ranks, List<List<List<String>>> cells, MlxVersion version, int pairFindingsMaxRanks) {
        this.topology = topology;
        this.ranks = ranks;
        this.cells = cells;
        this.version = version;
        this.pairFindingsMaxRanks = pairFindingsMaxRanks;
    }

    /** @return how a finding names rank i: {@code rank 0 (a)} */
    static String rank(List<String> ranks, int i) {
        return "rank " + i + " (" + ranks.get(i) + ")";
    }

    private String rank(int i) {
        return rank(ranks, i);
    }

    /**
     * @param ring         the ring's findings ({@link #ring()})
     * @param wireFindings the names' and rails' findings: a mesh's extra wires say whether a ring would
     *                     fail on them
     * @return the mesh's findings
     */
    List<Finding> mesh(List<Finding> ring, List<Finding> wireFindings) {
        int n = ranks.size();
        List<Finding> out = new ArrayList<>();
        if (n > JacclRules.MESH_MAX_PEERS) {
            out.add(finding(Code.MESH_TOO_LARGE, Severity.ERROR, List.of(), null, n + " ranks are more than jaccl's mesh takes ("
                    + JacclRules.MESH_MAX_PEERS + "; it throws at init); run the ring: set MLX_JACCL_RING=1 with ranks in"
                    + " cycle order (railmap matrix --order ring does both)"));
        }
        Optional<String> ringProblem = ring.stream().filter(Finding::isError).findFirst()
                .map(f -> "a ring, which would use them all, is not valid here: " + f.message())
                .or(() -> wireFindings.stream().filter(f -> f.isError() && f.rail().orElse(0) >= 1).findFirst()
                        .map(f -> "a ring would use them all, but wire " + f.rail().orElseThrow() + " would fail (the "
                                + f.code().externalName() + " finding on it)"));
        MissingPeers missing = n <= pairFindingsMaxRanks ? null : new MissingPeers(ranks);
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                int mine = cells.get(i).get(j).size();
                int theirs = cells.get(j).get(i).size();
                boolean noWire = mine == 0 || theirs == 0;
                if (noWire && missing != null) {
                    missing.add(i, j);
                } else if (noWire) {
                    out.add(finding(Code.MISSING_LINK, Severity.ERROR, List.of(i, j), null, rank(i) + " and " + rank(j)
                            + " share no wire, but a mesh needs a link between every pair"
                            + (topology.cablesBetween(ranks.get(i), ranks.get(j)).isEmpty() ? " (no cable joins them)" : "")));
                } else if ((mine > 1 || theirs > 1) && version.before(MlxVersion.MULTI_NAME)) {
                    out.add(finding(Code.NEEDS_NEWER_MLX, Severity.ERROR, List.of(i, j), null, rank(i) + " and " + rank(j)
                            + " list " + Math.max(mine, theirs) + " wires, but MLX " + version + (version.before(MlxVersion.RING)
                            ? " reads only a single name (or null) per cell" : "'s mesh takes exactly one name per cell")
                            + "; several names need MLX " + MlxVersion.MULTI_NAME + " (railmap matrix --mlx-version " + version
                            + " writes one)"));
                } else if (mine > 1 || theirs > 1) {
                    out.add(finding(Code.EXTRA_WIRES_UNUSED, Severity.WARNING, List.of(i, j), null, rank(i) + " and " + rank(j)
                            + " list " + Math.max(mine, theirs) + " wires, but a mesh uses only wire 0; " + ringProblem
                            .orElse("set MLX_JACCL_RING=1 to run the ring, which is valid and uses them all")));
                }
            }
        }
        if (missing != null) {
            for (int r = 0; r < n; r++) {
                if (missing.count[r] > 0) {
                    out.add(missingPeers(r, missing));
                }
            }
        }
        return out;
    }

    /**
     * The missing peers of every rank in O(ranks) memory: how many, and the first
     * {@value Checker#PEERS_NAMED}. Pairs are added row by row (i ascending, then j), so each rank's peers
     * arrive in ascending order.
     */
    private static final class MissingPeers {
        final int[] count;
        final int[][] first;
        final Map<String, Integer> rankOf = new HashMap<>();

        MissingPeers(List<String> ranks) {
            count = new int[ranks.size()];
            first = new int[ranks.size()][Checker.PEERS_NAMED];
            for (int r = 0; r < ranks.size(); r++) {
                rankOf.put(ranks.get(r), r);
            }
        }

        void add(int i, int j) {
            note(i, j);
            note(j, i);
        }

        private void note(int r, int peer) {
            if (count[r] < Checker.PEERS_NAMED) {
                first[r][count[r]] = peer;
            }
            count[r]++;
        }
    }

    /** One {@code missing-link} finding for rank r: how many peers it shares no wire with, the first few, and how many no cable joins. */
    private Finding missingPeers(int r, MissingPeers missing) {
        int count = missing.count[r];
        List<String> named = new ArrayList<>();
        for (int k = 0; k < Math.min(count, Checker.PEERS_NAMED); k++) {
            named.add(rank(missing.first[r][k]));
        }
        int uncabled = count;
        for (String node : topology.cabledTo(ranks.get(r))) {
            Integer p = missing.rankOf.get(node);
            if (p != null && (cells.get(r).get(p).isEmpty() || cells.get(p).get(r).isEmpty())) {
                uncabled--;
            }
        }
        String peers = String.join(", ", named) + (count > named.size() ? " and " + (count - named.size()) + " more" : "");
        String cables = uncabled == count ? (count == 1 ? "; no cable joins them" : "; no cable joins it to any of them")
                : uncabled == 0 ? "" : "; no cable joins it to " + uncabled + " of them";
        return finding(Code.MISSING_LINK, Severity.ERROR, List.of(r), null, rank(r) + " shares no wire with " + count + " of its "
                + (ranks.size() - 1) + " peers (" + peers + "), but a mesh needs a link between every pair" + cables);
    }

    /** @return the ring's findings */
    List<Finding> ring() {
        int n = ranks.size();
        List<Finding> out = new ArrayList<>();
        if (n < 2) {
            return out;
        }
        if (version.before(MlxVersion.RING)) {
            out.add(finding(Code.NEEDS_NEWER_MLX, Severity.ERROR, List.of(), null, "MLX " + version + " has no jaccl ring; it came in MLX "
                    + MlxVersion.RING));
            return out;
        }
        int expected = cells.get(0).get(1).size();
        boolean unequal = false;
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
                    unequal = true;
                    out.add(finding(Code.UNEQUAL_RING_WIRES, Severity.ERROR, List.of(r, s), null, rank(cell[0]) + " has "
                            + cell[2] + " wires towards " + rank(cell[1]) + " but devices[0][1] has " + expected
                            + "; every ring edge needs the same count"));
                }
                if (cell[2] > JacclRules.RING_MAX_CONNS) {
                    out.add(finding(Code.TOO_MANY_WIRES, Severity.ERROR, List.of(r, s), null, rank(cell[0]) + " has "
                            + cell[2] + " wires towards " + rank(cell[1]) + "; jaccl's ring takes at most "
                            + JacclRules.RING_MAX_CONNS + " and throws at init (railmap matrix --max-wires 4)"));
                }
            }
        }
        if (version.before(MlxVersion.MULTI_NAME)) {
            for (int i = 0; i < n; i++) {
                for (int j = i + 1; j < n; j++) {
                    boolean neighbours = j == JacclRules.right(i, n) || i == JacclRules.right(j, n);
                    if (!neighbours && (!cells.get(i).get(j).isEmpty() || !cells.get(j).get(i).isEmpty())) {
                        out.add(finding(Code.NON_NEIGHBOUR_WIRES, Severity.ERROR, List.of(i, j), null, rank(i) + " and " + rank(j)
                                + " are not ring neighbours but their cells name wires; MLX " + version + "'s ring needs those"
                                + " cells null (MLX " + MlxVersion.MULTI_NAME + " ignores them; railmap matrix --mlx-version "
                                + version + " writes them null)"));
                    }
                }
            }
        }
        if (!unequal && expected > 1 && version.before(MlxVersion.MULTI_WIRE_RING)) {
            out.add(finding(Code.NEEDS_NEWER_MLX, Severity.ERROR, List.of(), null, "the ring has " + expected + " wires per edge, but MLX "
                    + version + "'s ring of several wires can hang in send/recv (fixed in " + MlxVersion.MULTI_WIRE_RING
                    + "); upgrade MLX, or use one wire per edge (railmap matrix --mlx-version " + version + " writes that)"));
        }
        return out;
    }

    private static Finding finding(Code code, Severity severity, List<Integer> on, Integer rail, String message) {
        return new Finding(code, severity, on, Optional.ofNullable(rail), message);
    }
}
