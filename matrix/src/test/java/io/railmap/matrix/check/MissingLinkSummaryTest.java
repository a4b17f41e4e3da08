package io.railmap.matrix.check;

import static org.assertj.core.api.Assertions.assertThat;

import io.railmap.matrix.Cluster;
import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.finding.Severity;
import io.railmap.matrix.jaccl.MlxVersion;
import io.railmap.matrix.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * {@code missing-link} grows with the square of the ranks, so above
 * {@value Checker#PAIR_FINDINGS_MAX_RANKS} ranks it is one finding per rank (a count and the first
 * {@value Checker#PEERS_NAMED} peers) instead of one per pair; the two forms must say the same.
 */
class MissingLinkSummaryTest {
    private static final long BASE_SEED = 0x5ca1_e2026L;
    private static final int RUNS = 100;
    private static final Pattern SUMMARY = Pattern.compile(
            "rank (\\d+) \\(n\\d+\\) shares no wire with (\\d+) of its (\\d+) peers \\((.*?)\\), but a mesh needs a link between every pair(.*)");
    private static final Pattern PEER = Pattern.compile("rank (\\d+) \\(n\\d+\\)");

    /** n ranks n0..n(n-1) cabled in a ring (one cable per edge, {@code ni:r} to {@code n(i+1):l}), the file naming the ring's wires only. */
    private static List<List<List<String>>> ringCells(int n) {
        List<List<List<String>>> cells = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            List<List<String>> row = new ArrayList<>();
            for (int j = 0; j < n; j++) {
                row.add(j == (i + 1) % n ? List.of("rdma_r") : i == (j + 1) % n ? List.of("rdma_l") : List.of());
            }
            cells.add(row);
        }
        return cells;
    }

    private static Cluster ring(int n) {
        Cluster c = new Cluster();
        for (int i = 0; i < n; i++) {
            c.cable("n" + i + ":r", "n" + (i + 1) % n + ":l");
        }
        return c;
    }

    private static List<String> ranks(int n) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add("n" + i);
        }
        return out;
    }

    private static List<Finding> missingLinks(List<Finding> findings) {
        return findings.stream().filter(f -> f.code() == Code.MISSING_LINK).toList();
    }

    @Test
    void aboveTheThresholdEachRankGetsOneFindingWithItsCountAndFirstPeers() {
        int n = Checker.PAIR_FINDINGS_MAX_RANKS + 4;
        // one chord the file leaves out: n0:c–n10:c joins ranks 0 and 10 by a cable, but no cell names it
        Topology t = Topology.of(ring(n).cable("n0:c", "n10:c").snapshot());

        List<Finding> f = missingLinks(Checker.check(t, ranks(n), ringCells(n), Mode.MESH, MlxVersion.NEWEST));

        assertThat(f).hasSize(n).allSatisfy(x -> {
            assertThat(x.ranks()).hasSize(1);
            assertThat(x.severity()).isEqualTo(Severity.ERROR);
        });
        assertThat(f).extracting(x -> x.ranks().get(0)).containsExactlyElementsOf(
                java.util.stream.IntStream.range(0, n).boxed().toList());
        assertThat(f.get(0).message()).isEqualTo("rank 0 (n0) shares no wire with 17 of its 19 peers (rank 2 (n2), rank 3 (n3),"
                + " rank 4 (n4), rank 5 (n5) and 13 more), but a mesh needs a link between every pair; no cable joins it to 16 of them");
        assertThat(f.get(5).message()).startsWith("rank 5 (n5) shares no wire with 17 of its 19 peers (rank 0 (n0), rank 1 (n1),"
                + " rank 2 (n2), rank 3 (n3) and 13 more)").endsWith("; no cable joins it to any of them");
    }

    @Test
    void upToTheThresholdEveryMissingPairIsAFindingOfItsOwn() {
        int n = Checker.PAIR_FINDINGS_MAX_RANKS;
        Topology t = Topology.of(ring(n).snapshot());

        List<Finding> f = missingLinks(Checker.check(t, ranks(n), ringCells(n), Mode.MESH, MlxVersion.NEWEST));

        // every pair but the n ring edges
        assertThat(f).hasSize(n * (n - 1) / 2 - n).allSatisfy(x -> {
            assertThat(x.ranks()).hasSize(2);
            assertThat(x.message()).contains("share no wire", "(no cable joins them)");
        });
        assertThat(f.get(0).ranks()).containsExactly(0, 2);
    }

    @Test
    void aRankMissingOnePeerNamesItAlone() {
        int n = Checker.PAIR_FINDINGS_MAX_RANKS + 1;
        List<List<List<String>>> cells = new ArrayList<>();
        Cluster c = new Cluster();
        for (int i = 0; i < n; i++) {
            List<List<String>> row = new ArrayList<>();
            for (int j = 0; j < n; j++) {
                boolean wire = i != j && !(Math.min(i, j) == 3 && Math.max(i, j) == 9);
                row.add(wire ? List.of("rdma_to" + j) : List.of());
                if (i < j) {
                    c.cable("n" + i + ":to" + j, "n" + j + ":to" + i);
                }
            }
            cells.add(row);
        }

        List<Finding> f = missingLinks(Checker.check(Topology.of(c.snapshot()), ranks(n), cells, Mode.MESH, MlxVersion.NEWEST));

        assertThat(f).extracting(Finding::message).containsExactly(
                "rank 3 (n3) shares no wire with 1 of its 16 peers (rank 9 (n9)), but a mesh needs a link between every pair",
                "rank 9 (n9) shares no wire with 1 of its 16 peers (rank 3 (n3)), but a mesh needs a link between every pair");
    }

    /**
     * Over seeded random files (3 to 40 ranks, random wires, some only on one side, random cables),
     * the per-rank summary and the per-pair findings of the same file agree: each rank's count is the
     * number of pairs it is in, the peers it names are the lowest of them, the count of peers no cable
     * joins it to matches, and every other finding is the same.
     */
    @Test
    void theSummaryAndThePerPairFindingsAgreeOnWhichPairsAreMissing() {
        for (int run = 0; run < RUNS; run++) {
            long seed = BASE_SEED + run;
            Random random = new Random(seed);
            int n = 3 + random.nextInt(38);
            Cluster cluster = new Cluster();
            List<List<List<String>>> cells = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                cluster.node("n" + i);
                List<List<String>> row = new ArrayList<>();
                for (int j = 0; j < n; j++) {
                    row.add(new ArrayList<>());
                }
                cells.add(row);
            }
            double density = random.nextDouble();
            for (int i = 0; i < n; i++) {
                for (int j = i + 1; j < n; j++) {
                    if (random.nextDouble() < density) {
                        cluster.cable("n" + i + ":to" + j, "n" + j + ":to" + i);
                    }
                    int wires = random.nextDouble() < density ? 1 + random.nextInt(2) : 0;
                    for (int k = 0; k < wires; k++) {
                        if (random.nextInt(10) != 0) {
                            cells.get(i).get(j).add("rdma_to" + j);
                        }
                        if (random.nextInt(10) != 0) {
                            cells.get(j).get(i).add("rdma_to" + i);
                        }
                    }
                }
            }
            Topology t = Topology.of(cluster.snapshot());
            List<Finding> perPair = Checker.check(t, ranks(n), cells, Mode.MESH, MlxVersion.NEWEST, Integer.MAX_VALUE);
            List<Finding> summary = Checker.check(t, ranks(n), cells, Mode.MESH, MlxVersion.NEWEST, 0);

            assertThat(summary.stream().filter(f -> f.code() != Code.MISSING_LINK))
                    .as("seed %d", seed).containsExactlyElementsOf(perPair.stream().filter(f -> f.code() != Code.MISSING_LINK).toList());
            List<Finding> pairs = missingLinks(perPair);
            List<Finding> ranks = missingLinks(summary);
            java.util.Map<Integer, List<Finding>> byRank = new java.util.TreeMap<>();
            pairs.forEach(p -> p.ranks().forEach(r -> byRank.computeIfAbsent(r, k -> new ArrayList<>()).add(p)));
            List<Integer> ranksWithPairs = List.copyOf(byRank.keySet());
            assertThat(ranks).as("seed %d", seed).extracting(f -> f.ranks().get(0)).containsExactlyElementsOf(ranksWithPairs);
            for (Finding f : ranks) {
                int r = f.ranks().get(0);
                Matcher m = SUMMARY.matcher(f.message());
                assertThat(m.matches()).as("seed %d: %s", seed, f.message()).isTrue();
                List<Finding> mine = byRank.get(r);
                TreeSet<Integer> peers = mine.stream().map(p -> p.ranks().get(0) == r ? p.ranks().get(1) : p.ranks().get(0))
                        .collect(Collectors.toCollection(TreeSet::new));
                long uncabled = mine.stream().filter(p -> p.message().endsWith("(no cable joins them)")).count();

                assertThat(Integer.parseInt(m.group(1))).isEqualTo(r);
                assertThat(Integer.parseInt(m.group(2))).as("seed %d, rank %d", seed, r).isEqualTo(peers.size());
                assertThat(Integer.parseInt(m.group(3))).isEqualTo(n - 1);
                List<Integer> named = new ArrayList<>();
                Matcher peer = PEER.matcher(m.group(4));
                while (peer.find()) {
                    named.add(Integer.parseInt(peer.group(1)));
                }
                assertThat(named).as("seed %d, rank %d", seed, r)
                        .containsExactlyElementsOf(peers.stream().limit(Checker.PEERS_NAMED).toList());
                int more = peers.size() - named.size();
                assertThat(m.group(4).endsWith(" and " + more + " more")).as("seed %d: %s", seed, f.message()).isEqualTo(more > 0);
                String cables = m.group(5);
                long said = cables.isEmpty() ? 0 : cables.endsWith("any of them") || cables.equals("; no cable joins them")
                        ? peers.size() : Long.parseLong(cables.replaceAll("\\D+", " ").trim().split(" ")[0]);
                assertThat(said).as("seed %d: %s", seed, f.message()).isEqualTo(uncabled);
            }
        }
    }
}
