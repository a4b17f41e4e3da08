package io.railmap.matrix.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.railmap.matrix.Cells;
import io.railmap.matrix.Cluster;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.finding.Severity;
import io.railmap.matrix.jaccl.MlxVersion;
import io.railmap.matrix.model.LocalRank;
import io.railmap.matrix.model.PortState;
import io.railmap.matrix.plan.Order;
import io.railmap.matrix.plan.Plan;
import io.railmap.matrix.plan.Planner;
import io.railmap.matrix.rail.RailOptions;
import io.railmap.matrix.topology.Topology;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.function.Function;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;

/**
 * Properties of job verdicts over seeded random clusters (2 to 8 nodes; every pair, or only ring
 * neighbours, joined by 1 to 3 active cables in random order; cables to a node outside the job; at most
 * 1 to 4 wires a pair): a job whose ranks run with the rows {@code railmap matrix} wrote gets no finding
 * but what {@code railmap matrix} itself said of them (a mesh's unused extra wires), and none when it
 * said nothing; one whose rank swapped two cells of its row that differ is always an error; one whose
 * rank swapped two rails of a cell is a {@code job-rail-mismatch} on both. Each failure names its seed:
 * rerun one case by setting {@code BASE_SEED} to it. Ring jobs of MLX's ring backend ({@link RingCase}): one whose
 * ranks list their ends of their cables to the rank before gets no finding; one whose rank lists its end of a cable
 * to a node outside the job instead is a {@code job-rail-mismatch} naming that wire.
 */
class JobPropertiesTest {
    private static final long BASE_SEED = 0x10b5_2026L;
    private static final String COORDINATOR = "10.0.0.1:32323";

    /** A random cluster, the job's nodes in rank order, and the plan railmap matrix makes for them. */
    record Case(long seed, Topology topology, Plan plan) {
        /** @return the ranks each node publishes for this job, with rows changed by {@code rows} */
        Map<String, List<LocalRank>> ranks(Function<List<List<List<String>>>, List<List<List<String>>>> rows, Random random) {
            List<List<List<String>>> devices = rows.apply(Cells.copy(plan.matrix().devices()));
            Map<String, List<LocalRank>> out = new HashMap<>();
            List<String> nodes = plan.ranks();
            for (int i = 0; i < nodes.size(); i++) {
                long pid = 100 + random.nextInt(1 << 20);
                Map<String, String> settings = new HashMap<>(Map.of("MLX_RANK", String.valueOf(i), "MLX_JACCL_COORDINATOR", COORDINATOR,
                        "MLX_IBV_DEVICES", "/tmp/hosts_" + i + ".json"));
                if (plan.runRing()) {
                    settings.put("MLX_JACCL_RING", "1");
                }
                List<LocalRank> local = new ArrayList<>(List.of(new LocalRank(pid, 1_700_000_000_000L, settings,
                        Optional.of(devices.get(i)), Optional.empty(), Optional.empty())));
                // a process of another job on the same node changes nothing
                local.add(new LocalRank(pid + 1, 1_700_000_000_000L, Map.of("NCCL_IB_HCA", "^nothing"), Optional.empty(), Optional.empty(), Optional.empty()));
                Collections.shuffle(local, random);
                out.put(nodes.get(i), local);
            }
            return out;
        }
    }

    static Case randomCase(long seed) {
        Random random = new Random(seed);
        int n = 2 + random.nextInt(7);
        List<String> nodes = new ArrayList<>();
        for (int a = 0; a < n; a++) {
            nodes.add("n" + a);
        }
        Collections.shuffle(nodes, random);
        // a full mesh (every pair cabled), or a ring (only rank neighbours cabled: jaccl runs the ring)
        boolean mesh = random.nextBoolean();
        Cluster cluster = new Cluster();
        Map<String, Integer> nextPort = new HashMap<>();
        double rate = new double[] {100, 200, 400}[random.nextInt(3)];
        List<String> all = new ArrayList<>(nodes);
        all.add("outside");  // cabled to every node, in no job: its cables are to be ignored
        all.forEach(cluster::node);
        for (int a = 0; a < all.size(); a++) {
            for (int b = a + 1; b < all.size(); b++) {
                boolean neighbours = b == a + 1 || a == 0 && b == n - 1;
                if (!mesh && b < n && !neighbours) {
                    continue;
                }
                int cables = 1 + random.nextInt(3);
                for (int k = 0; k < cables; k++) {
                    String x = all.get(a) + ":p" + nextPort.merge(all.get(a), 1, Integer::sum);
                    String y = all.get(b) + ":p" + nextPort.merge(all.get(b), 1, Integer::sum);
                    if (random.nextBoolean()) {
                        cluster.cable(x, y, rate, PortState.ACTIVE);
                    } else {
                        cluster.cable(y, x, rate, PortState.ACTIVE);
                    }
                }
            }
        }
        Topology topology = Topology.of(cluster.snapshot());
        Plan plan = Planner.plan(topology, nodes, Order.GIVEN, RailOptions.DEFAULTS.withMaxWires(1 + random.nextInt(4)), MlxVersion.NEWEST);
        return new Case(seed, topology, plan);
    }

    /** The case of a repetition, whose plan jaccl can run. */
    private static Case validCase(RepetitionInfo repetition) {
        Case c = randomCase(BASE_SEED + repetition.getCurrentRepetition());
        assertThat(c.plan().findings()).as("seed %d: railmap matrix's plan", c.seed()).noneMatch(Finding::isError);
        return c;
    }

    /** Runs a property's assertions, a failure naming the seed and ranks to rerun it by. */
    private static void named(Case c, Runnable assertions) {
        try {
            assertions.run();
        } catch (AssertionError e) {
            fail("seed " + c.seed() + ", ranks " + c.plan().ranks() + ": " + e.getMessage(), e);
        }
    }

    private static List<JobVerdict> check(Case c, Map<String, List<LocalRank>> ranks) {
        Jobs.Assembly assembly = Jobs.assemble(ranks);
        return JobCheck.check(assembly.jobs(), c.topology(), MlxVersion.NEWEST);
    }

    private static JobVerdict jacclJob(List<JobVerdict> verdicts) {
        return verdicts.stream().filter(v -> v.job().kind() == JobKind.JACCL).findFirst().orElseThrow();
    }

    @RepeatedTest(200)
    void aJobRunningRailmapsOwnRowsHasNoFinding(RepetitionInfo repetition) {
        Case c = validCase(repetition);
        named(c, () -> {
            JobVerdict v = jacclJob(check(c, c.ranks(rows -> rows, new Random(c.seed()))));
            assertThat(v.job().ranks()).hasSize(c.plan().ranks().size());
            assertThat(v.findings()).noneMatch(Finding::isError)
                    .allSatisfy(f -> assertThat(c.plan().findings()).as("railmap matrix said it too")
                            .anyMatch(p -> p.code() == f.code() && p.ranks().equals(f.ranks())));
            if (c.plan().findings().stream().allMatch(p -> p.severity() == Severity.INFO)) {
                assertThat(v.findings()).isEmpty();
                assertThat(v.verdict()).isEqualTo("ok");
            }
        });
    }

    @RepeatedTest(200)
    void swappingTwoCellsOfOneRowAlwaysGivesAnError(RepetitionInfo repetition) {
        Case c = validCase(repetition);
        Random random = new Random(~c.seed());
        int n = c.plan().ranks().size();
        int i = random.nextInt(n);
        List<List<String>> row = c.plan().matrix().devices().get(i);
        List<int[]> differing = new ArrayList<>();  // two cells that hold the same (two nulls) swap to the same row
        for (int a = 0; a < n; a++) {
            for (int b = a + 1; b < n; b++) {
                if (!row.get(a).equals(row.get(b))) {
                    differing.add(new int[] {a, b});
                }
            }
        }
        assertThat(differing).as("row %d has its empty diagonal and some wire", i).isNotEmpty();
        int[] pick = differing.get(random.nextInt(differing.size()));
        int x = pick[0];
        int y = pick[1];
        named(c, () -> {
            JobVerdict v = jacclJob(check(c, c.ranks(rows -> {
                Collections.swap(rows.get(i), x, y);
                return rows;
            }, random)));
            assertThat(v.verdict()).as("row %d, cells %d and %d swapped", i, x, y).isEqualTo("error");
        });
    }

    @RepeatedTest(200)
    void swappingTwoRailsOfOneCellIsAlwaysARailMismatch(RepetitionInfo repetition) {
        Case c = validCase(repetition);
        Random random = new Random(c.seed() * 31);
        List<int[]> multi = new ArrayList<>();
        int n = c.plan().ranks().size();
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                if (c.plan().matrix().wires(i, j) >= 2) {
                    multi.add(new int[] {i, j});
                }
            }
        }
        if (multi.isEmpty()) {
            return;
        }
        int[] cell = multi.get(random.nextInt(multi.size()));
        int wires = c.plan().matrix().wires(cell[0], cell[1]);
        int x = random.nextInt(wires);
        int y = (x + 1 + random.nextInt(wires - 1)) % wires;
        named(c, () -> {
            JobVerdict v = jacclJob(check(c, c.ranks(rows -> {
                Collections.swap(rows.get(cell[0]).get(cell[1]), x, y);
                return rows;
            }, random)));
            assertThat(v.findings()).filteredOn(f -> f.code() == io.railmap.matrix.finding.Code.JOB_RAIL_MISMATCH)
                    .extracting(f -> f.rail().orElseThrow()).containsExactlyInAnyOrder(Math.min(x, y), Math.max(x, y));
        });
    }

    /**
     * A random ring job of MLX's ring backend: 2 to 8 nodes in a ring, every ring edge joined by the same 1 to 3
     * cables (each a /30 of its own), and an outside node cabled to every one; each rank's published entry lists its
     * ends of its cables to the rank before it, as railmap matrix --format ring-launch writes them.
     *
     * @param entries per rank, its {@code ip:port} addresses
     * @param outside per rank, its address on its cable to the outside node
     */
    record RingCase(long seed, List<String> nodes, Topology topology, List<List<String>> entries, List<String> outside) {
        Map<String, List<LocalRank>> ranks(List<List<String>> entries) {
            Map<String, List<LocalRank>> out = new HashMap<>();
            for (int r = 0; r < nodes.size(); r++) {
                out.put(nodes.get(r), List.of(new LocalRank(100 + r, 1_700_000_000_000L, Map.of("MLX_RANK", String.valueOf(r),
                        "MLX_HOSTFILE", "/tmp/tmp.job"), Optional.empty(), Optional.of("ab".repeat(32)),
                        Optional.of(new io.railmap.matrix.model.RingEntry(nodes.size(), entries.get(r))))));
            }
            return out;
        }
    }

    static RingCase randomRing(long seed) {
        Random random = new Random(seed);
        int n = 2 + random.nextInt(7);
        int cables = 1 + random.nextInt(3);
        List<String> nodes = new ArrayList<>();
        for (int a = 0; a < n; a++) {
            nodes.add("n" + a);
        }
        Collections.shuffle(nodes, random);
        List<String> all = new ArrayList<>(nodes);
        all.add("outside");
        io.railmap.matrix.address.Wired wired = new io.railmap.matrix.address.Wired(all.toArray(String[]::new));
        List<List<String>> entries = new ArrayList<>();
        List<String> outside = new ArrayList<>();
        for (int r = 0; r < n; r++) {
            entries.add(new ArrayList<>());
        }
        int subnet = 0;
        int port = 5000;
        for (int r = 0; r < (n == 2 ? 1 : n); r++) {  // the edge between rank r and rank r-1; two ranks share one edge
            int l = (r + n - 1) % n;
            for (int k = 0; k < cables; k++, subnet++) {
                String x = "10." + subnet / 64 + "." + subnet % 64 * 4 + ".";
                wired.cable(nodes.get(r) + ":e" + subnet, x + "1/30", nodes.get(l) + ":f" + subnet, x + "2/30");
                entries.get(r).add(x + "1:" + port++);  // rank r listens on its ends; rank l's ends are for rank l-1's wires
                if (n == 2) {  // and for two ranks, rank 1's left neighbour is rank 0 over the same cables
                    entries.get(l).add(x + "2:" + port++);
                }
            }
        }
        for (int r = 0; r < n; r++, subnet++) {
            String x = "10." + subnet / 64 + "." + subnet % 64 * 4 + ".";
            wired.cable(nodes.get(r) + ":o" + r, x + "1/30", "outside:o" + r, x + "2/30");
            outside.add(x + "1:" + port++);
        }
        return new RingCase(seed, nodes, wired.topology(), entries, outside);
    }

    private static JobVerdict ringJob(RingCase c, List<List<String>> entries) {
        List<JobVerdict> verdicts = JobCheck.check(Jobs.assemble(c.ranks(entries)).jobs(), c.topology(), MlxVersion.NEWEST);
        assertThat(verdicts).hasSize(1);
        return verdicts.get(0);
    }

    private static void named(RingCase c, Runnable assertions) {
        try {
            assertions.run();
        } catch (AssertionError e) {
            fail("seed " + c.seed() + ", ranks " + c.nodes() + ", entries " + c.entries() + ": " + e.getMessage(), e);
        }
    }

    @RepeatedTest(100)
    void aRingJobWhoseEveryRankListsItsEndsOfItsCablesToTheRankBeforeHasNoFinding(RepetitionInfo repetition) {
        RingCase c = randomRing(BASE_SEED + repetition.getCurrentRepetition());
        named(c, () -> {
            JobVerdict v = ringJob(c, c.entries());
            assertThat(v.job().size()).contains(c.nodes().size());
            assertThat(v.findings()).isEmpty();
            assertThat(v.verdict()).isEqualTo("ok");
        });
    }

    @RepeatedTest(100)
    void aRingRankListingItsEndOfACableToANodeOutsideTheJobIsARailMismatchNamingIt(RepetitionInfo repetition) {
        RingCase c = randomRing(BASE_SEED + repetition.getCurrentRepetition());
        Random random = new Random(~c.seed());
        int r = random.nextInt(c.nodes().size());
        int k = random.nextInt(c.entries().get(r).size());
        List<List<String>> entries = new ArrayList<>(c.entries().stream().map(e -> (List<String>) new ArrayList<>(e)).toList());
        entries.get(r).set(k, c.outside().get(r));
        named(c, () -> {
            JobVerdict v = ringJob(c, entries);
            assertThat(v.verdict()).isEqualTo("error");
            assertThat(v.findings()).filteredOn(f -> f.code() == io.railmap.matrix.finding.Code.JOB_RAIL_MISMATCH).singleElement()
                    .satisfies(f -> {
                        assertThat(f.rail()).contains(k);
                        assertThat(f.ports()).contains(io.railmap.matrix.model.PortRef.parse(c.nodes().get(r) + ":o" + r));
                        assertThat(f.message()).contains("MLX_HOSTFILE[" + r + "][" + k + "]", "pid " + (100 + r));
                    });
        });
    }
}
